/// A value of a FlexBuffers map, as decoded for custom-operator options.
///
/// Only what operator options use is decoded: scalars, strings and vectors of numbers. Nested maps, blobs and
/// vectors of other values are kept as `.unsupported(type:)` with their FlexBuffers type number, so an option
/// that nobody reads never stops a model from loading.
public enum FlexValue: Hashable, Sendable {
    /// FlexBuffers' null.
    case null
    /// A signed integer (any width up to 64 bits).
    case int(Int64)
    /// An unsigned integer (any width up to 64 bits).
    case uint(UInt64)
    /// A float (32 or 64 bits in the buffer).
    case float(Double)
    /// A boolean.
    case bool(Bool)
    /// A string or a key, verified as UTF-8.
    case string(String)
    /// A typed, fixed-length or untyped vector whose elements are all integers (or booleans, as 0 and 1).
    case ints([Int64])
    /// A vector with at least one float element (integers converted).
    case floats([Double])
    /// A value this reader does not decode: its FlexBuffers type number.
    case unsupported(type: Int)

    /// The value as an integer: an integer in range, or a float with an integral value; nil otherwise.
    public var integer: Int? {
        switch self {
        case let .int(v): return Int(exactly: v)
        case let .uint(v): return Int(exactly: v)
        case let .float(v): return v.isFinite ? Int(exactly: v) : nil
        default: return nil
        }
    }

    /// The value as a number: any integer or float; nil otherwise.
    public var number: Double? {
        switch self {
        case let .int(v): return Double(v)
        case let .uint(v): return Double(v)
        case let .float(v): return v
        default: return nil
        }
    }

    /// The value as a vector of integers; nil for anything else (a vector of floats included).
    public var integers: [Int]? {
        guard case let .ints(values) = self else { return nil }
        var result: [Int] = []
        result.reserveCapacity(values.count)
        for v in values {
            guard let i = Int(exactly: v) else { return nil }
            result.append(i)
        }
        return result
    }
}

/// The root map of a FlexBuffers buffer (TFLite's `custom_options` with format FLEXBUFFERS), decoded and
/// verified in one pass.
///
/// Verification: every offset, width and length is checked against the buffer before it is read; offsets
/// must point strictly backwards (so nothing refers to itself); widths must be 1, 2, 4 or 8 bytes (floats 4
/// or 8); keys must be NUL-terminated UTF-8 inside the buffer, strictly ascending (FlexBuffers looks keys up
/// by binary search, so unsorted or duplicate keys would read differently elsewhere); strings must be UTF-8.
/// Depth is bounded by construction: the root map and the vectors of its values are decoded, nothing deeper.
/// Work is bounded: a budget of elements proportional to the buffer's size stops buffers whose entries share
/// one large vector. Any violation is `TFLiteError.malformedFlexBuffer` with the byte offset in the file
/// (`fileOffset` + the position in the buffer), or `.tooComplex` when the budget runs out.
///
/// Immutable and `Sendable`.
public struct FlexBufferMap: Hashable, Sendable {
    /// The map's keys, in ascending byte order.
    public let keys: [String]
    /// The map's values, by key.
    public let values: [String: FlexValue]

    /// An empty map (an operator without custom options).
    public static let empty = FlexBufferMap(keys: [], values: [:])

    private init(keys: [String], values: [String: FlexValue]) {
        (self.keys, self.values) = (keys, values)
    }

    /// The value of `key`, or nil when the map has no such key.
    /// - Parameter key: the option's name.
    /// - Returns: its value, or nil.
    public subscript(key: String) -> FlexValue? { values[key] }

    /// Elements decoded per byte of buffer, plus a constant: the work budget.
    static let workPerByte = 4
    static let workConstant = 256

    /// Decodes the map at the root of `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: the FlexBuffers buffer; not kept after the call.
    ///   - path: where the buffer is, for errors (such as `subgraphs[0].operators[3].custom_options`).
    ///   - fileOffset: the position of `bytes` in the file, in bytes, added to the offsets in errors.
    /// - Throws: `TFLiteError.malformedFlexBuffer` when the bytes are not a valid FlexBuffers map,
    ///   `.tooComplex` when decoding would exceed the work budget.
    public init(bytes: UnsafeRawBufferPointer, path: String, fileOffset: Int = 0) throws(TFLiteError) {
        var reader = FlexReader(bytes: bytes, path: path, fileOffset: fileOffset)
        (keys, values) = try reader.rootMap()
    }

    /// Decodes the map at the root of `bytes` (see `init(bytes:path:fileOffset:)`).
    ///
    /// - Parameters:
    ///   - bytes: the FlexBuffers buffer.
    ///   - path: where the buffer is, for errors.
    ///   - fileOffset: the position of `bytes` in the file, in bytes, added to the offsets in errors.
    /// - Throws: `TFLiteError.malformedFlexBuffer` when the bytes are not a valid FlexBuffers map,
    ///   `.tooComplex` when decoding would exceed the work budget.
    public init(bytes: [UInt8], path: String, fileOffset: Int = 0) throws(TFLiteError) {
        let result: Result<FlexBufferMap, TFLiteError> = bytes.withUnsafeBytes { raw in
            do throws(TFLiteError) {
                return .success(try FlexBufferMap(bytes: raw, path: path, fileOffset: fileOffset))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }
}

/// FlexBuffers type numbers (facts from flexbuffers.h).
enum FlexType {
    static let null = 0, int = 1, uint = 2, float = 3, key = 4, string = 5
    static let indirectInt = 6, indirectUInt = 7, indirectFloat = 8
    static let map = 9, vector = 10, vectorInt = 11, vectorUInt = 12, vectorFloat = 13
    static let fixedVectors = 16...24, bool = 26, vectorBool = 36
}

/// The decoding pass behind `FlexBufferMap`.
struct FlexReader {
    let bytes: UnsafeRawBufferPointer
    let path: String
    let fileOffset: Int
    var budget: Int

    init(bytes: UnsafeRawBufferPointer, path: String, fileOffset: Int) {
        (self.bytes, self.path, self.fileOffset) = (bytes, path, fileOffset)
        budget = bytes.count * FlexBufferMap.workPerByte + FlexBufferMap.workConstant
    }

    var size: Int { bytes.count }

    func fail(_ position: Int, _ reason: String) -> TFLiteError {
        .malformedFlexBuffer(path: path, offset: fileOffset + position, reason: reason)
    }

    mutating func spend(_ amount: Int) throws(TFLiteError) {
        budget -= amount
        if budget < 0 { throw .tooComplex(path: path) }
    }

    func checkWidth(_ width: Int, at position: Int) throws(TFLiteError) {
        guard width == 1 || width == 2 || width == 4 || width == 8 else {
            throw fail(position, "byte width \(width) is not 1, 2, 4 or 8")
        }
    }

    /// Checks that `count` elements of `width` bytes starting at `position` lie inside the buffer.
    func checkRange(_ position: Int, count: Int, width: Int) throws(TFLiteError) {
        guard position >= 0, count >= 0, position <= size, count <= (size - position) / width else {
            throw fail(max(position, 0), "\(count) x \(width) bytes lie outside the \(size)-byte buffer")
        }
    }

    func unsigned(at position: Int, width: Int) throws(TFLiteError) -> UInt64 {
        try checkRange(position, count: 1, width: width)
        switch width {
        case 1: return UInt64(bytes[position])
        case 2: return UInt64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt16.self)))
        case 4: return UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
        default: return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
        }
    }

    func signed(at position: Int, width: Int) throws(TFLiteError) -> Int64 {
        let raw = try unsigned(at: position, width: width)
        let shift = UInt64(64 - 8 * width)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }

    func float(at position: Int, width: Int) throws(TFLiteError) -> Double {
        switch width {
        case 4: return Double(Float(bitPattern: UInt32(try unsigned(at: position, width: 4))))
        case 8: return Double(bitPattern: try unsigned(at: position, width: 8))
        default: throw fail(position, "a float of \(width) bytes (expected 4 or 8)")
        }
    }

    /// Follows the offset stored at `position` (`width` bytes): the position it points back to.
    func follow(at position: Int, width: Int) throws(TFLiteError) -> Int {
        let offset = try unsigned(at: position, width: width)
        guard offset > 0, offset <= UInt64(position) else {
            throw fail(position, "offset \(offset) does not point backwards inside the buffer")
        }
        return position - Int(offset)
    }

    /// The length stored in the `width` bytes before `position`, checked so that `length` elements of
    /// `width` bytes from `position` (plus `extra` bytes per element) fit in the buffer.
    func length(before position: Int, width: Int, extra: Int = 0) throws(TFLiteError) -> Int {
        let raw = try unsigned(at: position - width, width: width)
        guard raw <= UInt64(size) else { throw fail(position - width, "length \(raw) exceeds the buffer") }
        let count = Int(raw)
        try checkRange(position, count: count, width: width + extra)
        return count
    }

    /// A NUL-terminated UTF-8 key at `position`.
    mutating func key(at position: Int) throws(TFLiteError) -> String {
        guard position >= 0, position < size else { throw fail(max(position, 0), "key outside the buffer") }
        guard let end = bytes[position...].firstIndex(of: 0) else {
            throw fail(position, "key is not NUL-terminated inside the buffer")
        }
        try spend((end - position) / 8 + 1)
        guard let text = String(validating: bytes[position..<end], as: UTF8.self) else {
            throw fail(position, "key is not valid UTF-8")
        }
        return text
    }

    mutating func rootMap() throws(TFLiteError) -> (keys: [String], values: [String: FlexValue]) {
        guard size >= 3 else { throw fail(0, "\(size) bytes are too few for a FlexBuffers root") }
        let width = Int(bytes[size - 1])
        try checkWidth(width, at: size - 1)
        let packed = bytes[size - 2]
        let position = size - 2 - width
        guard position >= 0 else { throw fail(0, "root of \(width) bytes does not fit") }
        guard Int(packed >> 2) == FlexType.map else {
            throw fail(size - 2, "the root is of type \(packed >> 2), not a map")
        }
        let childWidth = 1 << Int(packed & 3)
        return try map(at: try follow(at: position, width: width), width: childWidth)
    }

    /// The map whose values vector starts at `position`, elements of `width` bytes.
    mutating func map(at position: Int, width: Int) throws(TFLiteError) -> (keys: [String], values: [String: FlexValue]) {
        let count = try length(before: position, width: width, extra: 0)
        // Types: one byte per element after the values.
        try checkRange(position + count * width, count: count, width: 1)
        let keysWidth = Int(clamping: try unsigned(at: position - 2 * width, width: width))
        try checkWidth(keysWidth, at: position - 2 * width)
        let keysPosition = try follow(at: position - 3 * width, width: width)
        let keyCount = try length(before: keysPosition, width: keysWidth)
        guard keyCount == count else {
            throw fail(keysPosition, "\(keyCount) keys for \(count) values")
        }
        try spend(count)
        var keys: [String] = []
        var values: [String: FlexValue] = [:]
        for i in 0..<count {
            let keyPosition = try follow(at: keysPosition + i * keysWidth, width: keysWidth)
            let name = try key(at: keyPosition)
            if let previous = keys.last, !(Array(previous.utf8).lexicographicallyPrecedes(Array(name.utf8))) {
                throw fail(keyPosition, "key '\(name)' does not follow '\(previous)' in ascending order")
            }
            let packed = bytes[position + count * width + i]
            values[name] = try value(at: position + i * width, width: width, packed: packed)
            keys.append(name)
        }
        return (keys, values)
    }

    /// The value stored at `position` in a parent of `width`-byte elements, with packed type `packed`.
    mutating func value(at position: Int, width: Int, packed: UInt8) throws(TFLiteError) -> FlexValue {
        let type = Int(packed >> 2)
        let childWidth = 1 << Int(packed & 3)
        switch type {
        case FlexType.null: return .null
        case FlexType.int: return .int(try signed(at: position, width: width))
        case FlexType.uint: return .uint(try unsigned(at: position, width: width))
        case FlexType.float: return .float(try float(at: position, width: width))
        case FlexType.bool: return .bool(try unsigned(at: position, width: width) != 0)
        case FlexType.indirectInt:
            return .int(try signed(at: try follow(at: position, width: width), width: childWidth))
        case FlexType.indirectUInt:
            return .uint(try unsigned(at: try follow(at: position, width: width), width: childWidth))
        case FlexType.indirectFloat:
            return .float(try float(at: try follow(at: position, width: width), width: childWidth))
        case FlexType.string:
            let target = try follow(at: position, width: width)
            let count = try length(before: target, width: childWidth)
            try checkRange(target, count: count + 1, width: 1)
            guard bytes[target + count] == 0 else { throw fail(target + count, "string is not NUL-terminated") }
            try spend(count / 8 + 1)
            guard let text = String(validating: bytes[target..<(target + count)], as: UTF8.self) else {
                throw fail(target, "string is not valid UTF-8")
            }
            return .string(text)
        case FlexType.vectorInt, FlexType.vectorUInt, FlexType.vectorFloat, FlexType.vectorBool:
            let target = try follow(at: position, width: width)
            let count = try length(before: target, width: childWidth)
            let element = type == FlexType.vectorFloat ? FlexType.float
                : type == FlexType.vectorUInt ? FlexType.uint : type == FlexType.vectorBool ? FlexType.bool : FlexType.int
            return try typedVector(at: target, count: count, width: childWidth, element: element)
        case FlexType.fixedVectors:
            let target = try follow(at: position, width: width)
            let count = (type - 16) / 3 + 2
            try checkRange(target, count: count, width: childWidth)
            let element = [FlexType.int, FlexType.uint, FlexType.float][(type - 16) % 3]
            return try typedVector(at: target, count: count, width: childWidth, element: element)
        case FlexType.vector:
            let target = try follow(at: position, width: width)
            let count = try length(before: target, width: childWidth, extra: 1)
            return try untypedVector(at: target, count: count, width: childWidth)
        case FlexType.key, FlexType.map, 14, 15, 25:
            // Keys as values, nested maps, vectors of keys or strings and blobs: not decoded. Their offset is
            // still checked, so that a map with such a value is verified as far as it is read.
            _ = try follow(at: position, width: width)
            return .unsupported(type: type)
        default:
            throw fail(position, "unknown FlexBuffers type \(type)")
        }
    }

    mutating func typedVector(at position: Int, count: Int, width: Int, element: Int) throws(TFLiteError) -> FlexValue {
        try spend(count)
        if element == FlexType.float {
            var values: [Double] = []
            values.reserveCapacity(count)
            for i in 0..<count { values.append(try float(at: position + i * width, width: width)) }
            return .floats(values)
        }
        var values: [Int64] = []
        values.reserveCapacity(count)
        for i in 0..<count {
            let p = position + i * width
            switch element {
            case FlexType.uint:
                let raw = try unsigned(at: p, width: width)
                guard let v = Int64(exactly: raw) else { throw fail(p, "unsigned value \(raw) exceeds Int64") }
                values.append(v)
            case FlexType.bool: values.append(try unsigned(at: p, width: width) != 0 ? 1 : 0)
            default: values.append(try signed(at: p, width: width))
            }
        }
        return .ints(values)
    }

    /// An untyped vector: decoded when every element is a number or boolean, `.unsupported` otherwise.
    mutating func untypedVector(at position: Int, count: Int, width: Int) throws(TFLiteError) -> FlexValue {
        try spend(count)
        var numbers: [FlexValue] = []
        numbers.reserveCapacity(count)
        for i in 0..<count {
            let packed = bytes[position + count * width + i]
            let type = Int(packed >> 2)
            guard [FlexType.int, FlexType.uint, FlexType.float, FlexType.bool, FlexType.indirectInt,
                   FlexType.indirectUInt, FlexType.indirectFloat].contains(type) else {
                return .unsupported(type: FlexType.vector)
            }
            numbers.append(try value(at: position + i * width, width: width, packed: packed))
        }
        if numbers.contains(where: { if case .float = $0 { true } else { false } }) {
            return .floats(numbers.map { $0.number ?? ($0 == .bool(true) ? 1 : 0) })
        }
        var ints: [Int64] = []
        for (i, v) in numbers.enumerated() {
            switch v {
            case let .int(x): ints.append(x)
            case let .uint(x):
                guard let x = Int64(exactly: x) else { throw fail(position + i * width, "unsigned value \(x) exceeds Int64") }
                ints.append(x)
            case let .bool(b): ints.append(b ? 1 : 0)
            default: return .unsupported(type: FlexType.vector)
            }
        }
        return .ints(ints)
    }
}
