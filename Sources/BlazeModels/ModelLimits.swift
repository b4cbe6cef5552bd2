import BlazeRuntime

/// The interpreter's load-time limits for a pipeline's models: what a model file may make the library
/// allocate and compute, checked while the model loads (`Interpreter.Options` holds the same four).
///
/// Every pipeline takes them in its options (`FaceDetector.Options.modelLimits`,
/// `FaceLandmarker.Options.modelLimits`, `PersonSegmenter.Options.modelLimits`, `FaceTracker.Options.modelLimits`)
/// and applies them to every model it loads (a landmarker's detector and iris model too). The defaults are the
/// interpreter's, far above what the catalog's models need; lower them for model files of unknown origin:
///
/// ```swift
/// var options = FaceDetector.Options()
/// options.modelLimits = ModelLimits(maximumArenaBytes: 64 << 20, maximumMultiplyAccumulates: 500_000_000)
/// let detector = try FaceDetector(modelPath: downloaded, configuration: FaceDetector.Model.shortRange.configuration,
///                                 options: options)   // .invalidModel(path, .arenaTooLarge(bytes:limit:)) past it
/// ```
///
/// A model past a limit fails to load with the pipeline's `.invalidModel(path:error:)`, whose `InterpreterError`
/// names the limit and the amount asked for: `.arenaTooLarge`, `.tooMuchWork`, `.constantsTooLarge` or
/// `.tooManyOperators`. A limit of 0 or less refuses every model that needs any of what it bounds.
public struct ModelLimits: Hashable, Sendable {
    /// Largest activation arena of one model, in bytes (`Interpreter.Options.maximumArenaBytes`; default 1 GiB).
    public var maximumArenaBytes: Int
    /// Largest number of multiply-accumulates of one inference (`Interpreter.Options.maximumMultiplyAccumulates`;
    /// default 10^10).
    public var maximumMultiplyAccumulates: Int
    /// Largest total of constant bytes derived while loading (`Interpreter.Options.maximumConstantBytes`;
    /// default 1 GiB).
    public var maximumConstantBytes: Int
    /// Largest number of operators in the main subgraph (`Interpreter.Options.maximumOperatorCount`; default
    /// 16,384).
    public var maximumOperatorCount: Int

    /// The interpreter's defaults, unless given; each parameter sets the property of the same name.
    public init(maximumArenaBytes: Int = Interpreter.Options().maximumArenaBytes,
                maximumMultiplyAccumulates: Int = Interpreter.Options().maximumMultiplyAccumulates,
                maximumConstantBytes: Int = Interpreter.Options().maximumConstantBytes,
                maximumOperatorCount: Int = Interpreter.Options().maximumOperatorCount) {
        self.maximumArenaBytes = maximumArenaBytes
        self.maximumMultiplyAccumulates = maximumMultiplyAccumulates
        self.maximumConstantBytes = maximumConstantBytes
        self.maximumOperatorCount = maximumOperatorCount
    }

    /// Interpreter options with these limits, `threadCount` threads and the defaults otherwise.
    /// - Parameter threadCount: the interpreter's threads (checked when the interpreter is created).
    /// - Returns: the options to create an `Interpreter` with.
    public func interpreterOptions(threadCount: Int) -> Interpreter.Options {
        Interpreter.Options(threadCount: threadCount, maximumArenaBytes: maximumArenaBytes,
                            maximumMultiplyAccumulates: maximumMultiplyAccumulates,
                            maximumConstantBytes: maximumConstantBytes, maximumOperatorCount: maximumOperatorCount)
    }
}
