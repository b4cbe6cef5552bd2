/// A TFLite model read from a `.tflite` flatbuffer.
///
/// The whole file is verified when the model is created: every offset, vtable, vector and string the
/// reader uses is bounds- and alignment-checked, every index (buffer, tensor, operator code) is range-checked,
/// and a malformed file throws `TFLiteError` naming the field and byte offset. Weights are not copied:
/// `bytes(of:)` returns views into the model's own storage, valid as long as the model lives.
///
/// A `Model` is immutable and safe to share between threads.
public final class Model: Sendable {
    /// The schema version (3 for current files).
    public let version: UInt32
    public let operatorCodes: [OperatorCode]
    public let subgraphs: [SubGraph]
    public let buffers: [Buffer]
    public let metadata: [Metadata]
    public let description: String?
    /// Size of the file in bytes.
    public var fileSize: Int { storage.bytes.count }

    /// Largest file accepted by `init(path:)` by default: 1 GiB.
    public static let defaultMaximumFileSize = 1 << 30

    private let storage: ModelStorage

    /// Reads and verifies the model file at `path`.
    /// - Throws: `TFLiteError.cannotOpen` if the file cannot be read or exceeds `maximumFileSize`;
    ///   another `TFLiteError` if its contents are malformed.
    public convenience init(path: String, maximumFileSize: Int = Model.defaultMaximumFileSize) throws(TFLiteError) {
        try self.init(storage: ModelStorage(path: path, maximumSize: maximumFileSize))
    }

    /// Verifies a model held in memory; the bytes are copied once into aligned storage.
    /// - Throws: `TFLiteError` naming the malformed field and its byte offset.
    public convenience init(bytes: UnsafeRawBufferPointer) throws(TFLiteError) {
        try self.init(storage: ModelStorage(copying: bytes))
    }

    /// Verifies a model held in an array of bytes.
    /// - Throws: `TFLiteError` naming the malformed field and its byte offset.
    public convenience init(bytes: [UInt8]) throws(TFLiteError) {
        try self.init(storage: bytes.withUnsafeBytes { ModelStorage(copying: $0) })
    }

    init(storage: ModelStorage) throws(TFLiteError) {
        self.storage = storage
        let parsed = try ModelParser(FlatBufferReader(bytes: storage.bytes)).parse()
        version = parsed.version
        operatorCodes = parsed.operatorCodes
        subgraphs = parsed.subgraphs
        buffers = parsed.buffers
        metadata = parsed.metadata
        description = parsed.description
    }

    /// The bytes of buffer `index`, viewed in place. Valid while this model is alive.
    /// - Precondition: `index` is a valid buffer index.
    public func bytes(of index: Int) -> UnsafeRawBufferPointer {
        precondition(buffers.indices.contains(index), "buffer index \(index) out of range")
        return UnsafeRawBufferPointer(rebasing: storage.bytes[buffers[index].range])
    }

    /// The bytes of a range of the file (for custom options), viewed in place. Valid while the model lives.
    public func bytes(in range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= storage.bytes.count, "range outside the file")
        return UnsafeRawBufferPointer(rebasing: storage.bytes[range])
    }

    /// The custom options of `op` (an operator of subgraph `subgraph`) decoded as a FlexBuffers map;
    /// `FlexBufferMap.empty` when the operator has none.
    /// - Throws: `TFLiteError.malformedFlexBuffer` (with the byte offset in the file) or `.tooComplex` when
    ///   the bytes are not a valid map.
    public func customOptions(of op: Operator, subgraph: Int = 0) throws(TFLiteError) -> FlexBufferMap {
        guard let range = op.customOptions, !range.isEmpty else { return .empty }
        return try FlexBufferMap(bytes: bytes(in: range),
                                 path: "subgraphs[\(subgraph)].operators[\(op.index)].custom_options",
                                 fileOffset: range.lowerBound)
    }

    /// The main subgraph (subgraph 0), which TFLite runs.
    public var mainSubgraph: SubGraph { subgraphs[0] }

    /// The operator code of `op` in this model.
    public func operatorCode(of op: Operator) -> OperatorCode { operatorCodes[op.opcodeIndex] }
}
