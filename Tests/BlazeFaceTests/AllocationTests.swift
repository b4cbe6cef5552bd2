import BlazeFace
import BlazeTestSupport
import CAllocationCounter
import Testing

/// A 1280x720 frame with one large face: the astronaut's head (columns 150..<300, rows 40..<280) scaled
/// 3x by pixel repetition, in the middle of a gray canvas. Both detectors find it.
func zoomedFrame() throws -> RGBImage {
    let head = try Samples.astronaut().cropped(x: 150..<300, y: 40..<280).upscaled(3)
    var frame = RGBImage(width: 1280, height: 720, fill: 128)
    frame.place(head, x: 415, y: 0)
    return frame
}

/// `detect(_:into:)` allocates nothing once the faces array has room, for a frame of the same size as the
/// previous one (the calling thread's allocations are counted by CAllocationCounter, Linux/glibc only).
@Suite("Detector allocations")
struct DetectorAllocationTests {
    @Test("detect(_:into:) performs no heap allocation", .enabled(if: blaze_allocation_counting_available() == 1),
          arguments: [FaceDetector.Model.shortRange, .fullRange])
    func noAllocation(_ model: FaceDetector.Model) throws {
        let detector = try Detectors.fresh(model)  // its own: no other test touches it
        let frame = try zoomedFrame().packed(.bgra8)
        var faces = [Face]()
        faces.reserveCapacity(16)
        var count = -1
        try frame.withView { view in
            try detector.detect(view, into: &faces)
            blaze_allocation_counting_begin()
            try detector.detect(view, into: &faces)
            count = blaze_allocation_counting_end()
        }
        #expect(faces.count == 1, "\(model): \(describe(faces))")
        #expect(count == 0, "\(model): \(count) allocations in detect(_:into:)")
    }
}
