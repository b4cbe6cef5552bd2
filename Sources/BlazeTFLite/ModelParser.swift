/// Reads the schema tables of a model through a verifying `FlatBufferReader`, and checks the indices
/// that connect them. Field ids are those of TensorFlow's schema.fbs.
struct ModelParser {
    let r: FlatBufferReader

    /// Largest tensor rank accepted.
    static let maximumRank = 16
    /// Largest element count of one tensor accepted (2^40).
    static let maximumElements = 1 << 40

    init(_ reader: FlatBufferReader) { r = reader }

    struct Parsed {
        var version: UInt32
        var operatorCodes: [OperatorCode]
        var subgraphs: [SubGraph]
        var buffers: [Buffer]
        var metadata: [Metadata]
        var description: String?
    }

    func parse() throws(TFLiteError) -> Parsed {
        guard r.size >= 8 else { throw TFLiteError.fileTooSmall(size: r.size) }
        let identifier = (4..<8).map { r.load(UInt8.self, at: $0) }
        guard identifier == Array("TFL3".utf8) else {
            let text = identifier.map { (32...126).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }
            throw TFLiteError.wrongIdentifier(found: text.joined())
        }
        let model = try r.rootTable(path: "model")
        let version: UInt32 = try r.field(model, 0, "version", default: 0)
        let codes = try (r.tables(model, 1, "operator_codes") ?? []).map(operatorCode)
        let description = try r.string(model, 3, "description")
        let buffers = try (r.tables(model, 4, "buffers") ?? []).map(buffer)
        let metadata = try (r.tables(model, 6, "metadata") ?? []).map(metadataEntry)
        for (i, entry) in metadata.enumerated() where !buffers.indices.contains(entry.buffer) {
            throw TFLiteError.invalidValue(path: "model.metadata[\(i)].buffer",
                                           reason: "buffer index \(entry.buffer) is outside 0..<\(buffers.count)")
        }
        guard let subgraphTables = try r.tables(model, 2, "subgraphs"), !subgraphTables.isEmpty else {
            throw TFLiteError.missingField(path: "model.subgraphs")
        }
        let subgraphs = try subgraphTables.map { (table) throws(TFLiteError) in
            try subgraph(table, operatorCodes: codes.count, buffers: buffers.count)
        }
        return Parsed(version: version, operatorCodes: codes, subgraphs: subgraphs, buffers: buffers,
                      metadata: metadata, description: description)
    }

    // MARK: Tables

    func operatorCode(_ t: FlatBufferReader.Table) throws(TFLiteError) -> OperatorCode {
        let deprecated: Int8 = try r.field(t, 0, "deprecated_builtin_code", default: 0)
        let custom = try r.string(t, 1, "custom_code")
        let version: Int32 = try r.field(t, 2, "version", default: 1)
        let code: Int32 = try r.field(t, 3, "builtin_code", default: 0)
        return OperatorCode(builtinCode: BuiltinOperator(rawValue: max(Int32(deprecated), code)),
                            deprecatedBuiltinCode: deprecated, builtinCodeField: code,
                            customCode: custom, version: Int(version))
    }

    func buffer(_ t: FlatBufferReader.Table) throws(TFLiteError) -> Buffer {
        if let range = try r.byteRange(t, 0, "data"), !range.isEmpty { return Buffer(range: range) }
        // Files over 2 GiB keep buffers outside the flatbuffer: an absolute offset and a size.
        let offset: UInt64 = try r.field(t, 1, "offset", default: 0)
        let size: UInt64 = try r.field(t, 2, "size", default: 0)
        guard offset > 1 else { return Buffer(range: 0..<0) }
        guard offset <= UInt64(r.size), size <= UInt64(r.size) - offset else {
            throw TFLiteError.outOfBounds(path: t.path + ".offset", offset: Int(clamping: offset),
                                          length: Int(clamping: size), fileSize: r.size)
        }
        return Buffer(range: Int(offset)..<Int(offset + size))
    }

    func metadataEntry(_ t: FlatBufferReader.Table) throws(TFLiteError) -> Metadata {
        Metadata(name: try r.string(t, 0, "name"), buffer: Int(try r.field(t, 1, "buffer", default: UInt32(0))))
    }

    func subgraph(_ t: FlatBufferReader.Table, operatorCodes: Int, buffers: Int) throws(TFLiteError) -> SubGraph {
        let tensors = try (r.tables(t, 0, "tensors") ?? []).enumerated().map { (i, table) throws(TFLiteError) in
            try tensor(table, index: i, buffers: buffers)
        }
        func checkTensorIndices(_ indices: [Int], _ path: String, allowOmitted: Bool) throws(TFLiteError) {
            for (k, index) in indices.enumerated() where !(tensors.indices.contains(index) || (allowOmitted && index == -1)) {
                throw TFLiteError.invalidValue(path: "\(path)[\(k)]",
                                               reason: "tensor index \(index) is outside 0..<\(tensors.count)")
            }
        }
        let inputs = try r.integers(t, 1, "inputs", as: Int32.self) ?? []
        let outputs = try r.integers(t, 2, "outputs", as: Int32.self) ?? []
        try checkTensorIndices(inputs, t.path + ".inputs", allowOmitted: false)
        try checkTensorIndices(outputs, t.path + ".outputs", allowOmitted: false)
        var operators = [Operator]()
        for (i, table) in (try r.tables(t, 3, "operators") ?? []).enumerated() {
            let op = try self.op(table, index: i)
            guard op.opcodeIndex < operatorCodes else {
                throw TFLiteError.invalidValue(path: table.path + ".opcode_index",
                                               reason: "operator code \(op.opcodeIndex) is outside 0..<\(operatorCodes)")
            }
            try checkTensorIndices(op.inputs, table.path + ".inputs", allowOmitted: true)
            try checkTensorIndices(op.outputs, table.path + ".outputs", allowOmitted: false)
            operators.append(op)
        }
        return SubGraph(name: try r.string(t, 4, "name"), tensors: tensors, inputs: inputs, outputs: outputs,
                        operators: operators)
    }

    func tensor(_ t: FlatBufferReader.Table, index: Int, buffers: Int) throws(TFLiteError) -> Tensor {
        let shape = try r.integers(t, 0, "shape", as: Int32.self, limit: Self.maximumRank) ?? []
        var elements = 1
        for (k, dim) in shape.enumerated() {
            guard dim >= 0 else {
                throw TFLiteError.invalidValue(path: "\(t.path).shape[\(k)]", reason: "negative dimension \(dim)")
            }
            let (product, overflow) = elements.multipliedReportingOverflow(by: dim)
            guard !overflow, product <= Self.maximumElements else {
                throw TFLiteError.invalidValue(path: t.path + ".shape", reason: "shape \(shape) has too many elements")
            }
            elements = product
        }
        let type = TensorType(rawValue: try r.field(t, 1, "type", default: Int8(0)))
        let buffer = Int(try r.field(t, 2, "buffer", default: UInt32(0)))
        guard buffer < buffers else {
            throw TFLiteError.invalidValue(path: t.path + ".buffer", reason: "buffer index \(buffer) is outside 0..<\(buffers)")
        }
        return Tensor(
            index: index,
            name: try r.string(t, 3, "name") ?? "",
            shape: shape,
            shapeSignature: try r.integers(t, 7, "shape_signature", as: Int32.self, limit: Self.maximumRank),
            type: type,
            buffer: buffer,
            quantization: try r.subtable(t, 4, "quantization").map(quantization),
            sparsity: try r.subtable(t, 6, "sparsity").map(sparsity),
            isVariable: try r.field(t, 5, "is_variable", default: false))
    }

    func quantization(_ t: FlatBufferReader.Table) throws(TFLiteError) -> Quantization {
        Quantization(min: try r.floats(t, 0, "min") ?? [], max: try r.floats(t, 1, "max") ?? [],
                     scale: try r.floats(t, 2, "scale") ?? [],
                     zeroPoint: try r.integers(t, 3, "zero_point", as: Int64.self) ?? [],
                     quantizedDimension: Int(try r.field(t, 6, "quantized_dimension", default: Int32(0))))
    }

    func sparsity(_ t: FlatBufferReader.Table) throws(TFLiteError) -> Sparsity {
        let order = try r.integers(t, 0, "traversal_order", as: Int32.self, limit: Self.maximumRank * 2) ?? []
        let blockMap = try r.integers(t, 1, "block_map", as: Int32.self, limit: Self.maximumRank) ?? []
        let dims = try (r.tables(t, 2, "dim_metadata") ?? []).map(dimensionMetadata)
        return Sparsity(traversalOrder: order, blockMap: blockMap, dimensionMetadata: dims)
    }

    func dimensionMetadata(_ t: FlatBufferReader.Table) throws(TFLiteError) -> DimensionMetadata {
        let format: Int8 = try r.field(t, 0, "format", default: 0)
        switch format {
        case 0:
            return .dense(size: Int(try r.field(t, 1, "dense_size", default: Int32(0))))
        case 1:
            let segments = try sparseIndexVector(t, typeID: 2, valueID: 3, name: "array_segments")
            let indices = try sparseIndexVector(t, typeID: 4, valueID: 5, name: "array_indices")
            return .sparseCSR(segments: segments, indices: indices)
        default:
            throw TFLiteError.invalidValue(path: t.path + ".format", reason: "unknown dimension format \(format)")
        }
    }

    /// Reads a `SparseIndexVector` union: Int32Vector (1), Uint16Vector (2) or Uint8Vector (3).
    func sparseIndexVector(_ t: FlatBufferReader.Table, typeID: Int, valueID: Int, name: String) throws(TFLiteError) -> [Int] {
        let type: UInt8 = try r.field(t, typeID, name + "_type", default: 0)
        guard let value = try r.subtable(t, valueID, name) else {
            throw TFLiteError.missingField(path: t.path + "." + name)
        }
        let values: [Int]?
        switch type {
        case 1: values = try r.integers(value, 0, "values", as: Int32.self)
        case 2: values = try r.integers(value, 0, "values", as: UInt16.self)
        case 3: values = try r.integers(value, 0, "values", as: UInt8.self)
        default:
            throw TFLiteError.invalidValue(path: t.path + "." + name + "_type", reason: "unknown index vector type \(type)")
        }
        return values ?? []
    }

    func op(_ t: FlatBufferReader.Table, index: Int) throws(TFLiteError) -> Operator {
        let opcode = Int(try r.field(t, 0, "opcode_index", default: UInt32(0)))
        let inputs = try r.integers(t, 1, "inputs", as: Int32.self) ?? []
        let outputs = try r.integers(t, 2, "outputs", as: Int32.self) ?? []
        let optionsType: UInt8 = try r.field(t, 3, "builtin_options_type", default: 0)
        let optionsTable = try r.subtable(t, 4, "builtin_options")
        let options = try r.builtinOptions(type: optionsType, table: optionsTable)
        let custom = try r.byteRange(t, 5, "custom_options")
        return Operator(index: index, opcodeIndex: opcode, inputs: inputs, outputs: outputs, options: options,
                        customOptions: custom)
    }
}
