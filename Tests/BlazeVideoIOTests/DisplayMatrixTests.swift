import BlazeVideoIO
import Testing

/// The eight orientations and FFmpeg's display matrices.
@Suite("Display matrix")
struct DisplayMatrixTests {
    @Test("every orientation's matrix reads back as that orientation, at any positive scale")
    func roundTrip() {
        for orientation in ImageOrientation.allCases {
            let m = orientation.displayMatrix
            #expect(ImageOrientation(displayMatrix: Double(m.a), Double(m.b), Double(m.c), Double(m.d)) == orientation)
            #expect(ImageOrientation(displayMatrix: 2.5 * Double(m.a), 2.5 * Double(m.b), 2.5 * Double(m.c),
                                     2.5 * Double(m.d)) == orientation)
        }
    }

    @Test("FFmpeg's rotations: av_display_rotation_set(90) is .left, -90 is .right, 180 is .down")
    func ffmpegRotations() {
        // av_display_rotation_set(m, θ): a = cos θ, b = −sin θ, c = sin θ, d = cos θ (θ counterclockwise).
        #expect(ImageOrientation(displayMatrix: 0, -1, 1, 0) == .left)
        #expect(ImageOrientation(displayMatrix: 0, 1, -1, 0) == .right)
        #expect(ImageOrientation(displayMatrix: -1, 0, 0, -1) == .down)
        #expect(ImageOrientation(displayMatrix: 1, 0, 0, 1) == .up)
        #expect(ImageOrientation(displayMatrix: -1, 0, 0, 1) == .upMirrored)
    }

    @Test("matrices that are no quarter turn or mirror give nil")
    func others() {
        #expect(ImageOrientation(displayMatrix: 0.7071, -0.7071, 0.7071, 0.7071) == nil)
        #expect(ImageOrientation(displayMatrix: 0, 0, 0, 0) == nil)
        #expect(ImageOrientation(displayMatrix: 1, 0.5, 0, 1) == nil)
        #expect(ImageOrientation(displayMatrix: .nan, 0, 0, 1) == nil)
    }
}
