// IEEE 754 binary16 → binary32 by bit manipulation, without Swift's `Float16` type (unavailable on macOS
// x86_64). Used at model load to fold TFLite's fp16 weights (DEQUANTIZE of a constant) into float32.

/// Converts one IEEE binary16 bit pattern to Float, exactly (every binary16 value is representable).
///
/// Zeros keep their sign, subnormals become normal floats, infinities stay infinite, and NaNs stay NaN with
/// their payload, made quiet (as hardware conversions do).
@inlinable
package func float16BitsToFloat32(_ bits: UInt16) -> Float {
    let h = UInt32(bits)
    let sign = (h & 0x8000) << 16
    let exponent = (h >> 10) & 0x1F
    let mantissa = h & 0x3FF
    switch exponent {
    case 0x1F:
        // Infinity (mantissa 0) or NaN (payload kept, quiet bit set).
        let quiet: UInt32 = mantissa == 0 ? 0 : 0x0040_0000
        return Float(bitPattern: sign | 0x7F80_0000 | quiet | (mantissa << 13))
    case 0:
        // Zero or subnormal: mantissa · 2⁻²⁴, exact in Float.
        let magnitude = Float(mantissa) * 0x1p-24
        return Float(bitPattern: sign | magnitude.bitPattern)
    default:
        // Normal: rebias the exponent from 15 to 127.
        return Float(bitPattern: sign | ((exponent + 112) << 23) | (mantissa << 13))
    }
}

/// Converts `count` binary16 values to Float.
///
/// - Parameters:
///   - source: `2 · count` bytes of little-endian binary16 bit patterns; no alignment required.
///   - count: The number of values, at least 0.
///   - destination: `count` floats. Must not overlap `source`.
///
/// Eight values at a time with `SIMD8` integer arithmetic (no branches), the tail one at a time.
/// Thread-safe; allocates nothing.
package func convertFloat16ToFloat32(_ source: UnsafeRawPointer, count: Int, into destination: UnsafeMutablePointer<Float>) {
    var i = 0
    #if _endian(little)
    let signMask = SIMD8<UInt32>(repeating: 0x8000)
    let exponentMask = SIMD8<UInt32>(repeating: 0x7C00)
    let mantissaMask = SIMD8<UInt32>(repeating: 0x3FF)
    let rebias = SIMD8<UInt32>(repeating: 112 << 23)
    let infinity = SIMD8<UInt32>(repeating: 0x7F80_0000)
    let quietBit = SIMD8<UInt32>(repeating: 0x0040_0000)
    let zero = SIMD8<UInt32>()
    while i + 8 <= count {
        let h = SIMD8<UInt32>(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: 2 * i, as: SIMD8<UInt16>.self))
        let sign = (h & signMask) &<< 16
        let exponent = h & exponentMask
        let mantissa = h & mantissaMask
        // Normal numbers.
        var bits = ((h & (exponentMask | mantissaMask)) &<< 13) &+ rebias
        // Infinities and NaNs.
        let special = (mantissa &<< 13) | infinity
        let nan = special | quietBit
        bits.replace(with: special, where: exponent .== exponentMask)
        bits.replace(with: nan, where: (exponent .== exponentMask) .& (mantissa .!= zero))
        // Zeros and subnormals: mantissa · 2⁻²⁴.
        let small = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: mantissa)) * SIMD8<Float>(repeating: 0x1p-24)
        bits.replace(with: unsafeBitCast(small, to: SIMD8<UInt32>.self), where: exponent .== zero)
        let result = unsafeBitCast(bits | sign, to: SIMD8<Float>.self)
        UnsafeMutableRawPointer(destination + i).storeBytes(of: result, as: SIMD8<Float>.self)
        i += 8
    }
    #endif
    while i < count {
        let bits = UInt16(littleEndian: source.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self))
        destination[i] = float16BitsToFloat32(bits)
        i += 1
    }
}
