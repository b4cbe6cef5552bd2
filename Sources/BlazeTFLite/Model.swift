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
    /// The operator codes; each operator refers to one by `opcodeIndex`.
    public let operatorCodes: [OperatorCode]
    /// The subgraphs; the first is the main one (see `mainSubgraph`). A model has one at least (checked at load).
    public let subgraphs: [SubGraph]
    /// Where each buffer's bytes lie in the file; tensors refer to them by index (buffer 0 is empty by convention).
    public let buffers: [Buffer]
    /// The named metadata entries (such as `min_runtime_version`).
    public let metadata: [Metadata]
    /// The file's free-text description, such as the converter that wrote it.
    public let description: String?
    /// Size of the file in bytes.
    public var fileSize: Int { storage.bytes.count }

    /// Largest file accepted by `init(path:)` by default: 1 GiB.
    public static let defaultMaximumFileSize = 1 << 30

    private let storage: ModelStorage

    /// Reads and verifies the model file at `path`.
    /// - Parameters:
    ///   - path: the `.tflite` file; read once, and not kept open.
    ///   - maximumFileSize: the largest file accepted, in bytes.
    /// - Throws: `TFLiteError.cannotOpen` if the file cannot be read or exceeds `maximumFileSize`;
    ///   another `TFLiteError` if its contents are malformed.
    public convenience init(path: String, maximumFileSize: Int = Model.defaultMaximumFileSize) throws(TFLiteError) {
        try self.init(storage: ModelStorage(path: path, maximumSize: maximumFileSize))
    }

    /// Verifies a model held in memory; the bytes are copied once into aligned storage.
    /// - Parameter bytes: the whole `.tflite` file; not kept after the call.
    /// - Throws: `TFLiteError` naming the malformed field and its byte offset.
    public convenience init(bytes: UnsafeRawBufferPointer) throws(TFLiteError) {
        try self.init(storage: ModelStorage(copying: bytes))
    }

    /// Verifies a model held in an array of bytes.
    /// - Parameter bytes: the whole `.tflite` file; copied once into aligned storage.
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
    /// - Parameter index: an index into `buffers`.
    /// - Returns: the buffer's bytes inside the model's storage, 64-byte aligned at the file's start; empty for
    ///   a buffer without data.
    /// - Precondition: `index` is a valid buffer index.
    public func bytes(of index: Int) -> UnsafeRawBufferPointer {
        precondition(buffers.indices.contains(index), "buffer index \(index) out of range")
        return UnsafeRawBufferPointer(rebasing: storage.bytes[buffers[index].range])
    }

    /// The bytes of a range of the file (for custom options), viewed in place. Valid while the model lives.
    /// - Parameter range: byte offsets from the file's start.
    /// - Returns: the bytes inside the model's storage.
    /// - Precondition: `range` lies inside the file.
    public func bytes(in range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= storage.bytes.count, "range outside the file")
        return UnsafeRawBufferPointer(rebasing: storage.bytes[range])
    }

    /// The custom options of `op` (an operator of subgraph `subgraph`) decoded as a FlexBuffers map;
    /// `FlexBufferMap.empty` when the operator has none.
    /// - Parameters:
    ///   - op: an operator of this model.
    ///   - subgraph: the index of `op`'s subgraph, for the field path in errors.
    /// - Returns: the decoded map (keys in ascending byte order, values decoded as `FlexValue`).
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
    /// - Parameter op: an operator of this model (its `opcodeIndex` was checked at load).
    /// - Returns: `operatorCodes[op.opcodeIndex]`.
    public func operatorCode(of op: Operator) -> OperatorCode { operatorCodes[op.opcodeIndex] }
}
