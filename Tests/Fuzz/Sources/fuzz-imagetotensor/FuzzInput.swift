/// Reads the fuzzer's bytes as a stream of parameters; once the bytes run out every read returns zero, so
/// any input, even empty, describes one conversion.
struct FuzzInput {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The bytes not read yet.
    var remaining: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[min(position, bytes.count)...])
    }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func uint16() -> Int { Int(byte()) | Int(byte()) << 8 }

    mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return value
    }

    /// A size or stride: mostly small, sometimes at or past the edges (0, negative, huge).
    mutating func dimension() -> Int {
        let selector = byte()
        switch selector {
        case 0: return 0
        case 1: return -1
        case 2: return Int.max
        case 3: return Int.min
        case 4: return Int(truncatingIfNeeded: uint64())
        case 5: return 1 << 31
        case 6...15: return uint16()
        default: return Int(selector) - 15 + Int(byte() & 0x3F)
        }
    }

    /// A coordinate: a small number, a special value (NaN, ±infinity, ±0, the limits of `ImageToTensor`), or
    /// any bit pattern.
    mutating func coordinate() -> Double {
        let specials: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, 1e8, 1e8.nextUp, -1e8, -1e8.nextDown,
                                  .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                                  0.5, 1, -1, .pi, 2 * .pi, 1e-9, 3.4e38, 1e300]
        let selector = Int(byte())
        if selector < specials.count { return specials[selector] }
        if selector < 40 { return Double(bitPattern: uint64()) }
        return Double(Int16(truncatingIfNeeded: uint16())) / Double(1 + Int(byte() & 0x0F))
    }

    /// A range bound in Float: small values mostly, and the extremes.
    mutating func float() -> Float {
        let specials: [Float] = [.nan, .infinity, -.infinity, 0, -1, 1, 255, -.greatestFiniteMagnitude,
                                 .greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e30, -1e30]
        let selector = Int(byte())
        if selector < specials.count { return specials[selector] }
        if selector < 24 { return Float(bitPattern: UInt32(truncatingIfNeeded: uint64())) }
        return Float(Int8(bitPattern: byte())) / 16
    }
}
