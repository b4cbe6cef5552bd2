import BlazeImaging
import Testing

@Suite("ImageView.turned(quarterTurns:)")
struct TurnedViewTests {
    @Test("any count of turns, the extremes included, is taken modulo 4 on top of the view's own orientation",
          arguments: [(0, ImageOrientation.right), (1, .down), (-1, .up), (4, .right), (Int.max, .up), (Int.min, .right)])
    func turns(_ quarterTurns: Int, _ expected: ImageOrientation) throws {
        let pixels = [UInt8](repeating: 0, count: 2 * 3 * 3)
        let orientation = try ImageView.withPixels(pixels, width: 2, height: 3, pixelFormat: .rgb8,
                                                   orientation: .right) { $0.turned(quarterTurns: quarterTurns).orientation }
        #expect(orientation == expected)
    }

    @Test("a mirrored view stays mirrored")
    func mirrored() throws {
        let pixels = [UInt8](repeating: 0, count: 2 * 3 * 3)
        let orientation = try ImageView.withPixels(pixels, width: 2, height: 3, pixelFormat: .rgb8,
                                                   orientation: .upMirrored) { $0.turned(quarterTurns: 1).orientation }
        #expect(orientation == .rightMirrored)
    }
}
