/// An operator code of the model (schema table `OperatorCode`).
public struct OperatorCode: Hashable, Sendable {
    /// The effective code: the larger of the 8-bit `deprecated_builtin_code` and the 32-bit `builtin_code`,
    /// as TFLite reads it (files written before the 32-bit field existed leave it 0 = ADD).
    public var builtinCode: BuiltinOperator
    /// The raw 8-bit `deprecated_builtin_code` field (codes up to 127; the only one older files set).
    public var deprecatedBuiltinCode: Int8
    /// The raw 32-bit `builtin_code` field.
    public var builtinCodeField: Int32
    /// The custom operator's name (such as MediaPipe's `Convolution2DTransposeBias`), which names the operator
    /// when `builtinCode` is `.custom`; nil when the file has none.
    public var customCode: String?
    /// The operator's version (1 when the file omits it).
    public var version: Int

    /// The operator's name for messages: the builtin name, or the custom code for CUSTOM operators.
    public var name: String {
        if builtinCode == .custom, let customCode { return "CUSTOM(\(customCode))" }
        return builtinCode.name
    }
}

/// An operator of a subgraph (schema table `Operator`).
public struct Operator: Hashable, Sendable {
    /// Index of this operator in its subgraph's execution order.
    public var index: Int
    /// Index into `Model.operatorCodes`.
    public var opcodeIndex: Int
    /// Tensor indices; -1 marks an omitted optional input.
    public var inputs: [Int]
    /// Tensor indices of the outputs, in the operator's order.
    public var outputs: [Int]
    /// The builtin options, decoded for the operators this library runs.
    public var options: BuiltinOptions
    /// Byte range of the custom options inside the model file, if any.
    public var customOptions: Range<Int>?
}

/// A subgraph: tensors and the operators that connect them (schema table `SubGraph`).
public struct SubGraph: Hashable, Sendable {
    /// The subgraph's name, if the file records one.
    public var name: String?
    /// Every tensor of the subgraph; operators, inputs and outputs refer to them by index.
    public var tensors: [Tensor]
    /// Tensor indices of the subgraph's inputs, in the order callers fill them.
    public var inputs: [Int]
    /// Tensor indices of the subgraph's outputs, in the order callers read them.
    public var outputs: [Int]
    /// The operators in the file's order, the order TFLite runs them in.
    public var operators: [Operator]
}

/// Where a buffer's bytes are, inside the model file.
public struct Buffer: Hashable, Sendable {
    /// Byte range of the data inside the file; empty for buffers without data (such as buffer 0).
    public var range: Range<Int>
    /// Whether the buffer holds no data.
    public var isEmpty: Bool { range.isEmpty }
    /// The buffer's length, in bytes.
    public var count: Int { range.count }
}

/// A named metadata entry (schema table `Metadata`): its bytes are buffer `buffer`.
public struct Metadata: Hashable, Sendable {
    /// The entry's name, such as `min_runtime_version`.
    public var name: String?
    /// Index into `Model.buffers` of the entry's bytes.
    public var buffer: Int
}
