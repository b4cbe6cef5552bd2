import BlazeTestSupport
import BlazeTFLite
import Foundation
import Testing

/// The FlexBuffers reader of custom options: valid buffers from flatc's encoder, hand-made layouts, and
/// truncated, mutated and hostile bytes, which must end in a typed error with the byte offset, never a crash.
@Suite("FlexBuffers reader")
struct FlexBufferTests {
    static func decode(_ bytes: [UInt8], fileOffset: Int = 0) -> Result<FlexBufferMap, TFLiteError> {
        do throws(TFLiteError) {
            return .success(try FlexBufferMap(bytes: bytes, path: "options", fileOffset: fileOffset))
        } catch {
            return .failure(error)
        }
    }

    static var mediapipeLike: [String: Any] { [
        "left_rotation_idx": 2, "right_rotation_idx": 4, "output_height": 192, "output_width": 192,
        "scale_x": 1.5, "scale_y": 1.25, "target_rotation_radians": -0.5,
        "subset_idxs": [0, 1, 2, 3, 300, 70000], "big": 5_000_000_000, "negative": -3, "name": "bilinear",
        "flags": [true, false], "mixed": [1, 2.5], "nested": ["a": 1],
    ] }

    @Test("flatc's encoding of ints, floats, int vectors and strings decodes to the same values")
    func decodesFlatcOutput() throws {
        let bytes = try Flatc.flexBuffer(json: Self.mediapipeLike)
        let map = try Self.decode(bytes).get()
        #expect(map.keys == Self.mediapipeLike.keys.sorted())
        #expect(map["left_rotation_idx"]?.integer == 2)
        #expect(map["output_width"]?.integer == 192)
        #expect(map["scale_x"]?.number == 1.5)
        #expect(map["scale_y"]?.number == 1.25)
        #expect(map["target_rotation_radians"]?.number == -0.5)
        #expect(map["subset_idxs"]?.integers == [0, 1, 2, 3, 300, 70000])
        #expect(map["big"]?.integer == 5_000_000_000)
        #expect(map["negative"]?.integer == -3)
        #expect(map["name"] == .string("bilinear"))
        #expect(map["flags"]?.integers == [1, 0])
        #expect(map["mixed"] == .floats([1, 2.5]))
        #expect(map["nested"] == .unsupported(type: 9))
        #expect(map["missing"] == nil)
        // An integer option is not a float vector, a float option with a fraction is not an integer.
        #expect(map["scale_x"]?.integer == nil)
        #expect(map["mixed"]?.integers == nil)
    }

    /// A root map built by hand: keys "a" (typed vector of int16) and "b" (indirect float64), width 1.
    static func handMade() -> [UInt8] {
        var b: [UInt8] = []
        b += Array("a".utf8) + [0]                       // 0: key "a"
        b += Array("b".utf8) + [0]                       // 2: key "b"
        b += [3, 0]                                      // 4: length 3 (uint16), then elements at 6
        b += [1, 0, 0xFF, 0xFF, 0x00, 0x01]              // 6: int16 1, -1, 256
        b += [0, 0]                                      // 12: padding to 8
        b += withUnsafeBytes(of: (2.75).bitPattern.littleEndian, Array.init)  // 14..22: float64 (unaligned is fine)
        b += [2]                                         // 22: keys vector length
        b += [UInt8(23 - 0), UInt8(24 - 2)]              // 23: key offsets -> 0, 2
        // Map: keys offset, keys width, length, then values and types.
        let mapStart = b.count                           // 25: offset to keys vector (at 23)
        b += [UInt8(mapStart - 23), 1, 2]                // 25, 26, 27
        let values = b.count                             // 28
        b += [UInt8(values - 6), UInt8(values + 1 - 14)] // values: offsets to the vector and the float
        b += [UInt8(11 << 2 | 1), UInt8(8 << 2 | 3)]     // types: VECTOR_INT of width 2, INDIRECT_FLOAT of width 8
        let root = b.count
        b += [UInt8(root - values), UInt8(9 << 2 | 0), 1] // root: offset to the map, MAP of width 1, root width 1
        return b
    }

    @Test("a hand-made map with a typed int16 vector and an indirect float64")
    func decodesHandMade() throws {
        let map = try Self.decode(Self.handMade()).get()
        #expect(map.keys == ["a", "b"])
        #expect(map["a"]?.integers == [1, -1, 256])
        #expect(map["b"]?.number == 2.75)
    }

    @Test("every truncation of a valid buffer is a typed error or a valid map, never a crash")
    func truncations() throws {
        let bytes = try Flatc.flexBuffer(json: Self.mediapipeLike)
        var errors = 0
        for count in 0..<bytes.count {
            if case let .failure(error) = Self.decode(Array(bytes.prefix(count)), fileOffset: 1000) {
                errors += 1
                if case let .malformedFlexBuffer(path, offset, _) = error {
                    #expect(path == "options")
                    #expect(offset >= 1000 && offset < 1000 + max(count, 1))
                }
            }
        }
        // A cut buffer has a wrong root, so it almost never reads as a map.
        #expect(errors >= bytes.count - 2)
        #expect(Self.decode([]) == .failure(.malformedFlexBuffer(path: "options", offset: 0, reason: "0 bytes are too few for a FlexBuffers root")))
    }

    @Test("random byte mutations never crash and every error names an offset inside the buffer")
    func mutations() throws {
        let original = try Flatc.flexBuffer(json: Self.mediapipeLike)
        var random = SplitMix64(seed: 13)
        for _ in 0..<4000 {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 3)) {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            switch Self.decode(bytes, fileOffset: 7) {
            case .success: break
            case .failure(.malformedFlexBuffer(_, let offset, _)): #expect(offset >= 7 && offset < 7 + bytes.count)
            case .failure(.tooComplex): break
            case let .failure(other): Issue.record("unexpected error \(other)")
            }
        }
    }

    @Test("hostile layouts: each a malformedFlexBuffer at the defect's offset")
    func hostile() throws {
        let good = Self.handMade()
        func reason(_ bytes: [UInt8]) -> (Int, String)? {
            if case let .failure(.malformedFlexBuffer(_, offset, reason)) = Self.decode(bytes) { return (offset, reason) }
            return nil
        }
        // Root width 3.
        var b = good; b[b.count - 1] = 3
        #expect(reason(b)?.0 == b.count - 1)
        // Root is an INT, not a map.
        b = good; b[b.count - 2] = UInt8(1 << 2)
        #expect(reason(b)?.1.contains("not a map") == true)
        // Root offset 0 (points at itself) and past the start.
        b = good; b[b.count - 3] = 0
        #expect(reason(b)?.1.contains("backwards") == true)
        b = good; b[b.count - 3] = 200
        #expect(reason(b)?.1.contains("backwards") == true)
        // The vector's length claims 200 int16s.
        b = good; b[4] = 200
        #expect(reason(b)?.0 == 4)
        // Key count differs from the value count.
        b = good; b[22] = 3
        #expect(reason(b)?.1.contains("keys for") == true)
        // Keys out of order, and duplicated: "b" then "a", "a" then "a".
        b = good; b[2] = UInt8(ascii: "0")
        #expect(reason(b)?.1.contains("ascending") == true)
        b = good; b[2] = UInt8(ascii: "a")
        #expect(reason(b)?.1.contains("ascending") == true)
        // Invalid UTF-8 in a key.
        b = good; b[0] = 0xFF
        #expect(reason(b)?.1.contains("UTF-8") == true)
        // A float of 2 bytes (indirect float with width 2).
        b = good; b[b.count - 4] = UInt8(8 << 2 | 1)
        #expect(reason(b)?.1.contains("float of 2 bytes") == true)
        // Unknown type 60.
        b = good; b[b.count - 5] = UInt8(60 << 2)
        #expect(reason(b)?.1.contains("unknown FlexBuffers type 60") == true)
        // Keys width 3.
        b = good; b[26] = 3
        #expect(reason(b)?.0 == 26)
    }

    @Test("many entries sharing one large vector exhaust the work budget: tooComplex")
    func workBudget() throws {
        // A vector of 240 int8s, then a map of 100 keys whose values all point to it (width 2).
        var b: [UInt8] = [240] + [UInt8](repeating: 7, count: 240)
        let vector = 1
        var keyPositions: [Int] = []
        for i in 0..<100 {
            keyPositions.append(b.count)
            b += Array(String(format: "k%03d", i).utf8) + [0]
        }
        if b.count % 2 == 1 { b.append(0) }
        b += [100, 0]
        let keys = b.count
        for (i, p) in keyPositions.enumerated() { b += withUnsafeBytes(of: UInt16(keys + 2 * i - p).littleEndian, Array.init) }
        let header = b.count
        b += withUnsafeBytes(of: UInt16(header - keys).littleEndian, Array.init) + [2, 0, 100, 0]
        let values = b.count
        for i in 0..<100 { b += withUnsafeBytes(of: UInt16(values + 2 * i - vector).littleEndian, Array.init) }
        b += [UInt8](repeating: UInt8(11 << 2 | 0), count: 100)
        let root = b.count
        b += withUnsafeBytes(of: UInt16(root - values).littleEndian, Array.init) + [UInt8(9 << 2 | 1), 2]
        #expect(Self.decode(b) == .failure(.tooComplex(path: "options")))
        // The buffer itself is small: the budget, not the size, stops it.
        #expect(b.count * 4 + 256 < 100 * 240)
    }
}
