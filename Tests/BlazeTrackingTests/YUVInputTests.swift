import BlazeTestSupport
import BlazeTracking
import Foundation
import Testing

/// `FaceTracker.process` on YUV 4:2:0 frames: the IDs and boxes of the same frames in RGB.
@Suite("YUV input: FaceTracker")
struct YUVTrackerTests {
    @Test("a pan over the astronaut in nv12 and i420: the RGB run's IDs, boxes within 1 px", arguments: [PixelFormat.nv12, .i420])
    func pan(_ format: PixelFormat) throws {
        let frames = try Scenes.pan(frames: 6, from: (0, 0, 420), to: (40, 20, 400))
        let rgb = try SyntheticFrames.track(try SyntheticFrames.tracker(), frames)
        let tracker = try SyntheticFrames.tracker()
        var yuv: [FaceTrackingResult] = []
        for (index, frame) in frames.enumerated() {
            yuv.append(try frame.withYUVView(format) { try tracker.process(frame: $0, timestamp: Double(index) / 30) })
        }
        #expect(SyntheticFrames.ids(yuv) == SyntheticFrames.ids(rgb))
        #expect(SyntheticFrames.ids(rgb).allSatisfy { $0 == [1] })
        for (a, b) in zip(yuv, rgb) {
            for (p, q) in zip(a.faces, b.faces) {
                let d = max(abs(p.box.x - q.box.x), abs(p.box.y - q.box.y), abs(p.box.maxX - q.box.maxX), abs(p.box.maxY - q.box.maxY))
                #expect(d < 1, "frame \(a.frameIndex): \(p.box) vs \(q.box)")
            }
        }
    }
}
