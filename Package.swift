// swift-tools-version:6.2
//
// swift-blazeface: a pure-Swift engine for Google's BlazeFace detectors and MediaPipe's face-mesh and iris
// models. It reads .tflite files itself and runs them on its own kernels.
import PackageDescription

// MARK: - Platform-dependent pieces

/// OpenBLAS on Linux (Debian: libopenblas-dev), Accelerate on Apple platforms.
let blasDependency: [Target.Dependency] = [
    .target(name: "COpenBLAS", condition: .when(platforms: [.linux]))
]
let blasLinker: [LinkerSetting] = [
    .linkedFramework("Accelerate", .when(platforms: [.macOS, .iOS, .tvOS, .visionOS, .watchOS]))
]

/// The platforms of the file-based products: JPEG/PNG files (`BlazeImageIO`, libjpeg-turbo and libpng), video
/// files (`BlazeVideoIO`, FFmpeg's libraries) and the executables built on them (`blazeface`,
/// `blazeface-bench`). Their C libraries come from the system (Debian packages, Homebrew), which iOS, tvOS and
/// visionOS do not have: there the edges to the C codec targets are dropped (the conditions below) and the two
/// modules stop with an `#error` naming the platform APIs to use instead (`Platforms.swift` in each). SwiftPM
/// cannot leave a product out per platform; an app builds only the products it depends on, and none of the
/// other library products depends on these (see the README's "Platforms").
let fileIOPlatforms: [Platform] = [.linux, .macOS]

// MARK: - Kernel instruction sets

/// `BlazeKernelsFMA` is the microkernels folder of `BlazeKernels` (a symbolic link to
/// `Sources/BlazeKernels/Microkernels`) compiled a second time with AVX2, FMA and F16C enabled; `BlazeKernels`
/// picks one of the two builds once per process from CPUID (`KernelInstructionSet`). The features are given
/// as clang target features through `-Xcc`, which Swift's code generation uses too. Unlike
/// `-target-cpu haswell` or `-Xcc -mavx2`, which are errors when compiling for arm64 (Apple silicon, Linux
/// arm64), an unknown target feature is only a warning there ("'+avx2' is not a recognized feature for this
/// target (ignoring feature)"), and those builds never select the module. Since swift-tools-version 6.2 these
/// `unsafeFlags` no longer prevent depending on this package by version.
let x86FeatureFlags: [String] = ["+avx2", "+fma", "+f16c"].flatMap {
    ["-Xcc", "-Xclang", "-Xcc", "-target-feature", "-Xcc", "-Xclang", "-Xcc", $0]
}
/// The platforms that have x86-64 machines, where BlazeKernels depends on the AVX2/FMA module. SwiftPM has no
/// architecture condition, so the dependency is per platform and the references per architecture:
/// `KernelInstructionSet` names `BlazeKernelsFMA` only under `#if arch(x86_64) && canImport(BlazeKernelsFMA)`.
/// - Linux and macOS on x86-64: compiled with the flags above, linked, chosen at run time from CPUID.
/// - Linux and macOS on arm64 (Apple silicon): still compiled (with the three "ignoring feature" warnings), but
///   nothing references it; its object files go to the linker unused (release links strip unreferenced
///   functions: `-dead_strip` on Darwin, `--gc-sections` on Linux).
/// - iOS, tvOS, visionOS (arm64 devices; the simulators on Intel Macs too): not a dependency, not compiled.
/// Windows is not claimed: the worker pool runs on POSIX threads, and no CI builds there (its atomic words are
/// 64-bit everywhere, so a Windows thread starter is what a port would add).
let fmaPlatforms: [Platform] = [.linux, .macOS]
let fmaKernelSettings: [SwiftSetting] = [
    .define("BLAZE_KERNELS_FMA", .when(platforms: fmaPlatforms)),
    .unsafeFlags(x86FeatureFlags, .when(platforms: fmaPlatforms)),
]
/// `BlazeKernelsAVX512`: the same folder a third time (`Sources/BlazeKernelsAVX512/Microkernels`, another symbolic
/// link), with AVX-512 F, DQ, BW and VL on top of AVX2/FMA/F16C; chosen where CPUID reports them. Same
/// platforms and references as `BlazeKernelsFMA`.
let avx512KernelSettings: [SwiftSetting] = [
    .define("BLAZE_KERNELS_FMA", .when(platforms: fmaPlatforms)),
    .define("BLAZE_KERNELS_AVX512", .when(platforms: fmaPlatforms)),
    .unsafeFlags(["+avx2", "+fma", "+f16c", "+avx512f", "+avx512dq", "+avx512bw", "+avx512vl"].flatMap {
        ["-Xcc", "-Xclang", "-Xcc", "-target-feature", "-Xcc", "-Xclang", "-Xcc", $0]
    }, .when(platforms: fmaPlatforms)),
]

/// The compute-heavy targets (kernels, the interpreter, image sampling) are optimized in debug builds too:
/// unoptimized SIMD code runs 20 to 100 times slower, which made `swift test`'s model runs the bulk of its time.
/// Everything else stays unoptimized for debugging; `-O` keeps Swift's overflow and bounds checks.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// The dependencies only `blazeface serve` needs are taken only with the Server trait.
let serverTrait: TargetDependencyCondition? = .when(traits: ["Server"])

// MARK: - Package

let package = Package(
    name: "swift-blazeface",
    // macOS 14: Hummingbird 2 (the server in the `blazeface` tool) needs it; iOS, tvOS and visionOS build only the libraries.
    platforms: [.macOS(.v14), .iOS(.v16), .tvOS(.v16), .visionOS(.v1)],
    products: [
        .library(name: "BlazeFace", targets: ["BlazeFace"]),
        .library(name: "BlazeFaceMesh", targets: ["BlazeFaceMesh"]),
        .library(name: "BlazeFaceAnalysis", targets: ["BlazeFaceAnalysis"]),
        .library(name: "BlazeTracking", targets: ["BlazeTracking"]),
        .library(name: "BlazeSegmentation", targets: ["BlazeSegmentation"]),
        .library(name: "BlazeReports", targets: ["BlazeReports"]),
        .library(name: "BlazeImaging", targets: ["BlazeImaging"]),
        .library(name: "BlazeRegions", targets: ["BlazeRegions"]),
        .library(name: "BlazeModels", targets: ["BlazeModels"]),
        .library(name: "BlazeAnchors", targets: ["BlazeAnchors"]),
        .library(name: "BlazeRuntime", targets: ["BlazeRuntime"]),
        .library(name: "BlazeTFLite", targets: ["BlazeTFLite"]),
        .library(name: "BlazeNPY", targets: ["BlazeNPY"]),
        // Linux and macOS only (`fileIOPlatforms`): image files, video files, and the executables built on them.
        .library(name: "BlazeImageIO", targets: ["BlazeImageIO"]),
        .library(name: "BlazeVideoIO", targets: ["BlazeVideoIO"]),
        .library(name: "BlazeJobs", targets: ["BlazeJobs"]),
        .executable(name: "blazeface", targets: ["blazeface"]),
        .executable(name: "blazeface-bench", targets: ["blazeface-bench"]),
    ],
    traits: [
        .trait(name: "Server", description: """
            `blazeface serve`: the HTTP service (Hummingbird 2, swift-service-lifecycle, swift-prometheus, \
            swift-openapi-runtime's multipart parser). Off by default, so that the first build of the tool (and \
            any package depending on this one) compiles none of it: `swift build -c release --traits Server` \
            builds the tool with `serve`, and `swift test --traits Server` tests it.
            """),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The server's (the Server trait's) dependencies.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Its multipart parser, through the SPI that generated servers use: pinned to the minor version.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", .upToNextMinor(from: "1.13.4")),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),  // the OpenAPI test reads the YAML
    ],
    targets: [
        // Reading a whole file a user named (a model, an array, a picture): regular files only, opened
        // non-blocking, the size checked against a limit before allocating. Package-internal API; no dependency.
        .target(name: "BlazeFiles"),

        // The verified, zero-copy reader of the .tflite flatbuffer. Knows nothing of kernels.
        .target(name: "BlazeTFLite", dependencies: ["BlazeFiles"]),

        // System library: OpenBLAS's cblas.h (Linux only; Apple platforms use Accelerate). pkg-config's openblas.pc
        // (Debian: libopenblas-dev) names the same header and library that the Debian alternatives
        // /usr/include/<triple>/cblas.h and libopenblas.so point to; without it the module map's `link "openblas"`
        // and the default include path still find them.
        .systemLibrary(
            name: "COpenBLAS",
            pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev"])]
        ),

        // NHWC float32 kernels, one folder per operator, each with a scalar reference.
        .target(
            name: "BlazeKernels",
            dependencies: blasDependency + [
                "CBlazeCPU", "BlazeKernelParameters",
                .target(name: "BlazeKernelsFMA", condition: .when(platforms: fmaPlatforms)),
                .target(name: "BlazeKernelsAVX512", condition: .when(platforms: fmaPlatforms)),
            ],
            swiftSettings: optimizedInDebug,
            linkerSettings: blasLinker
        ),
        // The same microkernels built for AVX2/FMA/F16C (see `fmaKernelSettings`), and CPUID detection.
        .target(
            name: "BlazeKernelsFMA",
            dependencies: ["BlazeKernelParameters"],
            swiftSettings: fmaKernelSettings + optimizedInDebug
        ),
        // And for AVX-512 (see `avx512KernelSettings`).
        .target(
            name: "BlazeKernelsAVX512",
            dependencies: ["BlazeKernelParameters"],
            swiftSettings: avx512KernelSettings + optimizedInDebug
        ),
        // The microkernels' argument structs and dispatch-table types, shared by both builds (types only).
        .target(name: "BlazeKernelParameters"),
        .target(name: "CBlazeCPU"),

        // The interpreter: lowers TFLite operators to kernels, folds constants, plans one arena.
        .target(
            name: "BlazeRuntime",
            dependencies: ["BlazeTFLite", "BlazeKernels", "CBlazeSync"],
            swiftSettings: optimizedInDebug
        ),
        // NumPy .npy reading and writing, for the CLI's `infer` and the tests (float16 through BlazeKernels; files
        // named by users read through BlazeFiles, as models and pictures are).
        .target(name: "BlazeNPY", dependencies: ["BlazeKernels", "BlazeFiles"]),
        // Atomics and the spin-wait hint for the interpreter's worker pool (header-only C).
        .target(name: "CBlazeSync"),

        // Images in memory, pixel formats, orientations, geometry (one IoU) and ImageToTensor, MediaPipe's
        // crop-rotate-resample of a region into a model input. No dependencies.
        .target(name: "BlazeImaging", swiftSettings: optimizedInDebug),

        // MediaPipe's region-of-interest maths: regions from detections and from landmarks (NormalizedRegion,
        // RegionRecipe), points projected back out of a region, and the association rules of the video loops.
        // Pure geometry on BlazeImaging's types; any pipeline that crops around what it found (faces, eyes, hands).
        .target(name: "BlazeRegions", dependencies: ["BlazeImaging"]),

        // SSD anchors, box and keypoint decoding, non-maximum suppression. Pure geometry; no runtime.
        .target(name: "BlazeAnchors", dependencies: ["BlazeImaging"]),

        // The model catalog (names, files, sha256, sources, tensor signatures), the model file locator, and the
        // model session (interpreter + ImageToTensor + outputs by name + lock) that every pipeline runs on.
        .target(name: "BlazeModels", dependencies: ["BlazeRuntime", "BlazeImaging"]),

        // FaceDetector: image in, faces out, in the image's own coordinates.
        .target(
            name: "BlazeFace",
            dependencies: ["BlazeModels", "BlazeRuntime", "BlazeAnchors", "BlazeImaging"]
        ),

        // MediaPipe's 478-point face mesh: FaceLandmarker, and the mesh's topology (connections, regions, the
        // attention model's and the iris model's index maps).
        .target(
            name: "BlazeFaceMesh",
            dependencies: ["BlazeFace", "BlazeModels", "BlazeImaging", "BlazeRegions"]
        ),

        // What a face is doing, from its mesh: head pose (MediaPipe's canonical face fitted under a perspective
        // camera), gestures and capture quality. Functions of landmarks (and, for capture quality, of the face's
        // pixels); BlazeFaceMesh only for the landmark types and ImageView.
        .target(name: "BlazeFaceAnalysis", dependencies: ["BlazeFaceMesh"]),
        // FaceTracker: faces followed through a stream with stable IDs (MediaPipe's video loop on FaceLandmarker,
        // association, identity checks, One-Euro smoothing, head pose and gestures per face, metrics).
        .target(name: "BlazeTracking", dependencies: ["BlazeFaceMesh", "BlazeFaceAnalysis", "BlazeModels", "BlazeRegions"]),
        // MediaPipe's selfie segmentation: PersonSegmenter (image in, person mask out), the mask resize and
        // smoothing, and BackgroundReplacer (colour, blur or picture behind the person).
        .target(
            name: "BlazeSegmentation",
            dependencies: ["BlazeModels", "BlazeImaging"]
        ),
        // The reports of the pipelines as the CLI prints them and the server answers: Codable types
        // (DetectionReport, LandmarksReport, AnalysisReport, SegmentationReport, ImageEntry, BatchReport) and
        // their two JSON layouts. Values only; nothing runs a model.
        .target(
            name: "BlazeReports",
            dependencies: ["BlazeFace", "BlazeFaceMesh", "BlazeFaceAnalysis", "BlazeSegmentation", "BlazeImaging"]
        ),

        // `blazeface serve`: the HTTP service over the pipelines (Hummingbird 2, swift-service-lifecycle,
        // swift-prometheus). In no library product: an app adding BlazeFace builds none of its dependencies.
        // The worker pool and the pipelines' side build without the trait; the HTTP side is `#if Server`.
        .target(
            name: "BlazeServer",
            dependencies: [
                "BlazeReports", "BlazeFace", "BlazeFaceMesh", "BlazeFaceAnalysis", "BlazeSegmentation", "BlazeImageIO",
                "BlazeJobs", "BlazeModels",
                .product(name: "Hummingbird", package: "hummingbird", condition: serverTrait),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: serverTrait),
                .product(name: "Logging", package: "swift-log", condition: serverTrait),
                .product(name: "Prometheus", package: "swift-prometheus", condition: serverTrait),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: serverTrait),
                .product(name: "NIOCore", package: "swift-nio", condition: serverTrait),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: serverTrait),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: serverTrait),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: serverTrait),
            ]
        ),

        // The codec libraries, found through pkg-config: SwiftPM reads the .pc files (Debian's in
        // /usr/lib/<triple>/pkgconfig; with a `.brew` provider also `$(brew --prefix)/opt/<formula>/lib/pkgconfig`)
        // and passes their `-I` flags to every target that depends on the library, C targets included, and their
        // `-L`/`-l` flags to every product that links it. Only the C wrappers below include these headers; no
        // Swift module imports them.
        .systemLibrary(
            name: "CLibJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]
        ),
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        // WebP (libwebp, with its demuxer for EXIF chunks and animations), TIFF (libtiff) and GIF (giflib, which has
        // no pkg-config file: its module map links `gif` from the default paths).
        .systemLibrary(
            name: "CLibWebP",
            pkgConfig: "libwebp libwebpdemux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        .systemLibrary(
            name: "CLibTIFF",
            pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"]), .brew(["libtiff"])]
        ),
        .systemLibrary(
            name: "CGifLib",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]
        ),
        .systemLibrary(
            name: "CLibHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"]), .brew(["libheif"])]
        ),
        // libheif's AV1 decoder, used directly by a bounded decoder plugin for libheif before 1.19.
        .systemLibrary(
            name: "CDav1d",
            pkgConfig: "dav1d",
            providers: [.apt(["libdav1d-dev"]), .brew(["dav1d"])]
        ),
        .systemLibrary(
            name: "CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]
        ),
        // FFmpeg's four libraries in one module (SwiftPM takes several pkg-config names separated by spaces).
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libswscale libavutil",
            providers: [
                .apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"]), .brew(["ffmpeg"]),
            ]
        ),

        // JPEG (libjpeg-turbo) and PNG (libpng) decoding with EXIF orientation, PNG writing: the C wrapper that
        // makes every libjpeg and libpng call. Linux and macOS (`fileIOPlatforms`).
        // Also WebP (libwebp), TIFF (libtiff), GIF (giflib), BMP and PNM through FFmpeg's libavcodec, HEIF/HEIC and
        // AVIF (libheif), and ICC colour profiles to sRGB (LittleCMS).
        .target(
            name: "CBlazeImageCodecs",
            dependencies: ["CLibJPEG", "CLibPNG", "CLibWebP", "CLibTIFF", "CGifLib", "CFFmpeg", "CLibHeif", "CDav1d",
                           "CLCMS2"],
            // A module map's `link` reaches only the modules that import it from Swift; with no pkg-config file
            // for giflib, the C target links it itself.
            linkerSettings: [.linkedLibrary("gif")]
        ),
        .target(
            name: "BlazeImageIO",
            dependencies: [
                "BlazeImaging", "BlazeFiles",
                .target(name: "CBlazeImageCodecs", condition: .when(platforms: fileIOPlatforms)),
            ]
        ),

        // Video files through FFmpeg's libraries: demuxing, decoding and RGB conversion (VideoReader), H.264 or
        // MPEG-4 Part 2 encoding (VideoWriter); the C wrapper makes every FFmpeg call. Linux and macOS.
        .target(name: "CBlazeVideoCodecs", dependencies: ["CFFmpeg"]),
        .target(
            name: "BlazeVideoIO",
            dependencies: [
                "BlazeImaging",
                .target(name: "CBlazeVideoCodecs", condition: .when(platforms: fileIOPlatforms)),
            ]
        ),

        // A picture file's whole face job (decode, scaled or not; pipeline; mapping back; report), with the one
        // options type the CLI, the server and the bench make their pipelines from. Linux and macOS, like
        // BlazeImageIO.
        .target(
            name: "BlazeJobs",
            dependencies: ["BlazeFace", "BlazeFaceMesh", "BlazeFaceAnalysis", "BlazeReports", "BlazeImageIO",
                           "BlazeModels", "BlazeRuntime", "BlazeTFLite"]
        ),

        // The command-line tool.
        .executableTarget(
            name: "blazeface",
            dependencies: [
                "BlazeAnchors",
                "BlazeFace",
                "BlazeFaceAnalysis",
                "BlazeFaceMesh",
                "BlazeImageIO",
                "BlazeJobs",
                "BlazeModels",
                "BlazeNPY",
                "BlazeReports",
                "BlazeRuntime",
                "BlazeSegmentation",
                "BlazeServer",
                "BlazeTFLite",
                "BlazeTracking",
                "BlazeVideoIO",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Counts heap allocations, of the calling thread (the tests) or of every thread (the bench), by
        // interposing glibc's malloc family in the executable that links it. Package-internal: in no product.
        // Not ordo-one/malloc-interposer: that package counts the allocations of all threads only (one global
        // on/off switch, per-thread counters summed on read), while the allocation tests run in parallel in
        // one process and must count their own thread's; it would also put a 16-byte header on every
        // allocation of the process and a dynamic library in the bench.
        .target(name: "CAllocationCounter"),

        // The benchmark executable (sources in Benchmarks/).
        .executableTarget(
            name: "blazeface-bench",
            dependencies: [
                "BlazeFace",
                "BlazeFaceAnalysis",
                "BlazeFaceMesh",
                "BlazeImageIO",
                "BlazeJobs",
                "BlazeModels",
                "BlazeRuntime",
                "BlazeSegmentation",
                "BlazeTracking",
                "BlazeVideoIO",
                "CAllocationCounter",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/blazeface-bench"
        ),

        // The soak executable (sources in Benchmarks/blazeface-soak; run by Benchmarks/soak.sh): the pipelines on
        // a stream of frames for hours (and a short video decoded over and over), resident memory sampled into a
        // CSV and an SVG. Not a product.
        .executableTarget(
            name: "blazeface-soak",
            dependencies: [
                "BlazeFace",
                "BlazeFaceMesh",
                "BlazeImageIO",
                "BlazeImaging",
                "BlazeSegmentation",
                "BlazeTracking",
                "BlazeVideoIO",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/blazeface-soak"
        ),

        // The YUV micro-benchmark (Benchmarks/blazeface-yuvbench): model-input crops sampled from YUV 4:2:0 against
        // the RGB path. Not a product.
        .executableTarget(
            name: "blazeface-yuvbench",
            dependencies: ["BlazeImageIO", "BlazeImaging"],
            path: "Benchmarks/blazeface-yuvbench"
        ),

        // MARK: Tests

        // Shared test helpers: locating models and goldens, comparing tensors, the goldens' test pictures (recipes).
        // Optimized in debug builds like the compute targets: it upscales samples to 24 MP (`LargeSamples`).
        .target(
            name: "BlazeTestSupport",
            dependencies: ["BlazeImageIO", "BlazeImaging", "BlazeModels", "BlazeNPY", "BlazeRuntime"],
            path: "Tests/BlazeTestSupport",
            swiftSettings: optimizedInDebug
        ),
        .testTarget(name: "BlazeTFLiteTests", dependencies: ["BlazeTFLite", "BlazeTestSupport"]),
        .testTarget(name: "BlazeKernelsTests", dependencies: ["BlazeKernels", "BlazeTestSupport"]),
        .testTarget(
            name: "BlazeRuntimeTests",
            dependencies: ["BlazeKernels", "BlazeModels", "BlazeRuntime", "BlazeTFLite", "BlazeTestSupport", "CAllocationCounter"]
        ),
        .testTarget(name: "BlazeAnchorsTests", dependencies: ["BlazeAnchors", "BlazeTestSupport"]),
        .testTarget(name: "BlazeRegionsTests", dependencies: ["BlazeRegions", "BlazeImaging"]),
        .testTarget(name: "BlazeImagingTests", dependencies: ["BlazeImaging", "BlazeTestSupport"]),
        .testTarget(
            name: "BlazeModelsTests",
            dependencies: ["BlazeModels", "BlazeImaging", "BlazeImageIO", "BlazeRuntime", "BlazeSegmentation", "BlazeTFLite",
                           "BlazeTestSupport", "CAllocationCounter"]
        ),
        .testTarget(
            name: "BlazeImageIOTests",
            // libheif itself, to compare the HEVC plugin's pixels with libheif's own decoding.
            dependencies: ["BlazeImageIO", "BlazeTestSupport",
                           .target(name: "CLibHeif", condition: .when(platforms: fileIOPlatforms))],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "BlazeFaceTests",
            dependencies: ["BlazeFace", "BlazeAnchors", "BlazeImageIO", "BlazeModels", "BlazeTestSupport", "CAllocationCounter"]
        ),
        .testTarget(
            name: "BlazeFaceMeshTests",
            dependencies: ["BlazeFaceMesh", "BlazeFaceAnalysis", "BlazeImageIO", "BlazeModels", "BlazeNPY", "BlazeTFLite", "BlazeTestSupport", "CAllocationCounter"]
        ),
        .testTarget(
            name: "BlazeFaceAnalysisTests",
            dependencies: ["BlazeFaceAnalysis", "BlazeFaceMesh", "BlazeImageIO", "BlazeTestSupport", "CAllocationCounter"]
        ),
        .testTarget(
            name: "BlazeTrackingTests",
            dependencies: ["BlazeTracking", "BlazeFaceMesh", "BlazeImageIO", "BlazeTestSupport", "CAllocationCounter"]
        ),
        .testTarget(
            name: "BlazeSegmentationTests",
            dependencies: ["BlazeSegmentation", "BlazeImageIO", "BlazeModels", "BlazeTestSupport", "CAllocationCounter"]
        ),
        .testTarget(
            name: "BlazeReportsTests",
            dependencies: ["BlazeReports", "BlazeFace", "BlazeFaceAnalysis", "BlazeFaceMesh", "BlazeImageIO",
                           "BlazeSegmentation", "BlazeTestSupport"]
        ),
        .testTarget(
            name: "BlazeServerTests",
            dependencies: ["BlazeServer", "BlazeReports", "BlazeFace", "BlazeFaceAnalysis", "BlazeFaceMesh",
                           "BlazeImageIO", "BlazeModels", "BlazeSegmentation", "BlazeTestSupport",
                           .product(name: "HummingbirdTesting", package: "hummingbird", condition: serverTrait),
                           .product(name: "Yams", package: "Yams", condition: serverTrait),
                           .product(name: "Logging", package: "swift-log", condition: serverTrait)]
        ),
        .testTarget(
            name: "BlazeJobsTests",
            dependencies: ["BlazeJobs", "BlazeFace", "BlazeFaceMesh", "BlazeFaceAnalysis", "BlazeImageIO", "BlazeImaging",
                           "BlazeTestSupport"]
        ),
        .testTarget(name: "BlazeVideoIOTests", dependencies: ["BlazeVideoIO", "BlazeTestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "blazefaceTests",
            dependencies: ["BlazeFace", "BlazeFaceAnalysis", "BlazeFaceMesh", "BlazeImageIO", "BlazeNPY", "BlazeReports",
                           "BlazeRuntime", "BlazeSegmentation", "BlazeTestSupport", "BlazeVideoIO",
                           // FormatFilesTests writes WebP and TIFF copies of a sample with the libraries' encoders.
                           "CLibWebP", "CLibTIFF"]
        ),
    ]
)
