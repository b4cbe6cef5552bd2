// swift-tools-version:6.0
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

// MARK: - Package

let package = Package(
    name: "swift-blazeface",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .visionOS(.v1)],
    products: [
        .library(name: "BlazeFace", targets: ["BlazeFace"]),
        .library(name: "BlazeAnchors", targets: ["BlazeAnchors"]),
        .library(name: "BlazeImageIO", targets: ["BlazeImageIO"]),
        .library(name: "BlazeRuntime", targets: ["BlazeRuntime"]),
        .library(name: "BlazeTFLite", targets: ["BlazeTFLite"]),
        .executable(name: "blazeface", targets: ["blazeface"]),
        .executable(name: "blazeface-bench", targets: ["blazeface-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The verified, zero-copy reader of the .tflite flatbuffer. Knows nothing of kernels.
        .target(name: "BlazeTFLite"),

        // System library: OpenBLAS's cblas.h (Linux only).
        .systemLibrary(
            name: "COpenBLAS",
            providers: [.apt(["libopenblas-dev"])]
        ),

        // NHWC float32 kernels, one folder per operator, each with a scalar reference.
        .target(
            name: "BlazeKernels",
            dependencies: blasDependency,
            linkerSettings: blasLinker
        ),

        // The interpreter: lowers TFLite operators to kernels, folds constants, plans one arena.
        .target(
            name: "BlazeRuntime",
            dependencies: ["BlazeTFLite", "BlazeKernels"]
        ),

        // SSD anchors, box and keypoint decoding, non-maximum suppression. Pure geometry; no runtime.
        .target(name: "BlazeAnchors"),

        // FaceDetector: image in, faces out, in the image's own coordinates.
        .target(
            name: "BlazeFace",
            dependencies: ["BlazeRuntime", "BlazeAnchors"]
        ),

        // JPEG (libjpeg-turbo) and PNG (libpng) decoding with EXIF orientation, PNG writing.
        // Debian: libjpeg-dev libpng-dev; macOS: Homebrew jpeg-turbo and libpng.
        .target(
            name: "CBlazeImageCodecs",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png"), .linkedLibrary("z")]
        ),
        .target(name: "BlazeImageIO", dependencies: ["CBlazeImageCodecs"]),

        // The command-line tool.
        .executableTarget(
            name: "blazeface",
            dependencies: [
                "BlazeFace",
                "BlazeImageIO",
                "BlazeRuntime",
                "BlazeTFLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The benchmark executable (sources in Benchmarks/).
        .executableTarget(
            name: "blazeface-bench",
            dependencies: [
                "BlazeFace",
                "BlazeImageIO",
                "BlazeRuntime",
                "CAllocationCounter",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/blazeface-bench"
        ),

        // MARK: Tests

        // Shared test helpers: locating models and goldens, comparing tensors.
        .target(
            name: "BlazeTestSupport",
            dependencies: ["BlazeRuntime"],
            path: "Tests/BlazeTestSupport"
        ),
        // Counts the calling thread's heap allocations (interposes malloc on Linux/glibc).
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        .testTarget(name: "BlazeTFLiteTests", dependencies: ["BlazeTFLite", "BlazeTestSupport"]),
        .testTarget(name: "BlazeKernelsTests", dependencies: ["BlazeKernels"]),
        .testTarget(
            name: "BlazeRuntimeTests",
            dependencies: ["BlazeRuntime", "BlazeTFLite", "BlazeTestSupport", "CAllocationCounter"]
        ),
        .testTarget(name: "BlazeAnchorsTests", dependencies: ["BlazeAnchors"]),
        .testTarget(
            name: "BlazeImageIOTests", dependencies: ["BlazeImageIO", "BlazeTestSupport"], exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "BlazeFaceTests",
            dependencies: ["BlazeFace", "BlazeAnchors", "BlazeImageIO", "BlazeTestSupport", "CAllocationCounter"]
        ),
        .testTarget(name: "blazefaceTests", dependencies: ["BlazeTestSupport"]),
    ]
)
