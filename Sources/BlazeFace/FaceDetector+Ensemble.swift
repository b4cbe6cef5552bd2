import BlazeModels

extension FaceDetector {
    /// The models of the still-picture detector: full-range, short-range and full-range-sparse, run together
    /// on every picture and their faces merged. Measured on the samples and on made-up close-ups, masked faces
    /// and old photographs, each also turned (Documentation/FaceDetector.md, "Still pictures"), it finds every
    /// face any one of them finds, with no false face: short-range adds the close-ups full-range misses,
    /// full-range-sparse some faces of grainy old photographs, for about twice full-range's time.
    public static let stillPictureModels: [Model] = [.fullRange, .shortRange, .fullRangeSparse]

    /// A detector that runs several catalog models on each image and merges their faces: highest score
    /// first, a face dropped when its box overlaps a kept one's by an IoU above `options.iouThreshold` (each
    /// model's own NMS runs first). `Face.score` is the score of the model that found the face.
    ///
    /// `options` apply to every model, with one difference: a nil `minimumScore` means the highest of the
    /// models' own defaults (0.6 for `stillPictureModels`), so that a model with a lower default adds no face
    /// weaker than the others would report. `modelPath`, `configuration` and `inputSize` are the first model's.
    /// - Parameters:
    ///   - models: the catalog detectors, the first one's faces first among equal scores; one model gives
    ///     exactly `init(model:modelsDirectory:options:)`.
    ///   - modelsDirectory: a folder holding the model files; nil searches the default folders.
    ///   - options: the options of every model.
    /// - Throws: `FaceDetectorError.invalidOptions` for an empty list; otherwise as
    ///   `init(model:modelsDirectory:options:)`, for the first model that fails.
    public convenience init(models: [Model], modelsDirectory: String? = nil,
                            options: Options = Options()) throws(FaceDetectorError) {
        guard let first = models.first else { throw .invalidOptions("a detector needs at least one model") }
        var each = options
        if models.count > 1, each.minimumScore == nil {
            each.minimumScore = models.map(\.configuration.decoding.minScore).max()
        }
        var companionOptions = each
        companionOptions.tryRotations = false  // the ensemble turns the image once for all its models
        companionOptions.maximumFaces = nil    // and keeps at most maximumFaces after merging
        var companions: [FaceDetector] = []
        for model in models.dropFirst() {
            let path = try FaceDetectorError.locateModel(model.catalogName, in: modelsDirectory)
            companions.append(try FaceDetector(modelPath: path, configuration: model.configuration,
                                               options: companionOptions))
        }
        let path = try FaceDetectorError.locateModel(first.catalogName, in: modelsDirectory)
        try self.init(modelPath: path, configuration: first.configuration, options: each, companions: companions)
    }

    /// The model files of every model this detector runs: `modelPath`, then those of an ensemble's others.
    public var modelPaths: [String] { [modelPath] + companions.map(\.modelPath) }
}
