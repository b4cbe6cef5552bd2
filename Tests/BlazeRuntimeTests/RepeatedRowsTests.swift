import BlazeKernels
@testable import BlazeRuntime
import BlazeTestSupport
import CAllocationCounter
import Foundation
import Testing

/// Repeated input rows (a letterboxed picture's padding) are computed once per band and copied, layer after
/// layer, and the outputs stay those of the plain run, bit for bit.
@Suite("Repeated rows")
struct RepeatedRowsTests {
    /// An input of `shape` (NHWC, batch 1) with random rows, except rows `0..<top` all equal to one random
    /// row and rows `h - bottom..<h` all equal to another, as a letterbox leaves them (here with values that
    /// differ from row to row inside each band's row, so that a kernel mixing up columns would show).
    static func bandedInput(shape: [Int], top: Int, bottom: Int, seed: UInt64) -> [Float] {
        let (h, rowFloats) = (shape[1], shape[2] * shape[3])
        var random = SplitMix64(seed: seed)
        var values = random.floats(h * rowFloats)
        for row in 1..<top { for j in 0..<rowFloats { values[row * rowFloats + j] = values[j] } }
        let last = (h - 1) * rowFloats
        for row in h - bottom..<h - 1 { for j in 0..<rowFloats { values[row * rowFloats + j] = values[last + j] } }
        return values
    }

    /// Runs `model` on `input` with `reuseRepeatedRows` on and off (one thread): the outputs of both runs
    /// and the rows the first one copied.
    static func onAndOff(_ model: String, input: (Interpreter) -> [Float]) throws -> (on: [[Float]], off: [[Float]], copied: Int) {
        let manifest = try GoldenManifest.load()
        let path = try TestResources.modelPath(try #require(manifest.models[model]).file)
        var outputs: [[[Float]]] = []
        var copied = 0
        for reuse in [true, false] {
            let interpreter = try Interpreter(modelPath: path, options: .init(reuseRepeatedRows: reuse))
            try interpreter.copy(input(interpreter), toInputAt: 0)
            interpreter.invoke()
            if reuse { copied = interpreter.repeatedRowsInLastInvoke } else { #expect(interpreter.repeatedRowsInLastInvoke == 0) }
            outputs.append(try interpreter.outputs.indices.map { try interpreter.outputArray(at: $0) })
        }
        return (outputs[0], outputs[1], copied)
    }

    static func differing(_ a: [[Float]], _ b: [[Float]]) -> [Int] {
        zip(a, b).map { x, y in zip(x, y).filter { $0.bitPattern != $1.bitPattern }.count }
    }

    @Test("a letterboxed input gives the plain outputs bit for bit, with rows copied", arguments: GoldenManifest.modelKeys)
    func letterbox(model: String) throws {
        // The bands a 1280x720 frame leaves in a square input: 28 of 128 rows above and below (22%).
        let result = try Self.onAndOff(model) { interpreter in
            let shape = interpreter.inputs[0].shape
            let band = shape[1] * 7 / 32
            return Self.bandedInput(shape: shape, top: band, bottom: band, seed: 11)
        }
        #expect(Self.differing(result.on, result.off).allSatisfy { $0 == 0 }, "\(model): \(Self.differing(result.on, result.off))")
        #expect(result.copied > 0, "\(model): no row was copied")
        print("repeated rows \(model): \(result.copied) rows copied instead of computed")
    }

    @Test("bands of other sizes, one band, and an input of identical rows", arguments: [
        (0, 9), (13, 0), (3, 4), (2, 2), (1, 1), (128, 0), (64, 64), (40, 87),
    ])
    func otherBands(top: Int, bottom: Int) throws {
        let result = try Self.onAndOff("short_range") { interpreter in
            Self.bandedInput(shape: interpreter.inputs[0].shape, top: max(top, 1), bottom: max(bottom, 1), seed: UInt64(top * 131 + bottom))
        }
        #expect(Self.differing(result.on, result.off).allSatisfy { $0 == 0 }, "bands \(top), \(bottom)")
        if top >= 16 || bottom >= 16 { #expect(result.copied > 0) }
    }

    @Test("rows that differ only in a zero's sign are not repeated")
    func signedZero() throws {
        let result = try Self.onAndOff("short_range") { interpreter in
            let shape = interpreter.inputs[0].shape
            var values = [Float](repeating: 0, count: shape.reduce(1, *))  // every row the same...
            values[20 * shape[2] * shape[3] + 7] = -0.0                     // ...but row 20
            return values
        }
        #expect(Self.differing(result.on, result.off).allSatisfy { $0 == 0 })
        #expect(result.copied > 0)  // rows 0..<20 and 21..<128 still repeat
    }

    @Test("with two threads nothing is skipped, and the outputs are the same")
    func twoThreads() throws {
        let manifest = try GoldenManifest.load()
        let path = try TestResources.modelPath(try #require(manifest.models["short_range"]).file)
        let input = Self.bandedInput(shape: [1, 128, 128, 3], top: 28, bottom: 28, seed: 5)
        let one = try Interpreter(modelPath: path)
        let two = try Interpreter(modelPath: path, options: .init(threadCount: 2))
        for interpreter in [one, two] {
            try interpreter.copy(input, toInputAt: 0)
            interpreter.invoke()
        }
        #expect(one.repeatedRowsInLastInvoke > 0 && two.repeatedRowsInLastInvoke == 0)
        for k in one.outputs.indices {
            #expect(try one.outputArray(at: k).map(\.bitPattern) == two.outputArray(at: k).map(\.bitPattern))
        }
    }

    @Test("a letterboxed invoke() performs no heap allocation", .enabled(if: blaze_allocation_counting_available() == 1))
    func noAllocation() throws {
        let manifest = try GoldenManifest.load()
        let interpreter = try Interpreter(modelPath: try TestResources.modelPath(try #require(manifest.models["full_range"]).file))
        try interpreter.copy(Self.bandedInput(shape: interpreter.inputs[0].shape, top: 42, bottom: 42, seed: 3), toInputAt: 0)
        interpreter.invoke()
        blaze_allocation_counting_begin()
        interpreter.invoke()
        interpreter.invoke()
        let count = blaze_allocation_counting_end()
        #expect(count == 0)
        #expect(interpreter.repeatedRowsInLastInvoke > 0)
    }

    // MARK: - The row arithmetic

    @Test("scan finds the bands at the top and bottom")
    func scan() {
        let rows = 10, width = 3
        var t = [Float](repeating: 1, count: rows * width)
        #expect(RowBands.scan(t, rows: rows, rowFloats: width) == RowBands(0..<10, 0..<0))
        t[4 * width + 1] = 2  // row 4 differs
        #expect(RowBands.scan(t, rows: rows, rowFloats: width) == RowBands(0..<4, 5..<10))
        t[8 * width] = 3      // and row 8: rows 9 alone at the bottom is no band
        #expect(RowBands.scan(t, rows: rows, rowFloats: width) == RowBands(0..<4, 0..<0))
        t[0] = 5              // row 0 differs from row 1
        #expect(RowBands.scan(t, rows: rows, rowFloats: width) == .none)
    }

    @Test("windows map bands of input rows to bands of output rows")
    func windows() {
        // 3x3 stride 1, one row of padding: output row y reads y-1...y+1.
        let same3 = RowWindow(height: 3, stride: 1, pad: 1)
        #expect(same3.outputRows(inside: 0..<10, outputRows: 64) == 1..<9)
        #expect(same3.outputRows(inside: 54..<64, outputRows: 64) == 55..<63)
        #expect(same3.outputRows(inside: 3..<5, outputRows: 64) == 0..<0)
        // 5x5 stride 2, padding 1 above (short-range's first convolution): y reads 2y-1...2y+3.
        let first = RowWindow(height: 5, stride: 2, pad: 1)
        #expect(first.outputRows(inside: 0..<28, outputRows: 64) == 1..<13)
        #expect(first.outputRows(inside: 100..<128, outputRows: 64) == 51..<63)
        // 2x2 stride 2 pooling; a pad of 2 rows on top.
        #expect(RowWindow(height: 2, stride: 2, pad: 0).outputRows(inside: 3..<10, outputRows: 8) == 2..<5)
        #expect(RowWindow(height: 1, stride: 1, pad: 2).outputRows(inside: 0..<4, outputRows: 10) == 2..<6)
        #expect(RowWindow.identity.outputRows(inside: 5..<9, outputRows: 6) == 5..<6)
    }

    @Test("intersections keep the two longest overlaps")
    func intersections() {
        let a = RowBands(0..<10, 20..<30), b = RowBands(5..<25, 0..<0)
        #expect(a.intersection(b) == RowBands(5..<10, 20..<25))
        let c = RowBands(0..<5, 7..<26)
        #expect(a.intersection(c) == RowBands(0..<5, 20..<26))  // 0..<5, 7..<10 and 20..<26: the shortest goes
        #expect(a.intersection(.none) == .none)
        #expect(RowBands(3..<4, 0..<1) == .none)               // bands of one row are no bands
        #expect(RowBands(20..<30, 0..<10) == a)                 // ordered
    }
}
