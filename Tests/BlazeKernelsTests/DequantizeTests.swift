import BlazeKernels
import Testing

@Suite("Dequantize")
struct DequantizeTests {
    static let specials: [(UInt16, Float)] = [
        (0x0000, 0), (0x8000, -0.0), (0x3C00, 1), (0xBC00, -1), (0xC000, -2), (0x3800, 0.5),
        (0x7BFF, 65504), (0xFBFF, -65504), (0x0001, 0x1p-24), (0x8001, -0x1p-24), (0x03FF, 0x3FFp-24),
        (0x0400, 0x1p-14), (0x3555, 0x1.554p-2), (0x7C00, .infinity), (0xFC00, -.infinity),
    ]

    /// Converts through the bulk entry point, at a 1-byte offset (unaligned), with a SIMD part and a tail.
    func bulk(_ patterns: [UInt16]) -> [Float] {
        var bytes: [UInt8] = [0xAA]
        for p in patterns { bytes += [UInt8(p & 0xFF), UInt8(p >> 8)] }
        return produce(patterns.count) { out in
            bytes.withUnsafeBytes { convertFloat16ToFloat32($0.baseAddress! + 1, count: patterns.count, into: out) }
        }
    }

    @Test func specialValues() {
        let converted = bulk(Self.specials.map(\.0))
        for (i, (bits, value)) in Self.specials.enumerated() {
            #expect(float16BitsToFloat32(bits).bitPattern == value.bitPattern, "0x\(String(bits, radix: 16))")
            #expect(converted[i].bitPattern == value.bitPattern, "bulk 0x\(String(bits, radix: 16))")
        }
        let nans: [UInt16] = [0x7E00, 0x7C01, 0xFE00, 0x7FFF, 0x7D00, 0xFC01, 0x7E01, 0x7C02, 0xFFFF]
        for (i, value) in bulk(nans).enumerated() {
            #expect(value.isNaN && float16BitsToFloat32(nans[i]).isNaN)
            #expect(value.sign == (nans[i] & 0x8000 != 0 ? .minus : .plus))
            #expect(value.bitPattern == float16BitsToFloat32(nans[i]).bitPattern)
        }
        #expect(bulk([]).isEmpty)
    }

    #if !(os(macOS) && arch(x86_64))
    /// Every binary16 pattern against Swift's `Float16` where the platform has it.
    @Test func exhaustiveAgainstFloat16() {
        let all = (0...0xFFFF).map { UInt16($0) }
        let converted = bulk(all)
        for bits in all {
            let expected = Float(Float16(bitPattern: bits))
            let scalar = float16BitsToFloat32(bits)
            let vector = converted[Int(bits)]
            if expected.isNaN {
                #expect(scalar.isNaN && vector.isNaN)
            } else if scalar.bitPattern != expected.bitPattern || vector.bitPattern != expected.bitPattern {
                Issue.record("0x\(String(bits, radix: 16)): \(scalar), \(vector), expected \(expected)")
            }
        }
    }
    #endif

    @Test func perTensor() {
        let int8: [Int8] = [-128, 0, 127, 5]
        let a = produce(4) { out in int8.withUnsafeBufferPointer { dequantize($0.baseAddress!, count: 4, scale: 0.5, zeroPoint: -1, into: out) } }
        #expect(a == [-63.5, 0.5, 64, 3])
        let uint8: [UInt8] = [0, 128, 255]
        let b = produce(3) { out in uint8.withUnsafeBufferPointer { dequantize($0.baseAddress!, count: 3, scale: 0.25, zeroPoint: 128, into: out) } }
        #expect(b == [-32, 0, 31.75])
    }

    @Test func perChannel() throws {
        let values: [Int8] = [1, 2, 3, 4, 5, 6]
        func run(axis: Int, scales: [Float], zeroPoints: [Int]) throws -> [Float] {
            var output = [Float](repeating: .nan, count: 6)
            try values.withUnsafeBufferPointer { source in
                try output.withUnsafeMutableBufferPointer { out in
                    try dequantizePerChannel(source.baseAddress!, shape: [2, 3], axis: axis, scales: scales,
                                             zeroPoints: zeroPoints, into: out.baseAddress!)
                }
            }
            return output
        }
        #expect(try run(axis: 1, scales: [1, 2, 3], zeroPoints: [0, 1, -1]) == [1, 2, 12, 4, 8, 21])
        #expect(try run(axis: 0, scales: [1, 0.5], zeroPoints: [0]) == [1, 2, 3, 2, 2.5, 3])
        expectThrows { try run(axis: 2, scales: [1, 2, 3], zeroPoints: [0]) }
        expectThrows { try run(axis: 1, scales: [1, 2], zeroPoints: [0]) }
        expectThrows { try run(axis: 1, scales: [1, 2, 3], zeroPoints: [0, 0]) }
    }
}
