import Foundation

// The model's inputs and outputs: their descriptions, lookup by name, and the memory the caller fills and reads.
extension Interpreter {
    // MARK: - Inputs

    /// Name, shape and type of input `index`.
    /// - Parameter index: the input's position, `0 ..< inputs.count`.
    /// - Returns: `inputs[index]`.
    /// - Throws: `InterpreterError.invalidTensorIndex` unless `0 <= index < inputs.count`.
    public func input(at index: Int) throws(InterpreterError) -> TensorInfo {
        try Self.tensor(at: index, of: inputs)
    }

    /// The index of the first input whose tensor is called `name` in the model (as `blazeface inspect`
    /// lists them).
    /// - Parameter name: the tensor's name in the model, such as `input`.
    /// - Returns: a position in `inputs`.
    /// - Throws: `InterpreterError.unknownInputName`, naming the inputs there are.
    public func inputIndex(named name: String) throws(InterpreterError) -> Int {
        try Self.position(of: name, in: inputs, missing: InterpreterError.unknownInputName)
    }

    /// Name, shape and type of the first input whose tensor is called `name` in the model.
    /// - Parameter name: the tensor's name in the model.
    /// - Returns: its name, shape and type.
    /// - Throws: `InterpreterError.unknownInputName`, naming the inputs there are.
    public func input(named name: String) throws(InterpreterError) -> TensorInfo {
        inputs[try inputIndex(named: name)]
    }

    /// Gives `body` the memory of input `index` to fill in place (float32, the input's shape, C order).
    ///
    /// Errors are `body`'s own, passed through untouched and typed: a body that throws nothing makes this
    /// call throw nothing. That leaves no room for an interpreter error in the same call, so `index` must be
    /// valid, as for an array subscript (a bad one stops the program). An index from outside the program is
    /// checked first with `input(at:)`, and a name is resolved (once, not per frame) with
    /// `inputIndex(named:)`; both throw `InterpreterError`.
    /// - Parameters:
    ///   - index: the input's position, `0 ..< inputs.count`.
    ///   - body: reads or writes the input's `inputs[index].elementCount` floats; the memory is valid only during
    ///     the call.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, and nothing else.
    /// - Precondition: `0 <= index < inputs.count`.
    public func withInput<R, E: Error>(
        at index: Int, _ body: (UnsafeMutableBufferPointer<Float>) throws(E) -> R
    ) throws(E) -> R {
        precondition(inputs.indices.contains(index), "input index \(index) out of range 0..<\(inputs.count)")
        return try body(UnsafeMutableBufferPointer(start: inputPointers[index], count: inputs[index].elementCount))
    }

    /// Copies float32 values into input `index`.
    /// - Parameters:
    ///   - values: exactly `inputs[index].elementCount` floats, in the input's C order.
    ///   - index: the input's position.
    /// - Throws: `InterpreterError.invalidTensorIndex` for a bad `index`; `InterpreterError.invalidDataCount`
    ///   unless `values` has exactly the input's element count.
    public func copy(_ values: UnsafeBufferPointer<Float>, toInputAt index: Int) throws(InterpreterError) {
        let info = try input(at: index)
        guard values.count == info.elementCount else {
            throw .invalidDataCount(index: index, expected: info.byteCount, actual: values.count * 4)
        }
        if let base = values.baseAddress { inputPointers[index].update(from: base, count: values.count) }
    }

    /// Copies float32 values into input `index`.
    /// - Parameters:
    ///   - values: exactly `inputs[index].elementCount` floats, in the input's C order.
    ///   - index: the input's position.
    /// - Throws: `InterpreterError.invalidTensorIndex` for a bad `index`; `InterpreterError.invalidDataCount`
    ///   unless `values` has exactly the input's element count.
    public func copy(_ values: [Float], toInputAt index: Int) throws(InterpreterError) {
        try values.withUnsafeBufferPointer { (buffer) throws(InterpreterError) in try copy(buffer, toInputAt: index) }
    }

    /// Copies raw bytes (float32, little-endian, C order) into input `index`, as TensorFlowLiteSwift's
    /// `copy(_:toInputAt:)` does.
    /// - Parameters:
    ///   - data: exactly `inputs[index].byteCount` bytes.
    ///   - index: the input's position.
    /// - Throws: `InterpreterError.invalidTensorIndex` for a bad `index`; `InterpreterError.invalidDataCount`
    ///   unless `data` has exactly the input's byte count.
    public func copy(_ data: Data, toInputAt index: Int) throws(InterpreterError) {
        let info = try input(at: index)
        guard data.count == info.byteCount else {
            throw .invalidDataCount(index: index, expected: info.byteCount, actual: data.count)
        }
        data.withUnsafeBytes { raw in
            if let base = raw.baseAddress { UnsafeMutableRawPointer(inputPointers[index]).copyMemory(from: base, byteCount: data.count) }
        }
    }

    // MARK: - Outputs

    /// Name, shape and type of output `index`.
    /// - Parameter index: the output's position, `0 ..< outputs.count`.
    /// - Returns: `outputs[index]`.
    /// - Throws: `InterpreterError.invalidTensorIndex` unless `0 <= index < outputs.count`.
    public func output(at index: Int) throws(InterpreterError) -> TensorInfo {
        try Self.tensor(at: index, of: outputs)
    }

    /// The index of the first output whose tensor is called `name` in the model (as `blazeface inspect`
    /// lists them), for example `"classificators"` in the BlazeFace detectors.
    /// - Parameter name: the tensor's name in the model, such as `classificators`.
    /// - Returns: a position in `outputs`.
    /// - Throws: `InterpreterError.unknownOutputName`, naming the outputs there are.
    public func outputIndex(named name: String) throws(InterpreterError) -> Int {
        try Self.position(of: name, in: outputs, missing: InterpreterError.unknownOutputName)
    }

    /// Name, shape and type of the first output whose tensor is called `name` in the model.
    /// - Parameter name: the tensor's name in the model.
    /// - Returns: its name, shape and type.
    /// - Throws: `InterpreterError.unknownOutputName`, naming the outputs there are.
    public func output(named name: String) throws(InterpreterError) -> TensorInfo {
        outputs[try outputIndex(named: name)]
    }

    /// Gives `body` the memory of output `index` (float32, the output's shape, C order), valid until the next
    /// `invoke()`.
    ///
    /// As with `withInput(at:_:)`, errors are `body`'s own, passed through untouched and typed, and `index`
    /// must be valid; check one from outside with `output(at:)`, resolve a name once with
    /// `outputIndex(named:)`.
    /// - Parameters:
    ///   - index: the output's position, `0 ..< outputs.count`.
    ///   - body: reads the output's `outputs[index].elementCount` floats; the memory is valid only during the call.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, and nothing else.
    /// - Precondition: `0 <= index < outputs.count`.
    public func withOutput<R, E: Error>(
        at index: Int, _ body: (UnsafeBufferPointer<Float>) throws(E) -> R
    ) throws(E) -> R {
        precondition(outputs.indices.contains(index), "output index \(index) out of range 0..<\(outputs.count)")
        return try body(UnsafeBufferPointer(start: outputPointers[index], count: outputs[index].elementCount))
    }

    /// Copies output `index` into `destination`, which must hold exactly the output's element count.
    /// - Parameters:
    ///   - index: the output's position.
    ///   - destination: exactly `outputs[index].elementCount` floats, written in the output's C order.
    /// - Throws: `InterpreterError.invalidTensorIndex` for a bad `index`;
    ///   `InterpreterError.invalidOutputDataCount` when `destination` has another size.
    public func copyOutput(at index: Int, into destination: UnsafeMutableBufferPointer<Float>) throws(InterpreterError) {
        let info = try output(at: index)
        guard destination.count == info.elementCount else {
            throw .invalidOutputDataCount(index: index, expected: info.byteCount, actual: destination.count * 4)
        }
        if let base = destination.baseAddress { base.update(from: outputPointers[index], count: info.elementCount) }
    }

    /// A copy of output `index` as an array (allocates; use `withOutput` or `copyOutput` per frame).
    /// - Parameter index: the output's position.
    /// - Returns: the output's `elementCount` floats, in C order, as of the last `invoke()`.
    /// - Throws: `InterpreterError.invalidTensorIndex` for a bad `index`.
    public func outputArray(at index: Int) throws(InterpreterError) -> [Float] {
        let info = try output(at: index)
        return Array(UnsafeBufferPointer(start: outputPointers[index], count: info.elementCount))
    }

    /// A copy of the first output whose tensor is called `name` (allocates).
    /// - Parameter name: the tensor's name in the model.
    /// - Returns: the output's floats, in C order, as of the last `invoke()`.
    /// - Throws: `InterpreterError.unknownOutputName`, naming the outputs there are.
    public func outputArray(named name: String) throws(InterpreterError) -> [Float] {
        try outputArray(at: try outputIndex(named: name))
    }

    /// The position of the first tensor called `name`, or `missing` with the names there are.
    private static func position(
        of name: String, in tensors: [TensorInfo], missing: (String, [String]) -> InterpreterError
    ) throws(InterpreterError) -> Int {
        guard let index = tensors.firstIndex(where: { $0.name == name }) else { throw missing(name, tensors.map(\.name)) }
        return index
    }

    /// `tensors[index]`, or the out-of-range error that names the largest index.
    private static func tensor(at index: Int, of tensors: [TensorInfo]) throws(InterpreterError) -> TensorInfo {
        guard tensors.indices.contains(index) else { throw .invalidTensorIndex(index: index, maxIndex: tensors.count - 1) }
        return tensors[index]
    }
}
