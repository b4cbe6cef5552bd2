/// The bytes of constants an interpreter derives from its model while loading, against
/// `Interpreter.Options.maximumConstantBytes`.
///
/// Every constant an operator reads is copied out of the file (and its kernel packs that copy), and every
/// folded constant (DEQUANTIZE, DENSIFY) is new memory; a small file can name one large buffer from many
/// operators. Each is charged here before it is made. A class: the builder and the operator contexts (copies
/// of the builder's state) charge one total.
final class ConstantBudget {
    let limit: Int
    private(set) var used = 0

    init(limit: Int) { self.limit = limit }

    /// Adds `bytes` to the total.
    /// - Throws: `InterpreterError.constantsTooLarge` when the total would pass the limit (nothing is added).
    func charge(_ bytes: Int) throws(InterpreterError) {
        let (total, overflow) = used.addingReportingOverflow(bytes)
        guard !overflow, total <= limit else {
            throw .constantsTooLarge(bytes: overflow ? Int.max : total, limit: limit)
        }
        used = total
    }
}

/// Shapes the lowering computed for tensors whose declared shape is a placeholder: a model converted with a
/// dynamic dimension (`shape_signature` with -1, as `from_keras_model` writes for the batch) declares
/// intermediate tensors with guesses such as `[1, 1]`, which TFLite replaces when it propagates shapes. The
/// operator contexts (copies of the builder's state) record here; the builder applies them before the next
/// operator is lowered.
final class InferredShapes {
    private(set) var shapes: [Int: [Int]] = [:]

    func record(_ shape: [Int], for tensor: Int) { shapes[tensor] = shape }

    /// Takes the shapes recorded so far.
    func drain() -> [Int: [Int]] {
        defer { shapes = [:] }
        return shapes
    }
}
