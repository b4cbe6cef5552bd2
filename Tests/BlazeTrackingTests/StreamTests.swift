import BlazeTestSupport
import BlazeTracking
import CAllocationCounter
import Foundation
import Testing

/// Frame intervals, bad input, metrics, the attribute hook and allocations.
@Suite("FaceTracker stream")
struct StreamTests {
    @Test("every 3rd frame is processed; skipped frames carry the last faces unchanged",
          arguments: [FaceTracker.FrameInterval.everyNth(3), .maximumRate(10)])
    func frameInterval(_ interval: FaceTracker.FrameInterval) throws {
        let frames = try Scenes.pan(frames: 12, from: (0, 0, 420), to: (60, 30, 420))
        let tracker = try SyntheticFrames.tracker { $0.frameInterval = interval }
        let results = try SyntheticFrames.track(tracker, frames)
        #expect(results.map(\.processed) == (0..<12).map { $0 % 3 == 0 })
        for (index, result) in results.enumerated() where !result.processed {
            #expect(result.faces == results[index - index % 3].faces, "frame \(index)")
            #expect(result.events.isEmpty)
        }
        #expect(results.allSatisfy { $0.faces.map(\.id) == [1] })
        #expect(tracker.metrics.framesReceived == 12 && tracker.metrics.framesProcessed == 4)
        #expect(results.map(\.frameIndex) == Array(0..<12))
    }

    @Test("timestamps that are not after the last frame's, or not finite, are typed errors; the tracks go on")
    func badTimestamps() throws {
        let frame = SyntheticFrames.window(try SyntheticFrames.astronaut(), x: 40, y: 20, windowWidth: 420)
        let tracker = try SyntheticFrames.tracker()
        try ImageView.withPixels(frame.pixels, width: frame.width, height: frame.height, pixelFormat: .rgb8) { view in
            #expect(try tracker.process(frame: view, timestamp: 1).faces.map(\.id) == [1])
            #expect(throws: FaceTrackerError.nonIncreasingTimestamp(previous: 1, given: 1)) {
                try tracker.process(frame: view, timestamp: 1)
            }
            #expect(throws: FaceTrackerError.nonIncreasingTimestamp(previous: 1, given: 0.5)) {
                try tracker.process(frame: view, timestamp: 0.5)
            }
            #expect(throws: FaceTrackerError.nonFiniteTimestamp(.infinity)) {
                try tracker.process(frame: view, timestamp: .infinity)
            }
            let next = try tracker.process(frame: view, timestamp: 1.1)
            #expect(next.faces.map(\.id) == [1] && next.frameIndex == 1)
        }
        #expect(tracker.metrics.framesReceived == 2)
    }

    @Test("an empty frame cannot reach the tracker: ImageView rejects it with a typed error")
    func emptyFrame() {
        #expect(throws: ImagingError.emptyImage(width: 0, height: 270)) {
            try ImageView.withPixels([], width: 0, height: 270, pixelFormat: .rgb8) { _ in () }
        }
    }

    @Test("a tiny frame gives no face and no error; a frame of another size ends the tracks")
    func frameSizes() throws {
        let tracker = try SyntheticFrames.tracker()
        let big = SyntheticFrames.window(try SyntheticFrames.astronaut(), x: 40, y: 20, windowWidth: 420)
        let tiny = RGBImage(width: 2, height: 2, fill: 10)
        let results = try SyntheticFrames.track(tracker, [big, big, tiny, big])
        #expect(SyntheticFrames.ids(results) == [[1], [1], [], [2]])
        #expect(results[2].events == [.ended(id: 1)])
    }

    @Test("invalid options are typed errors", arguments: [
        { (o: inout FaceTracker.Options) in o.maximumFaces = 0 },
        { (o: inout FaceTracker.Options) in o.holdFrames = -1 },
        { (o: inout FaceTracker.Options) in o.detectionInterval = .frames(0) },
        { (o: inout FaceTracker.Options) in o.frameInterval = .maximumRate(.nan) },
        { (o: inout FaceTracker.Options) in o.smoothing = .init(minimumCutoff: 0, beta: 80, derivativeCutoff: 1) },
        { (o: inout FaceTracker.Options) in o.identityThreshold = -1 },
        { (o: inout FaceTracker.Options) in o.minimumPresence = 2 },
    ] as [@Sendable (inout FaceTracker.Options) -> Void])
    func invalidOptions(_ change: @Sendable (inout FaceTracker.Options) -> Void) {
        var options = FaceTracker.Options()
        change(&options)
        #expect(throws: FaceTrackerError.self) {
            try FaceTracker(options: options, modelsDirectory: SyntheticFrames.modelsDirectory)
        }
        do {
            _ = try FaceTracker(options: options, modelsDirectory: SyntheticFrames.modelsDirectory)
        } catch {
            guard case .invalidOptions = error else { Issue.record("\(error)"); return }
        }
    }

    @Test("metrics count frames, detector and mesh runs, and time per stage")
    func metrics() throws {
        let frames = try Scenes.pan(frames: 6, from: (0, 0, 420), to: (20, 10, 420))
        let tracker = try SyntheticFrames.tracker { $0.attributes = [.landmarks, .headPose] }
        let results = try SyntheticFrames.track(tracker, frames)
        let m = tracker.metrics
        #expect(m.framesProcessed == 6 && m.tracksStarted == 1)
        // One face, maximumFaces 4, detector every 10 frames: it runs on the first frame only.
        #expect(m.detectorRuns == 1 && m.meshRuns == 6, "\(m)")
        #expect(m.detectSeconds > 0 && m.landmarksSeconds > 0 && m.smoothingSeconds > 0 && m.attributesSeconds > 0)
        #expect(m.totalSeconds >= m.detectSeconds + m.landmarksSeconds)
        #expect(m.effectiveFramesPerSecond > 0)
        #expect(FaceTrackerMetrics.peakResidentBytes > 10_000_000)
        #expect(results.allSatisfy { $0.faces.first?.attributes.headPose != nil })
    }

    @Test("the attribute hook's eye values feed the gesture recognizer: a blink of face 1")
    func attributeHookGestures() throws {
        let frames = try Scenes.pan(frames: 12, from: (0, 0, 420), to: (11, 0, 420))
        let tracker = try SyntheticFrames.tracker { $0.attributes = [.gestures] }
        var calls = 0
        tracker.attributeHook = { _, face, attributes in
            // Eyes closed on the 5th and 6th calls (a 67 ms blink at 30 fps), open otherwise.
            calls += 1
            let open: Float = (5...6).contains(calls) ? 0.05 : 0.95
            attributes.leftEyeOpen = open
            attributes.rightEyeOpen = open
            attributes.smiling = face.presence
        }
        let results = try SyntheticFrames.track(tracker, frames)
        let gestures = results.flatMap(\.events).filter { if case .gesture = $0 { true } else { false } }
        #expect(gestures == [.gesture(id: 1, .blink)], "\(gestures)")
        #expect(results[3].faces.first?.attributes.leftEyeOpen == 0.95)
        #expect(results[3].faces.first?.landmarks.isEmpty == true)   // landmarks not asked for
    }

    @Test("a tracked frame allocates nothing once warmed up (smoothing and landmarks on)",
          .enabled(if: blaze_allocation_counting_available() == 1))
    func noAllocation() throws {
        let frames = try Scenes.pan(frames: 6, from: (0, 0, 420), to: (10, 5, 420))
        let tracker = try SyntheticFrames.tracker { $0.maximumFaces = 1 }
        var result = FaceTrackingResult()
        var counts: [Int] = []
        for (index, frame) in frames.enumerated() {
            try ImageView.withPixels(frame.pixels, width: frame.width, height: frame.height, pixelFormat: .rgb8) { view in
                blaze_allocation_counting_begin()
                try tracker.process(view, timestamp: Double(index) / 30, into: &result)
                counts.append(blaze_allocation_counting_end())
            }
        }
        #expect(result.faces.map(\.id) == [1], "\(result.events)")
        #if DEBUG
        // Unoptimized builds keep a few temporary boxes the optimizer removes (the bench's release build counts 0
        // per frame, every thread): here the count must at least stay the same from frame to frame.
        #expect(Set(counts.dropFirst(2)).count == 1 && counts.last! <= 4, "\(counts)")
        #else
        #expect(counts.dropFirst(2).allSatisfy { $0 == 0 }, "\(counts)")
        #endif
    }
}
