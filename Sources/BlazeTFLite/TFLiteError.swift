/// Why a `.tflite` file could not be read.
///
/// Every case names where the problem is: `path` is the field path inside the model
/// (for example `subgraphs[0].tensors[12].shape`) and `offset` a byte position in the file.
public enum TFLiteError: Error, Equatable, Sendable {
    /// The file could not be opened or read.
    case cannotOpen(path: String, reason: String)
    /// The file is smaller than the smallest possible model.
    case fileTooSmall(size: Int)
    /// Bytes 4..<8 are not the TFLite file identifier `TFL3`.
    case wrongIdentifier(found: String)
    /// A table, vector, string or scalar lies (partly) outside the file.
    case outOfBounds(path: String, offset: Int, length: Int, fileSize: Int)
    /// A table, vector or scalar is not aligned as FlatBuffers requires.
    case misaligned(path: String, offset: Int, alignment: Int)
    /// A vtable is malformed (odd size, too small, or a field offset past the table's end).
    case invalidVTable(path: String, offset: Int, reason: String)
    /// A vector claims more elements than the file could possibly hold, or more than a sane limit.
    case absurdCount(path: String, count: Int, limit: Int)
    /// The file references the same data so often that reading it would take unbounded work.
    case tooComplex(path: String)
    /// A required field is absent.
    case missingField(path: String)
    /// A field holds a value that is not allowed (negative dimension, index out of range, bad UTF-8, ...).
    case invalidValue(path: String, reason: String)
    /// A FlexBuffers buffer (an operator's custom options) is malformed at byte `offset` of the file.
    case malformedFlexBuffer(path: String, offset: Int, reason: String)
}

extension TFLiteError: CustomStringConvertible {
    /// A one-line message for people: what is wrong and where (field path, byte offset).
    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "cannot open model file '\(path)': \(reason)"
        case let .fileTooSmall(size):
            return "not a TFLite model: the file has \(size) bytes"
        case let .wrongIdentifier(found):
            return "not a TFLite model: file identifier is '\(found)', expected 'TFL3'"
        case let .outOfBounds(path, offset, length, fileSize):
            return "malformed model: \(path) at byte \(offset) (\(length) bytes) lies outside the \(fileSize)-byte file"
        case let .misaligned(path, offset, alignment):
            return "malformed model: \(path) at byte \(offset) is not \(alignment)-byte aligned"
        case let .invalidVTable(path, offset, reason):
            return "malformed model: vtable of \(path) at byte \(offset): \(reason)"
        case let .absurdCount(path, count, limit):
            return "malformed model: \(path) claims \(count) elements (limit \(limit))"
        case let .tooComplex(path):
            return "malformed model: reading \(path) exceeds the work budget for a file of this size"
        case let .missingField(path):
            return "malformed model: required field \(path) is missing"
        case let .invalidValue(path, reason):
            return "malformed model: \(path): \(reason)"
        case let .malformedFlexBuffer(path, offset, reason):
            return "malformed model: FlexBuffers of \(path) at byte \(offset): \(reason)"
        }
    }
}

#if canImport(Foundation)
import Foundation

extension TFLiteError: LocalizedError {
    /// The same message as `description`.
    public var errorDescription: String? { description }
}
#endif
