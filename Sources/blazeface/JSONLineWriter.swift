#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds one line of JSON at a time in a reused byte buffer, the text `JSONEncoder` (with `.sortedKeys` and
/// non-finite numbers as strings) gives for the same values, without its per-line allocations and boxing:
/// numbers in their shortest round-trip digits (Swift's `description`), whole ones without ".0"; non-finite
/// ones as the strings "nan", "inf", "-inf"; strings escaped as `JSONEncoder` escapes them ("/" too). The caller
/// writes the keys in sorted order. Not thread-safe.
struct JSONLineWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the next value in the current object or array needs a comma first.
    private var needsComma = false

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    /// Empties the line (the capacity stays).
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// `"name":` (with a comma before it when needed); the value follows.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        append(UInt8(ascii: "\""), UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func value(_ number: Int) {
        separate()
        appendText(number.description)
        needsComma = true
    }

    mutating func value(_ number: Double) {
        separate()
        if number.isFinite { appendNumber(number.description) } else { appendNonFinite(Double(number)) }
        needsComma = true
    }

    mutating func value(_ number: Float) {
        separate()
        if number.isFinite { appendNumber(number.description) } else { appendNonFinite(Double(number)) }
        needsComma = true
    }

    mutating func value(_ text: String) {
        separate()
        appendString(text)
        needsComma = true
    }

    mutating func null() {
        separate()
        appendText("null")
        needsComma = true
    }

    /// Writes the line and a newline to `descriptor` (standard output by default) in one `write` (more when the
    /// system takes part of it). A failed write (a closed pipe, a full disk) drops the line and returns false.
    @discardableResult
    mutating func writeLine(to descriptor: Int32 = STDOUT_FILENO) -> Bool {
        bytes.append(0x0A)
        return bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = true
    }

    /// Two bytes (no array literal: nothing is allocated).
    private mutating func append(_ first: UInt8, _ second: UInt8) {
        bytes.append(first)
        bytes.append(second)
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A finite number's `description`, without a trailing ".0" (as `JSONEncoder`).
    private mutating func appendNumber(_ description: String) {
        var text = description
        text.withUTF8 { utf8 in
            let whole = utf8.count > 2 && utf8[utf8.count - 2] == UInt8(ascii: ".") && utf8[utf8.count - 1] == UInt8(ascii: "0")
            bytes.append(contentsOf: whole ? UnsafeBufferPointer(rebasing: utf8.dropLast(2)) : utf8)
        }
    }

    private mutating func appendNonFinite(_ number: Double) {
        appendString(number.isNaN ? "nan" : number > 0 ? "inf" : "-inf")
    }

    private mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                append(UInt8(ascii: "\\"), byte)
            case 0x0A: append(UInt8(ascii: "\\"), UInt8(ascii: "n"))
            case 0x0D: append(UInt8(ascii: "\\"), UInt8(ascii: "r"))
            case 0x09: append(UInt8(ascii: "\\"), UInt8(ascii: "t"))
            case 0x08: append(UInt8(ascii: "\\"), UInt8(ascii: "b"))
            case 0x0C: append(UInt8(ascii: "\\"), UInt8(ascii: "f"))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                append(UInt8(ascii: "\\"), UInt8(ascii: "u"))
                append(UInt8(ascii: "0"), UInt8(ascii: "0"))
                append(hex[Int(byte >> 4)], hex[Int(byte & 15)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
