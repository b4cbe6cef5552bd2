/// A verifying reader over the bytes of a FlatBuffer.
///
/// Every access checks bounds and alignment before it reads, and throws `TFLiteError` naming the field
/// path and byte offset. Offsets in FlatBuffers are unsigned and point forward, except a table's signed
/// offset to its vtable; the reader follows a fixed schema, so it never recurses without bound.
/// A work budget proportional to the file size stops files that make many fields share the same large
/// vector from turning a small file into unbounded work.
struct FlatBufferReader {
    let bytes: UnsafeRawBufferPointer
    private let budget: WorkBudget

    /// Elements (vector items plus tables) the reader may visit per byte of file, plus a constant.
    static let workPerByte = 8
    static let workConstant = 1 << 16

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.budget = WorkBudget(limit: bytes.count * Self.workPerByte + Self.workConstant)
    }

    var size: Int { bytes.count }

    // MARK: Raw scalars

    func check(_ path: @autoclosure () -> String, offset: Int, length: Int, alignment: Int) throws(TFLiteError) {
        guard offset >= 0, length >= 0, offset <= size, length <= size - offset else {
            throw TFLiteError.outOfBounds(path: path(), offset: offset, length: length, fileSize: size)
        }
        guard alignment <= 1 || offset % alignment == 0 else {
            throw TFLiteError.misaligned(path: path(), offset: offset, alignment: alignment)
        }
    }

    /// Reads a little-endian integer at a position already checked.
    @inline(__always)
    func load<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    func scalar<T: FixedWidthInteger>(_ type: T.Type, at offset: Int, path: @autoclosure () -> String) throws(TFLiteError) -> T {
        try check(path(), offset: offset, length: MemoryLayout<T>.size, alignment: MemoryLayout<T>.size)
        return load(T.self, at: offset)
    }

    /// Follows a `uoffset_t` stored at `offset` and returns the absolute position it points to.
    func follow(at offset: Int, path: @autoclosure () -> String) throws(TFLiteError) -> Int {
        let relative = try scalar(UInt32.self, at: offset, path: path())
        let target = offset + Int(relative)
        guard target < size else {
            throw TFLiteError.outOfBounds(path: path(), offset: target, length: 0, fileSize: size)
        }
        return target
    }

    func spend(_ amount: Int, path: @autoclosure () -> String) throws(TFLiteError) {
        if !budget.spend(amount) { throw TFLiteError.tooComplex(path: path()) }
    }

    // MARK: Tables

    /// A verified table: its position and the vtable describing its fields.
    struct Table {
        let position: Int
        let vtable: Int
        /// Number of field slots in the vtable.
        let fieldCount: Int
        /// Size in bytes of the table's inline data, from its vtable.
        let inlineSize: Int
        let path: String
    }

    func table(at position: Int, path: String) throws(TFLiteError) -> Table {
        try spend(1, path: path)
        let vtableOffset = try scalar(Int32.self, at: position, path: path)
        let vtable = position - Int(vtableOffset)
        try check(path + " (vtable)", offset: vtable, length: 4, alignment: 2)
        let vtableSize = Int(load(UInt16.self, at: vtable))
        let inlineSize = Int(load(UInt16.self, at: vtable + 2))
        guard vtableSize >= 4, vtableSize % 2 == 0 else {
            throw TFLiteError.invalidVTable(path: path, offset: vtable, reason: "size \(vtableSize) is not an even number >= 4")
        }
        try check(path + " (vtable)", offset: vtable, length: vtableSize, alignment: 2)
        guard inlineSize >= 4 else {
            throw TFLiteError.invalidVTable(path: path, offset: vtable, reason: "table size \(inlineSize) is below 4")
        }
        try check(path, offset: position, length: inlineSize, alignment: 4)
        return Table(position: position, vtable: vtable, fieldCount: (vtableSize - 4) / 2,
                     inlineSize: inlineSize, path: path)
    }

    func rootTable(path: String) throws(TFLiteError) -> Table {
        let root = try follow(at: 0, path: path)
        return try table(at: root, path: path)
    }

    /// The absolute position of field `id` inside `table`, or nil when the field is absent.
    /// Checks that a field of `width` bytes lies inside the table's inline data.
    func fieldPosition(_ table: Table, _ id: Int, width: Int, name: String) throws(TFLiteError) -> Int? {
        guard id < table.fieldCount else { return nil }
        let relative = Int(load(UInt16.self, at: table.vtable + 4 + 2 * id))
        guard relative != 0 else { return nil }
        guard relative + width <= table.inlineSize else {
            throw TFLiteError.invalidVTable(
                path: table.path + "." + name, offset: table.vtable,
                reason: "field at +\(relative) (\(width) bytes) runs past the \(table.inlineSize)-byte table")
        }
        return table.position + relative
    }

    func field<T: FixedWidthInteger>(_ table: Table, _ id: Int, _ name: String, default value: T) throws(TFLiteError) -> T {
        guard let position = try fieldPosition(table, id, width: MemoryLayout<T>.size, name: name) else { return value }
        return try scalar(T.self, at: position, path: table.path + "." + name)
    }

    func field(_ table: Table, _ id: Int, _ name: String, default value: Bool) throws(TFLiteError) -> Bool {
        try field(table, id, name, default: UInt8(value ? 1 : 0)) != 0
    }

    func field(_ table: Table, _ id: Int, _ name: String, default value: Float) throws(TFLiteError) -> Float {
        Float(bitPattern: try field(table, id, name, default: value.bitPattern))
    }

    /// The absolute position that the offset field `id` points to, or nil when absent.
    func reference(_ table: Table, _ id: Int, _ name: String) throws(TFLiteError) -> Int? {
        guard let position = try fieldPosition(table, id, width: 4, name: name) else { return nil }
        return try follow(at: position, path: table.path + "." + name)
    }

    func subtable(_ table: Table, _ id: Int, _ name: String) throws(TFLiteError) -> Table? {
        guard let position = try reference(table, id, name) else { return nil }
        return try self.table(at: position, path: table.path + "." + name)
    }

    // MARK: Vectors and strings

    /// A verified vector: the position of its first element and its element count.
    struct Vector {
        let start: Int
        let count: Int
        let path: String
    }

    func vector(at position: Int, elementSize: Int, path: String, limit: Int = .max) throws(TFLiteError) -> Vector {
        let count = Int(try scalar(UInt32.self, at: position, path: path))
        let start = position + 4
        let available = (size - start) / elementSize
        guard count <= available else {
            throw TFLiteError.absurdCount(path: path, count: count, limit: available)
        }
        guard count <= limit else { throw TFLiteError.absurdCount(path: path, count: count, limit: limit) }
        try check(path, offset: start, length: count * elementSize, alignment: min(elementSize, 8))
        return Vector(start: start, count: count, path: path)
    }

    func vectorField(_ table: Table, _ id: Int, _ name: String, elementSize: Int, limit: Int = .max) throws(TFLiteError) -> Vector? {
        guard let position = try reference(table, id, name) else { return nil }
        return try vector(at: position, elementSize: elementSize, path: table.path + "." + name, limit: limit)
    }

    /// Reads a vector of integers of type `T`, widening to Int.
    func integers<T: FixedWidthInteger>(_ table: Table, _ id: Int, _ name: String, as type: T.Type,
                                        limit: Int = .max) throws(TFLiteError) -> [Int]? {
        guard let v = try vectorField(table, id, name, elementSize: MemoryLayout<T>.size, limit: limit) else { return nil }
        try spend(v.count, path: v.path)
        var result = [Int]()
        result.reserveCapacity(v.count)
        for i in 0..<v.count { result.append(Int(load(T.self, at: v.start + i * MemoryLayout<T>.size))) }
        return result
    }

    func floats(_ table: Table, _ id: Int, _ name: String) throws(TFLiteError) -> [Float]? {
        guard let v = try vectorField(table, id, name, elementSize: 4) else { return nil }
        try spend(v.count, path: v.path)
        return (0..<v.count).map { Float(bitPattern: load(UInt32.self, at: v.start + $0 * 4)) }
    }

    /// The byte range of a `[ubyte]` vector field.
    func byteRange(_ table: Table, _ id: Int, _ name: String) throws(TFLiteError) -> Range<Int>? {
        guard let v = try vectorField(table, id, name, elementSize: 1) else { return nil }
        return v.start..<(v.start + v.count)
    }

    func string(_ table: Table, _ id: Int, _ name: String) throws(TFLiteError) -> String? {
        guard let position = try reference(table, id, name) else { return nil }
        let path = table.path + "." + name
        let v = try vector(at: position, elementSize: 1, path: path)
        // FlatBuffers strings are followed by a terminating zero byte.
        try check(path + " (terminator)", offset: v.start + v.count, length: 1, alignment: 1)
        try spend(v.count / 64 + 1, path: path)
        let raw = UnsafeRawBufferPointer(rebasing: bytes[v.start..<(v.start + v.count)])
        guard let text = String(validating: raw.bindMemory(to: UInt8.self), as: UTF8.self) else {
            throw TFLiteError.invalidValue(path: path, reason: "string at byte \(v.start) is not valid UTF-8")
        }
        return text
    }

    /// Visits each table of a vector-of-tables field.
    func tables(_ table: Table, _ id: Int, _ name: String) throws(TFLiteError) -> [Table]? {
        guard let v = try vectorField(table, id, name, elementSize: 4) else { return nil }
        try spend(v.count, path: v.path)
        var result = [Table]()
        result.reserveCapacity(v.count)
        for i in 0..<v.count {
            let path = "\(table.path).\(name)[\(i)]"
            let target = try follow(at: v.start + 4 * i, path: path)
            result.append(try self.table(at: target, path: path))
        }
        return result
    }
}

/// A shared counter of the work a reader may still do.
final class WorkBudget {
    private var remaining: Int
    init(limit: Int) { remaining = limit }
    func spend(_ amount: Int) -> Bool {
        remaining -= amount
        return remaining >= 0
    }
}
