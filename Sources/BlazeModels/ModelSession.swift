import BlazeImaging
import BlazeRuntime
import Foundation

/// A model loaded for a pipeline: the interpreter, the converter that fills its image input, its outputs
/// looked up by name, and one lock. Face detection, landmarks and segmentation are thin layers on it.
///
/// ```swift
/// let session = try ModelSession(modelPath: path, conversion: .init(range: 0...1, border: .replicate))
/// let mesh = try session.output(named: "conv2d_21")
/// let points = try session.run(image, region: faceRegion) { outputs, footprint in
///     Array(outputs[mesh])                       // read while the lock is held
/// }
/// ```
///
/// Thread safety: a session may be shared between threads; `run` calls are serialized by its lock (they
/// reuse one input tensor and one set of sampling tables). For parallel work, make one session per thread.
/// With a frame of the same size as the last one, `run` performs no heap allocation.
public final class ModelSession: @unchecked Sendable {
    /// How the image input is filled: everything `ImageToTensor` needs but the size, which the model gives.
    public struct Conversion: Hashable, Sendable {
        /// The values pixel values 0 and 255 become (BlazeFace: -1...1; the face mesh: 0...1).
        public var range: ClosedRange<Float>
        /// How the image or region is fitted to the input's aspect ratio (`ImageToTensor.Fit`).
        public var fit: ImageToTensor.Fit
        /// What fills input pixels outside the image (`ImageToTensor.Border`).
        public var border: ImageToTensor.Border
        /// How pixels are sampled (`ImageToTensor.Sampling`).
        public var sampling: ImageToTensor.Sampling

        /// A conversion; each parameter sets the property of the same name.
        public init(range: ClosedRange<Float>, fit: ImageToTensor.Fit = .letterbox, border: ImageToTensor.Border = .zero,
                    sampling: ImageToTensor.Sampling = .warp) {
            self.range = range
            self.fit = fit
            self.border = border
            self.sampling = sampling
        }
    }

    /// An output found by name at creation, so that reading it at run time cannot fail.
    public struct Output: Hashable, Sendable {
        /// The output's position in the model's output list.
        public let index: Int
        /// The output tensor's name in the .tflite file.
        public let name: String
        /// The output tensor's shape, outermost dimension first.
        public let shape: [Int]
        /// The number of values (the product of the shape).
        public var elementCount: Int { shape.reduce(1, *) }
    }

    /// The outputs of the last run. Read them only inside `run`'s body: the next run overwrites them.
    public struct Outputs {
        let buffers: UnsafeBufferPointer<UnsafeBufferPointer<Float>>

        /// The output's values (in the interpreter's memory; copy what you keep).
        /// - Parameter output: an output of this session (`ModelSession.output(named:)` or `outputs`).
        /// - Returns: its `elementCount` values, valid until `run`'s body returns.
        public subscript(output: Output) -> UnsafeBufferPointer<Float> { buffers[output.index] }
    }

    /// The model file in use.
    public let modelPath: String
    /// How the image input is filled.
    public let conversion: Conversion
    /// The image input's width in pixels (the model's `1 x height x width x 3` input).
    public let inputWidth: Int
    /// The image input's height in pixels.
    public let inputHeight: Int
    /// Every output of the model, in the model's order.
    public let outputs: [Output]

    private let interpreter: Interpreter
    private let converter: ImageToTensor
    private let outputBuffers: UnsafeMutableBufferPointer<UnsafeBufferPointer<Float>>
    private let lock = NSLock()

    /// Loads the model at `modelPath`, whose first input must be a `1 x H x W x 3` image, under `limits`.
    /// - Parameters:
    ///   - modelPath: the .tflite file's path.
    ///   - conversion: how the image input is filled.
    ///   - threadCount: the interpreter's threads, from 1 to `Interpreter.Options.maximumThreadCount`.
    ///   - limits: the bounds a model file must stay within (`ModelLimits`).
    /// - Throws: `ModelSessionError.modelNotFound`, `.invalidModel` (a file that does not load, or one past a
    ///   limit: its `InterpreterError` names it), `.incompatibleModel` (no image input), `.invalidOptions`
    ///   (thread count, value range).
    public init(modelPath: String, conversion: Conversion, threadCount: Int = 1,
                limits: ModelLimits = ModelLimits()) throws(ModelSessionError) {
        guard (1...Interpreter.Options.maximumThreadCount).contains(threadCount) else {
            throw .invalidOptions("threadCount \(threadCount) must be from 1 to \(Interpreter.Options.maximumThreadCount)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: modelPath, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .modelNotFound(path: modelPath)
        }
        let interpreter: Interpreter
        do { interpreter = try Interpreter(modelPath: modelPath, options: limits.interpreterOptions(threadCount: threadCount)) } catch {
            throw .invalidModel(path: modelPath, error: error)
        }
        let shape = interpreter.inputs.first?.shape ?? []
        guard interpreter.inputs.count == 1, shape.count == 4, shape[0] == 1, shape[3] == 3 else {
            throw .incompatibleModel(path: modelPath, reason: "expected one 1xHxWx3 image input, the model has \(interpreter.inputs.map(\.shape))")
        }
        do {
            converter = try ImageToTensor(options: .init(width: shape[2], height: shape[1], range: conversion.range,
                                                         fit: conversion.fit, border: conversion.border,
                                                         sampling: conversion.sampling))
        } catch {
            throw .invalidOptions(error.description)
        }
        self.modelPath = modelPath
        self.conversion = conversion
        self.inputWidth = shape[2]
        self.inputHeight = shape[1]
        self.interpreter = interpreter
        self.outputs = interpreter.outputs.enumerated().map { Output(index: $0.offset, name: $0.element.name, shape: $0.element.shape) }
        // The outputs live in the interpreter's arena, at fixed addresses for its whole life.
        outputBuffers = .allocate(capacity: interpreter.outputs.count)
        for index in interpreter.outputs.indices {
            outputBuffers[index] = interpreter.withOutput(at: index) { $0 }
        }
    }

    deinit {
        outputBuffers.deallocate()
    }

    /// The output called `name` in the model.
    /// - Parameter name: the output tensor's name in the .tflite file.
    /// - Returns: the output, to read inside `run`'s body.
    /// - Throws: `ModelSessionError.unknownOutput`, listing the names there are.
    public func output(named name: String) throws(ModelSessionError) -> Output {
        guard let output = outputs.first(where: { $0.name == name }) else {
            throw .unknownOutput(name: name, available: outputs.map(\.name))
        }
        return output
    }

    /// Fills the input from `region` of the upright `image`, runs the model, and calls `body` with the
    /// outputs and the region the input covered (after a letterbox fit; see `ImageToTensor.convert`), all
    /// while holding the session's lock.
    ///
    /// - Parameters:
    ///   - image: the image, read upright (its orientation applied); borrowed for the call only.
    ///   - region: in upright image pixels; nil for the whole image.
    ///   - mirrored: whether the input is flipped left to right after sampling (MediaPipe's iris model sees the
    ///     eye on the image's right mirrored); `footprint` is the region either way.
    ///   - body: reads the outputs (valid only during the call) and the region the input covered, in upright
    ///     image pixels.
    /// - Returns: what `body` returns.
    /// - Throws: `ModelSessionError.invalidImage` when the image or region cannot be sampled; what `body` throws.
    public func run<R>(_ image: ImageView, region: RotatedRect? = nil, mirrored: Bool = false,
                       _ body: (Outputs, RotatedRect) throws(ModelSessionError) -> R) throws(ModelSessionError) -> R {
        lock.lock()
        defer { lock.unlock() }
        let footprint = try fill(image, region: region, mirrored: mirrored)
        interpreter.invoke()
        let outputs = Outputs(buffers: UnsafeBufferPointer(outputBuffers))
        return try body(outputs, footprint)
    }

    /// Only fills the input (the preprocessing step of `run`), for benchmarks.
    package func fillOnly(_ image: ImageView, region: RotatedRect? = nil) throws(ModelSessionError) -> RotatedRect {
        lock.lock()
        defer { lock.unlock() }
        return try fill(image, region: region)
    }

    /// The caller holds the lock.
    private func fill(_ image: ImageView, region: RotatedRect?, mirrored: Bool = false) throws(ModelSessionError) -> RotatedRect {
        let converter = converter, width = inputWidth
        do {
            return try interpreter.withInput(at: 0) { input throws(ImagingError) in
                let footprint = try converter.convert(image, region: region, into: input)
                if mirrored { Self.mirrorRows(input, width: width) }
                return footprint
            }
        } catch {
            throw .invalidImage(error)
        }
    }

    /// Reverses the order of the 3-channel pixels in every row of `tensor` (`rows x width x 3`).
    private static func mirrorRows(_ tensor: UnsafeMutableBufferPointer<Float>, width: Int) {
        guard let base = tensor.baseAddress else { return }
        let rowLength = 3 * width
        for row in stride(from: 0, to: tensor.count - rowLength + 1, by: rowLength) {
            var left = base + row, right = base + row + rowLength - 3
            while left < right {
                for channel in 0..<3 { swap(&left[channel], &right[channel]) }
                left += 3
                right -= 3
            }
        }
    }
}
