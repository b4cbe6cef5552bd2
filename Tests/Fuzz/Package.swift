// swift-tools-version:5.4
//
// Coverage-guided fuzz targets for swift-blazeface's readers (libFuzzer). A package of its own, so that the
// main package, its products and `swift test` are untouched. Build and run with ./run.sh (see
// Documentation/Reliability.md); the targets need `-sanitize=fuzzer` (libFuzzer's `main` comes from the
// sanitizer runtime) and `-parse-as-library` (each has an `@_cdecl` entry point and no top-level code).
// Tools version 5.4 on purpose: from 5.5 on, SwiftPM renames an executable's entry point to `<module>_main`
// and links `main` to it on Linux (for testable executables), which fails when libFuzzer provides `main`.
import PackageDescription

let package = Package(
    name: "swift-blazeface-fuzz",
    platforms: [.macOS("13.0")],
    dependencies: [
        .package(name: "swift-blazeface", path: "../.."),
    ],
    targets: [
        // .tflite: verify, load with small limits, invoke once.
        .executableTarget(name: "fuzz-tflite", dependencies: [
            .product(name: "BlazeTFLite", package: "swift-blazeface"),
            .product(name: "BlazeRuntime", package: "swift-blazeface"),
        ]),
        // Image decoding (JPEG, PNG, WebP, TIFF, GIF, BMP, PNM) with EXIF orientation.
        .executableTarget(name: "fuzz-image", dependencies: [
            .product(name: "BlazeImageIO", package: "swift-blazeface"),
        ]),
        // ImageToTensor over hostile views and regions.
        .executableTarget(name: "fuzz-imagetotensor", dependencies: [
            .product(name: "BlazeImaging", package: "swift-blazeface"),
        ]),
        // FlexBuffers custom-operator options.
        .executableTarget(name: "fuzz-flexbuffers", dependencies: [
            .product(name: "BlazeTFLite", package: "swift-blazeface"),
        ]),
        // Video containers and codecs through the FFmpeg shim, from memory.
        .executableTarget(name: "fuzz-video", dependencies: [
            .product(name: "BlazeVideoIO", package: "swift-blazeface"),
            .product(name: "BlazeImaging", package: "swift-blazeface"),
        ]),
        // NumPy .npy.
        .executableTarget(name: "fuzz-npy", dependencies: [
            .product(name: "BlazeNPY", package: "swift-blazeface"),
        ]),
    ]
)
