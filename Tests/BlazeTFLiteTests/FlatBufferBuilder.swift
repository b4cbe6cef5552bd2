/// A tiny FlatBuffer writer for hand-assembled test files.
///
/// Unlike the real FlatBuffers builders it writes front to back: a table's vtable just before it, then
/// the table, then its children, so every `uoffset` points forward as the format requires. It records
/// where labeled nodes land, so tests can patch single bytes (counts, vtable entries, offsets) afterwards.
indirect enum Node {
    /// A table; keys are field ids.
    case table([Int: Field])
    case int32s([Int32])
    case floats([Float])
    case int64s([Int64])
    case bytes([UInt8])
    case string(String)
    /// A string with arbitrary (possibly invalid UTF-8) bytes.
    case rawString([UInt8])
    /// A vector of offsets to tables or strings.
    case vector([Node])
    /// A vector of `count` offsets that all point to one shared node.
    case repeated(Int, Node)
    /// Records the node's position (and, for a table, its vtable's) under a name.
    case labeled(String, Node)
}

enum Field {
    case int8(Int8)
    case uint8(UInt8)
    case int32(Int32)
    case uint32(UInt32)
    case uint64(UInt64)
    case ref(Node)

    var size: Int {
        switch self {
        case .int8, .uint8: return 1
        case .int32, .uint32, .ref: return 4
        case .uint64: return 8
        }
    }
}

struct FlatBufferBuilder {
    private(set) var bytes: [UInt8] = []
    /// Position of each labeled node: a table's start, a vector's or string's count.
    private(set) var positions: [String: Int] = [:]
    /// Position of each labeled table's vtable.
    private(set) var vtables: [String: Int] = [:]

    /// A complete file: root offset, file identifier, then the root table.
    static func file(_ root: Node, identifier: String = "TFL3") -> FlatBufferBuilder {
        var b = FlatBufferBuilder()
        b.put(UInt32(0))
        b.bytes += Array(identifier.utf8.prefix(4))
        let position = b.write(root)
        b.patch(UInt32(position), at: 0)
        return b
    }

    mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func patch<T: FixedWidthInteger>(_ value: T, at position: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (k, byte) in raw.enumerated() { bytes[position + k] = byte }
        }
    }

    private mutating func align(_ n: Int) {
        while bytes.count % n != 0 { bytes.append(0) }
    }

    /// Aligns so that a vector's elements (after its 4-byte count) are aligned to `elementSize`.
    private mutating func alignVector(elementSize: Int) {
        align(4)
        if elementSize > 4 { while (bytes.count + 4) % elementSize != 0 { bytes.append(0) } }
    }

    @discardableResult
    mutating func write(_ node: Node, label: String? = nil) -> Int {
        switch node {
        case let .labeled(name, inner):
            return write(inner, label: name)
        case let .table(fields):
            let ids = fields.keys.sorted()
            // Layout of the inline data: the soffset, then each field aligned to its size.
            var offset = 4
            var fieldOffsets: [Int: Int] = [:]
            for id in ids {
                let size = fields[id]!.size
                offset = (offset + size - 1) / size * size
                fieldOffsets[id] = offset
                offset += size
            }
            let inlineSize = (offset + 3) / 4 * 4
            let slotCount = (ids.last ?? -1) + 1
            align(2)
            let vtable = bytes.count
            put(UInt16(4 + 2 * slotCount))
            put(UInt16(inlineSize))
            for id in 0..<slotCount { put(UInt16(fieldOffsets[id] ?? 0)) }
            align(8)
            let table = bytes.count
            if let label { positions[label] = table; vtables[label] = vtable }
            put(Int32(table - vtable))
            bytes += [UInt8](repeating: 0, count: inlineSize - 4)
            var references: [(Int, Node)] = []
            for id in ids {
                let at = table + fieldOffsets[id]!
                switch fields[id]! {
                case let .int8(v): patch(v, at: at)
                case let .uint8(v): patch(v, at: at)
                case let .int32(v): patch(v, at: at)
                case let .uint32(v): patch(v, at: at)
                case let .uint64(v): patch(v, at: at)
                case let .ref(child): references.append((at, child))
                }
            }
            for (at, child) in references {
                let target = write(child)
                patch(UInt32(target - at), at: at)
            }
            return table
        case let .int32s(values):
            return scalars(values, label: label)
        case let .int64s(values):
            return scalars(values, label: label)
        case let .floats(values):
            return scalars(values.map(\.bitPattern), label: label)
        case let .bytes(values):
            return scalars(values, label: label)
        case let .string(text):
            return write(.rawString(Array(text.utf8)), label: label)
        case let .rawString(raw):
            align(4)
            let position = bytes.count
            if let label { positions[label] = position }
            put(UInt32(raw.count))
            bytes += raw
            bytes.append(0)
            return position
        case let .vector(children):
            align(4)
            let position = bytes.count
            if let label { positions[label] = position }
            put(UInt32(children.count))
            let slots = bytes.count
            bytes += [UInt8](repeating: 0, count: 4 * children.count)
            for (k, child) in children.enumerated() {
                let target = write(child)
                patch(UInt32(target - (slots + 4 * k)), at: slots + 4 * k)
            }
            return position
        case let .repeated(count, child):
            align(4)
            let position = bytes.count
            if let label { positions[label] = position }
            put(UInt32(count))
            let slots = bytes.count
            bytes += [UInt8](repeating: 0, count: 4 * count)
            let target = write(child)
            for k in 0..<count { patch(UInt32(target - (slots + 4 * k)), at: slots + 4 * k) }
            return position
        }
    }

    private mutating func scalars<T: FixedWidthInteger>(_ values: [T], label: String?) -> Int {
        alignVector(elementSize: MemoryLayout<T>.size)
        let position = bytes.count
        if let label { positions[label] = position }
        put(UInt32(values.count))
        for v in values { put(v) }
        return position
    }
}

/// Hand-built TFLite models: the schema's field ids (TensorFlow's schema.fbs).
enum TinyModel {
    static func tensor(shape: [Int32] = [1, 4], buffer: UInt32 = 0, name: Node = .string("t"),
                       extra: [Int: Field] = [:]) -> Node {
        .table([0: .ref(.int32s(shape)), 1: .int8(0), 2: .uint32(buffer), 3: .ref(name)].merging(extra) { $1 })
    }

    static func addOperator(inputs: [Int32] = [0, 1], outputs: [Int32] = [2], opcode: UInt32 = 0) -> Node {
        .table([0: .uint32(opcode), 1: .ref(.int32s(inputs)), 2: .ref(.int32s(outputs)), 3: .uint8(11),
                4: .ref(.table([0: .int8(0)]))])
    }

    /// `t0 + t1 -> t2`, t1 a constant in buffer 1 (four floats); any part can be replaced.
    static func model(tensors: Node? = nil, operators: Node? = nil, buffers: Node? = nil,
                      subgraphExtra: [Int: Field] = [:], modelExtra: [Int: Field] = [:]) -> Node {
        let weights = [Float(1), 2, 3, 4].flatMap { f in withUnsafeBytes(of: f.bitPattern.littleEndian) { Array($0) } }
        let subgraph: Node = .table([
            0: .ref(tensors ?? .vector([tensor(name: .string("a")), tensor(buffer: 1, name: .string("b")),
                                        tensor(name: .string("sum"))])),
            1: .ref(.int32s([0])),
            2: .ref(.int32s([2])),
            3: .ref(operators ?? .vector([addOperator()])),
            4: .ref(.string("main")),
        ].merging(subgraphExtra) { $1 })
        return .table([
            0: .uint32(3),
            1: .ref(.vector([.table([0: .int8(0), 2: .int32(1), 3: .int32(0)])])),
            2: .ref(.vector([.labeled("subgraph", subgraph)])),
            3: .ref(.string("hand-built")),
            4: .ref(buffers ?? .vector([.table([:]), .table([0: .ref(.bytes(weights))])])),
        ].merging(modelExtra) { $1 })
    }
}
