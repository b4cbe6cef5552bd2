import BlazeKernels
import BlazeTFLite

/// The custom operators (`CUSTOM` with a `custom_code`) the interpreter runs, registered by name and version.
///
/// A custom operator that is not listed here, or listed with another version, is
/// `InterpreterError.unsupportedOperator` at load time, naming it as `CUSTOM(name)`.
enum CustomOperators {
    typealias Lowering = @Sendable (OperatorContext) throws -> GraphNode

    struct Key: Hashable {
        var name: String
        var version: Int
    }

    /// MediaPipe's operators (google/mediapipe `mediapipe/util/tflite/operations/`), whose parameters come in
    /// the operator's custom options as a FlexBuffers map.
    static let registered: [Key: Lowering] = [
        Key(name: "Landmarks2TransformMatrix", version: 2): { try $0.lowerLandmarksToTransformMatrix() },
        Key(name: "TransformTensorBilinear", version: 2): { try $0.lowerTransformTensorBilinear() },
        Key(name: "TransformLandmarks", version: 2): { try $0.lowerTransformLandmarks() },
        Key(name: "Convolution2DTransposeBias", version: 1): { try $0.lowerTransposeConvBias() },
    ]
}

extension OperatorContext {
    /// Lowers a CUSTOM operator through `CustomOperators.registered`.
    func lowerCustom() throws -> GraphNode {
        guard let name = code.customCode,
              let lowering = CustomOperators.registered[CustomOperators.Key(name: name, version: code.version)] else {
            throw InterpreterError.unsupportedOperator(index: op.index, name: code.name, version: code.version)
        }
        return try lowering(self)
    }

    // MARK: Custom options

    /// The operator's custom options, decoded and verified.
    func customOptions() throws(InterpreterError) -> FlexBufferMap {
        do { return try builder.model.customOptions(of: op) } catch { throw .invalidModel(error) }
    }

    private func option(_ options: FlexBufferMap, _ key: String) throws(InterpreterError) -> FlexValue {
        guard let value = options[key] else { throw invalid("custom option '\(key)' is missing") }
        return value
    }

    /// An integer option (an integer, or a float with an integral value).
    func intOption(_ options: FlexBufferMap, _ key: String) throws(InterpreterError) -> Int {
        let value = try option(options, key)
        guard let int = value.integer else { throw invalid("custom option '\(key)' is \(value), not an integer") }
        return int
    }

    /// A float option (any number), `defaultValue` when absent if one is given.
    func floatOption(_ options: FlexBufferMap, _ key: String, default defaultValue: Float? = nil) throws(InterpreterError) -> Float {
        if options[key] == nil, let defaultValue { return defaultValue }
        let value = try option(options, key)
        guard let number = value.number else { throw invalid("custom option '\(key)' is \(value), not a number") }
        return Float(number)
    }

    /// A vector-of-integers option.
    func intsOption(_ options: FlexBufferMap, _ key: String) throws(InterpreterError) -> [Int] {
        let value = try option(options, key)
        guard let ints = value.integers else { throw invalid("custom option '\(key)' is \(value), not a vector of integers") }
        return ints
    }

    // MARK: Shapes

    /// Checks that `tensor` is a float32 4x4 matrix (16 floats, shape ending in 4, 4).
    func requireMatrix4(_ tensor: Int) throws(InterpreterError) {
        try requireFloat32(tensor)
        let t = graph.tensors[tensor]
        guard t.shape.count >= 2, t.shape.suffix(2) == [4, 4], t.elementCount == 16 else {
            throw .shapeMismatch(index: op.index, operator: code.name, tensor: tensor, name: t.name, expected: [1, 4, 4],
                                 actual: t.shape)
        }
    }

    /// Checks that `tensor` has exactly the shape `expected`.
    func expectShape(_ tensor: Int, _ expected: [Int]) throws(InterpreterError) {
        let t = graph.tensors[tensor]
        guard t.shape == expected else {
            throw .shapeMismatch(index: op.index, operator: code.name, tensor: tensor, name: t.name, expected: expected,
                                 actual: t.shape)
        }
    }

    /// The shape of a landmarks tensor `[1, count, dimensions]`.
    func landmarksShape(_ tensor: Int) throws(InterpreterError) -> (count: Int, dimensions: Int) {
        try requireFloat32(tensor)
        let shape = graph.tensors[tensor].shape
        guard shape.count == 3, shape[0] == 1, shape[1] > 0, shape[2] > 0 else {
            throw invalid("landmarks tensor \(tensor) has shape \(shape), expected [1, count, dimensions]")
        }
        return (shape[1], shape[2])
    }

    // MARK: MediaPipe's operators

    /// `Landmarks2TransformMatrix` v2: landmarks `[1, N, 3]` → a `[1, 4, 4]` matrix; options `subset_idxs`,
    /// `left_rotation_idx`, `right_rotation_idx`, `target_rotation_radians` (0 when absent), `output_width`,
    /// `output_height`, `scale_x`, `scale_y`.
    func lowerLandmarksToTransformMatrix() throws -> GraphNode {
        try expectCounts(inputs: 1, outputs: 1)
        let landmarks = try landmarksShape(op.inputs[0])
        guard landmarks.dimensions == 3 else {
            throw invalid("landmarks have \(landmarks.dimensions) values each; MediaPipe reads x, y, z (3)")
        }
        try expectShape(op.outputs[0], [1, 4, 4])
        let o = try customOptions()
        let kernel = try LandmarksToTransformMatrix(
            landmarkCount: landmarks.count, subset: try intsOption(o, "subset_idxs"),
            leftIndex: try intOption(o, "left_rotation_idx"), rightIndex: try intOption(o, "right_rotation_idx"),
            targetRotation: try floatOption(o, "target_rotation_radians", default: 0),
            outputWidth: try intOption(o, "output_width"), outputHeight: try intOption(o, "output_height"),
            scaleX: try floatOption(o, "scale_x"), scaleY: try floatOption(o, "scale_y"))
        return step(kernel, inputs: op.inputs,
                    summary: "\(kernel.subset.count) landmarks, rotation \(kernel.leftIndex)->\(kernel.rightIndex) to \(kernel.targetRotation), output \(kernel.outputWidth)x\(kernel.outputHeight), scale \(kernel.scaleX)x\(kernel.scaleY)")
    }

    /// `TransformTensorBilinear` v2: an NHWC tensor (batch 1) and a `[1, 4, 4]` matrix → `[1, output_height,
    /// output_width, C]`.
    func lowerTransformTensorBilinear() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        try requireFloat32(op.inputs[0])
        guard graph.tensors[op.inputs[0]].shape.count == 4 else { throw invalid("input must have rank 4") }
        try requireMatrix4(op.inputs[1])
        let o = try customOptions()
        let inShape = try shape4(op.inputs[0])
        let kernel = try TransformTensorBilinear(inputShape: inShape, outputHeight: try intOption(o, "output_height"),
                                                 outputWidth: try intOption(o, "output_width"))
        try expectShape(op.outputs[0], kernel.outputShape.dimensions)
        return step(kernel, inputs: op.inputs,
                    summary: "\(inShape.h)x\(inShape.w) -> \(kernel.outputHeight)x\(kernel.outputWidth), \(inShape.c) ch")
    }

    /// `TransformLandmarks` v2: landmarks `[1, N, D]` (D = 2 or 3) and a `[1, 4, 4]` matrix → `[1, N, D]`; no options.
    func lowerTransformLandmarks() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        let landmarks = try landmarksShape(op.inputs[0])
        try requireMatrix4(op.inputs[1])
        try expectShape(op.outputs[0], graph.tensors[op.inputs[0]].shape)
        let kernel = try TransformLandmarks(count: landmarks.count, dimensions: landmarks.dimensions)
        return step(kernel, inputs: op.inputs, summary: "\(landmarks.count) x \(landmarks.dimensions)")
    }
}
