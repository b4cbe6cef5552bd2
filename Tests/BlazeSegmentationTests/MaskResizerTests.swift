import BlazeSegmentation
import BlazeTestSupport
import Testing

/// `MaskResizer` against its scalar reference and against hand-computed OpenCV `INTER_LINEAR` values.
@Suite("MaskResizer")
struct MaskResizerTests {
    /// Random values in 0...1 from a fixed seed.
    static func values(_ count: Int, seed: UInt64) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in Float(generator.next() >> 40) / Float(1 << 24) }
    }

    static func fast(_ source: [Float], _ sw: Int, _ sh: Int, _ dw: Int, _ dh: Int,
                     resizer: MaskResizer = MaskResizer()) throws -> [Float] {
        var out = [Float](repeating: .nan, count: dw * dh)
        try source.withUnsafeBufferPointer { src in
            try out.withUnsafeMutableBufferPointer { dst in
                try resizer.resize(src, width: sw, height: sh, into: dst, width: dw, height: dh)
            }
        }
        return out
    }

    @Test("bit-identical to the scalar reference, enlarging, reducing, odd sizes, one pixel", arguments: [
        (256, 256, 512, 512), (256, 144, 1280, 720), (256, 256, 312, 512), (256, 144, 100, 75), (256, 256, 128, 128),
        (3, 2, 17, 9), (1, 1, 5, 4), (7, 5, 1, 1), (5, 1, 13, 3), (256, 256, 256, 256), (16, 9, 455, 256),
    ])
    func reference(_ sw: Int, _ sh: Int, _ dw: Int, _ dh: Int) throws {
        let source = Self.values(sw * sh, seed: UInt64(sw * 1000 + dw))
        let expected = try MaskResizer.referenceResize(source, width: sw, height: sh, width: dw, height: dh)
        #expect(try Self.fast(source, sw, sh, dw, dh) == expected)
    }

    @Test("one resizer reused across sizes gives what a new one gives")
    func reuse() throws {
        let resizer = MaskResizer()
        for (sw, sh, dw, dh) in [(256, 256, 512, 300), (256, 144, 40, 30), (256, 256, 512, 300), (8, 8, 8, 8)] {
            let source = Self.values(sw * sh, seed: 7)
            #expect(try Self.fast(source, sw, sh, dw, dh, resizer: resizer) == Self.fast(source, sw, sh, dw, dh))
        }
    }

    @Test("OpenCV's half-pixel mapping: 2 → 4 columns, 2 → 1, edges clamped")
    func handValues() throws {
        // dst x → src f = (x + 0.5) / 2 − 0.5: −0.25 (clamped to 0), 0.25, 0.75, 1.25 (clamped to 1).
        #expect(try Self.fast([0, 1], 2, 1, 4, 1) == [0, 0.25, 0.75, 1])
        // Reducing 2 → 1: f = 0.5, the average.
        #expect(try Self.fast([0.25, 0.75], 2, 1, 1, 1) == [0.5])
        // Same size: the identity.
        let source = Self.values(12, seed: 3)
        #expect(try Self.fast(source, 4, 3, 4, 3) == source)
        // Rows like columns: 1 x 2 → 1 x 4.
        #expect(try Self.fast([1, 0], 1, 2, 1, 4) == [1, 0.75, 0.25, 0])
    }

    @Test("a constant stays constant and values stay within 0...1")
    func bounds() throws {
        #expect(try Self.fast([Float](repeating: 0.3, count: 6), 3, 2, 11, 7).allSatisfy { $0 == 0.3 })
        let out = try Self.fast(Self.values(64 * 36, seed: 9), 64, 36, 333, 177)
        #expect(out.allSatisfy { (0...1).contains($0) })
    }

    @Test("bad sizes: typed errors, nothing written")
    func badSizes() throws {
        let resizer = MaskResizer()
        var out = [Float](repeating: 9, count: 4)
        func attempt(_ source: [Float], _ sw: Int, _ sh: Int, _ dw: Int, _ dh: Int) -> ImagingError? {
            source.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    do throws(ImagingError) {
                        try resizer.resize(src, width: sw, height: sh, into: dst, width: dw, height: dh)
                        return nil
                    } catch { return error }
                }
            }
        }
        #expect(attempt([1, 2], 0, 2, 2, 2) == .emptyImage(width: 0, height: 2))
        #expect(attempt([1, 2], 2, 1, 2, -1) == .emptyImage(width: 2, height: -1))
        #expect(attempt([1, 2], 2, 2, 2, 2) == .bufferTooSmall(bytes: 2, needed: 4))
        #expect(attempt([1, 2], 2, 1, 3, 2) == .outputTooSmall(floats: 4, needed: 6))
        #expect(out == [9, 9, 9, 9])
        #expect(throws: ImagingError.self) { try MaskResizer.referenceResize([1], width: 1, height: 1, width: 0, height: 1) }
    }
}
