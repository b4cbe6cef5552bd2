/// An operator code of the model (schema table `OperatorCode`).
public struct OperatorCode: Hashable, Sendable {
    /// The effective code: the larger of the 8-bit `deprecated_builtin_code` and the 32-bit `builtin_code`,
    /// as TFLite reads it (files written before the 32-bit field existed leave it 0 = ADD).
    public var builtinCode: BuiltinOperator
    public var deprecatedBuiltinCode: Int8
    /// The raw 32-bit `builtin_code` field.
    public var builtinCodeField: Int32
    public var customCode: String?
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
    public var outputs: [Int]
    public var options: BuiltinOptions
    /// Byte range of the custom options inside the model file, if any.
    public var customOptions: Range<Int>?
}

/// A subgraph: tensors and the operators that connect them (schema table `SubGraph`).
public struct SubGraph: Hashable, Sendable {
    public var name: String?
    public var tensors: [Tensor]
    public var inputs: [Int]
    public var outputs: [Int]
    public var operators: [Operator]
}

/// Where a buffer's bytes are, inside the model file.
public struct Buffer: Hashable, Sendable {
    /// Byte range of the data inside the file; empty for buffers without data (such as buffer 0).
    public var range: Range<Int>
    public var isEmpty: Bool { range.isEmpty }
    public var count: Int { range.count }
}

/// A named metadata entry (schema table `Metadata`): its bytes are buffer `buffer`.
public struct Metadata: Hashable, Sendable {
    public var name: String?
    public var buffer: Int
}
