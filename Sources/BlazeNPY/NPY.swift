import BlazeKernels
import Foundation

/// Element types of `.npy` files this library reads (little-endian or single-byte only).
public enum NPYDType: String, Sendable, CaseIterable {
    /// 32-bit IEEE float, little-endian (`<f4`).
    case float32 = "<f4"
    /// 16-bit IEEE float, little-endian (`<f2`).
    case float16 = "<f2"
    /// 64-bit IEEE float, little-endian (`<f8`).
    case float64 = "<f8"
    /// Unsigned byte (`|u1`; `<u1` and `=u1` are read as it).
    case uint8 = "|u1"
    /// Signed byte (`|i1`; `<i1` and `=i1` are read as it).
    case int8 = "|i1"
    /// 32-bit signed integer, little-endian (`<i4`).
    case int32 = "<i4"
    /// 64-bit signed integer, little-endian (`<i8`).
    case int64 = "<i8"

    /// The size of one element, in bytes.
    public var byteSize: Int {
        switch self {
        case .uint8, .int8: return 1
        case .float16: return 2
        case .float32, .int32: return 4
        case .float64, .int64: return 8
        }
    }
}

/// Why a `.npy` file could not be read or written.
public enum NPYError: Error, Equatable, Sendable {
    /// The file at `path` is missing, not a regular file, larger than allowed, or failed to read; `reason` says
    /// which.
    case cannotRead(path: String, reason: String)
    /// Writing `path` failed; `reason` is the system's.
    case cannotWrite(path: String, reason: String)
    /// The bytes do not start with the `\x93NUMPY` magic (or are fewer than 10).
    case notNPY
    /// A format version other than 1, 2 or 3.
    case unsupportedVersion(major: Int, minor: Int)
    /// The header dictionary cannot be parsed; the text says where.
    case malformedHeader(String)
    /// An element type other than `NPYDType`'s, by its `descr` text.
    case unsupportedDType(String)
    /// The array is stored in Fortran (column-major) order.
    case fortranOrder
    /// The data holds `actual` bytes where the shape and type need `expected` (`Int.max` when the shape's
    /// element count overflows or exceeds the file).
    case dataSizeMismatch(expected: Int, actual: Int)
}

extension NPYError: CustomStringConvertible, LocalizedError {
    /// A one-line message for people, with the path, version or sizes concerned.
    public var description: String {
        switch self {
        case let .cannotRead(path, reason): return "cannot read '\(path)': \(reason)"
        case let .cannotWrite(path, reason): return "cannot write '\(path)': \(reason)"
        case .notNPY: return "not a .npy file (missing the \\x93NUMPY magic)"
        case let .unsupportedVersion(major, minor): return "unsupported .npy format version \(major).\(minor)"
        case let .malformedHeader(detail): return "malformed .npy header: \(detail)"
        case let .unsupportedDType(descr):
            return "unsupported .npy dtype '\(descr)' (supported: \(NPYDType.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .fortranOrder: return "Fortran-ordered .npy arrays are not supported; save with C order"
        case let .dataSizeMismatch(expected, actual):
            return ".npy data has \(actual) bytes but its header's shape and dtype need \(expected)"
        }
    }
    /// The same message as `description`.
    public var errorDescription: String? { description }
}

/// An array read from, or to be written to, a NumPy `.npy` file (format versions 1.0–3.0, C order).
public struct NPYArray: Equatable, Sendable {
    /// The element type.
    public var dtype: NPYDType
    /// The dimensions, outermost first; empty for a scalar.
    public var shape: [Int]
    /// The raw little-endian element bytes, in C order.
    public var bytes: [UInt8]

    /// The number of elements (the product of the shape; 1 for a scalar).
    public var elementCount: Int { shape.reduce(1, *) }

    /// An array; each parameter sets the property of the same name (`bytes` should hold
    /// `elementCount · dtype.byteSize` bytes).
    public init(dtype: NPYDType, shape: [Int], bytes: [UInt8]) {
        self.dtype = dtype
        self.shape = shape
        self.bytes = bytes
    }

    /// A float32 array.
    /// - Parameters:
    ///   - shape: the dimensions, outermost first.
    ///   - floats: the elements in C order.
    /// - Precondition: `floats.count` is the product of `shape`.
    public init(shape: [Int], floats: [Float]) {
        precondition(shape.reduce(1, *) == floats.count, "shape does not match the element count")
        self.dtype = .float32
        self.shape = shape
        self.bytes = floats.withUnsafeBytes { Array($0) }
        #if _endian(big)
        fatalError("big-endian hosts are not supported")
        #endif
    }

    /// Reads a `.npy` file: a regular file of at most `maximumBytes` bytes (`NPYFile.contents`: opened
    /// non-blocking, its type and size checked before anything is read or allocated).
    /// - Parameters:
    ///   - path: the file's path.
    ///   - maximumBytes: the largest file accepted, in bytes (default 1 GiB).
    /// - Throws: `NPYError.cannotRead` (missing, not a regular file, too large, a read error), or what
    ///   `init(bytes:)` throws.
    public init(path: String, maximumBytes: Int = 1 << 30) throws {
        try self.init(bytes: try NPYFile.contents(of: path, maximumBytes: maximumBytes))
    }

    /// Parses the bytes of a `.npy` file.
    /// - Parameter file: the whole file's bytes.
    /// - Throws: `NPYError.notNPY`, `.unsupportedVersion`, `.malformedHeader`, `.unsupportedDType`, `.fortranOrder`
    ///   or `.dataSizeMismatch`.
    public init(bytes file: [UInt8]) throws {
        let magic: [UInt8] = [0x93] + Array("NUMPY".utf8)
        guard file.count >= 10, Array(file[0..<6]) == magic else { throw NPYError.notNPY }
        let major = Int(file[6]), minor = Int(file[7])
        let headerLength: Int
        let headerStart: Int
        switch major {
        case 1:
            headerLength = Int(file[8]) | Int(file[9]) << 8
            headerStart = 10
        case 2, 3:
            guard file.count >= 12 else { throw NPYError.malformedHeader("file ends inside the header length") }
            headerLength = (0..<4).reduce(0) { $0 | Int(file[8 + $1]) << (8 * $1) }
            headerStart = 12
        default:
            throw NPYError.unsupportedVersion(major: major, minor: minor)
        }
        guard headerLength <= file.count - headerStart else {
            throw NPYError.malformedHeader("header of \(headerLength) bytes runs past the end of the file")
        }
        guard let header = String(bytes: file[headerStart..<(headerStart + headerLength)], encoding: .utf8) else {
            throw NPYError.malformedHeader("header is not text")
        }
        let descr = try Self.value(of: "descr", in: header)
        guard descr.hasPrefix("'") || descr.hasPrefix("\""), descr.count >= 2 else {
            throw NPYError.malformedHeader("descr is not a string: \(descr)")
        }
        var typeCode = String(descr.dropFirst().dropLast())
        if typeCode == "=u1" || typeCode == "<u1" { typeCode = "|u1" }
        if typeCode == "=i1" || typeCode == "<i1" { typeCode = "|i1" }
        guard let dtype = NPYDType(rawValue: typeCode) else { throw NPYError.unsupportedDType(typeCode) }
        let fortran = try Self.value(of: "fortran_order", in: header)
        guard fortran == "False" else {
            if fortran == "True" { throw NPYError.fortranOrder }
            throw NPYError.malformedHeader("fortran_order is \(fortran)")
        }
        let shapeText = try Self.value(of: "shape", in: header)
        guard shapeText.hasPrefix("("), shapeText.hasSuffix(")") else {
            throw NPYError.malformedHeader("shape is not a tuple: \(shapeText)")
        }
        var shape = [Int]()
        var elements = 1
        for part in shapeText.dropFirst().dropLast().split(separator: ",") {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            guard let dim = Int(trimmed), dim >= 0 else { throw NPYError.malformedHeader("bad dimension '\(trimmed)'") }
            let (product, overflow) = elements.multipliedReportingOverflow(by: dim)
            guard !overflow, product <= file.count else {
                throw NPYError.dataSizeMismatch(expected: Int.max, actual: file.count - headerStart - headerLength)
            }
            elements = product
            shape.append(dim)
        }
        let dataStart = headerStart + headerLength
        let expected = elements * dtype.byteSize
        guard file.count - dataStart == expected else {
            throw NPYError.dataSizeMismatch(expected: expected, actual: file.count - dataStart)
        }
        self.init(dtype: dtype, shape: shape, bytes: Array(file[dataStart...]))
    }

    /// Finds `'key': value` in a header dictionary and returns the value's text.
    private static func value(of key: String, in header: String) throws -> String {
        guard let keyRange = header.range(of: "'\(key)'") ?? header.range(of: "\"\(key)\"") else {
            throw NPYError.malformedHeader("no '\(key)' entry")
        }
        var rest = header[keyRange.upperBound...].drop { $0 == " " }
        guard rest.first == ":" else { throw NPYError.malformedHeader("no ':' after '\(key)'") }
        rest = rest.dropFirst().drop { $0 == " " }
        if rest.first == "(" {
            guard let close = rest.firstIndex(of: ")") else { throw NPYError.malformedHeader("unclosed shape tuple") }
            return String(rest[...close])
        }
        let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
        return rest[..<end].trimmingCharacters(in: .whitespaces)
    }

    /// The elements converted to Float (exact for float16, uint8, int8 and float32).
    /// - Returns: `elementCount` values in C order; float64, int32 and int64 elements rounded to the nearest Float.
    public func floats() -> [Float] {
        let n = elementCount
        return bytes.withUnsafeBytes { raw in
            [Float](unsafeUninitializedCapacity: n) { out, initialized in
                switch dtype {
                case .float32:
                    for i in 0..<n { out[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))) }
                case .float16:
                    if n > 0 { convertFloat16ToFloat32(raw.baseAddress!, count: n, into: out.baseAddress!) }
                case .float64:
                    for i in 0..<n { out[i] = Float(Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)))) }
                case .uint8:
                    for i in 0..<n { out[i] = Float(raw[i]) }
                case .int8:
                    for i in 0..<n { out[i] = Float(Int8(bitPattern: raw[i])) }
                case .int32:
                    for i in 0..<n { out[i] = Float(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self))) }
                case .int64:
                    for i in 0..<n { out[i] = Float(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * i, as: Int64.self))) }
                }
                initialized = n
            }
        }
    }

    /// The `.npy` file bytes (format 1.0, header padded so the data starts at a multiple of 64 bytes).
    /// - Returns: the whole file: magic, version, header and the element bytes.
    public func fileBytes() -> [UInt8] {
        let shapeText: String
        switch shape.count {
        case 0: shapeText = "()"
        case 1: shapeText = "(\(shape[0]),)"
        default: shapeText = "(" + shape.map(String.init).joined(separator: ", ") + ")"
        }
        var header = "{'descr': '\(dtype.rawValue)', 'fortran_order': False, 'shape': \(shapeText), }"
        let unpadded = 10 + header.utf8.count + 1
        header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
        let length = header.utf8.count
        var out: [UInt8] = [0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(length & 0xFF), UInt8(length >> 8)]
        out += Array(header.utf8)
        out += bytes
        return out
    }

    /// Writes the array as a `.npy` file.
    /// - Parameter path: the file to create or replace.
    /// - Throws: `NPYError.cannotWrite` with the system's reason.
    public func write(to path: String) throws {
        do { try Data(fileBytes()).write(to: URL(fileURLWithPath: path)) } catch {
            throw NPYError.cannotWrite(path: path, reason: error.localizedDescription)
        }
    }
}
