import BlazeTestSupport
import BlazeTracking
import Dispatch
import Foundation
import Testing

/// What FaceTracker's documentation promises about threads. A tracker is not `Sendable` (it holds one stream's
/// tracks): trackers of their own, each following its own video on its own thread, may share one
/// `FaceLandmarker` (and its detector), whose lock serializes the models; and one tracker may move between
/// threads when the caller orders its calls. Both give the sequential results. Run under ThreadSanitizer by
/// Tests/Sanitizers/run.sh thread.
@Suite("Concurrency: face tracker")
struct TrackerConcurrencyTests {
    /// Four short videos: pans and zooms over the astronaut from different windows (each starts a track, and
    /// the zooms move the face enough to run the detector again).
    static func videos() throws -> [[RGBImage]] {
        try [
            Scenes.pan(frames: 8, from: (0, 0, 420), to: (60, 30, 420)),
            Scenes.pan(frames: 8, from: (80, 40, 380), to: (20, 10, 460)),
            Scenes.pan(frames: 8, from: (30, 60, 440), to: (40, 0, 360)),
            Scenes.pan(frames: 8, from: (50, 20, 400), to: (10, 50, 400)),
        ]
    }

    static let options = FaceTracker.Options(detector: .shortRange, maximumFaces: 2, detectionInterval: .frames(3),
                                             attributes: [.landmarks, .gestures, .expression])

    @Test("four trackers of their own on one shared landmarker, one video per thread, give the sequential results")
    func sharedLandmarker() throws {
        let landmarker = try FaceLandmarker(model: .attention, modelsDirectory: SyntheticFrames.modelsDirectory,
                                            options: Self.options.landmarkerOptions)
        let videos = try Self.videos()
        let sequential = try videos.map { frames in
            try SyntheticFrames.track(try FaceTracker(landmarker: landmarker, options: Self.options), frames)
        }
        #expect(sequential.allSatisfy { $0.allSatisfy { $0.faces.map(\.id) == [1] } }, "\(sequential.map(SyntheticFrames.ids))")
        let outcome = Hammer.run(threads: 4, rounds: 2) { thread, round in
            let tracker = try FaceTracker(landmarker: landmarker, options: Self.options)
            let index = (thread + round) % videos.count
            return (index, try SyntheticFrames.track(tracker, videos[index]))
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.all.count == 8)
        for (index, results) in outcome.all {
            #expect(results == sequential[index], "video \(index)")
        }
    }

    @Test("trackers on one shared landmarker while other threads call the landmarker and its detector directly")
    func sharedWithDirectCalls() throws {
        let landmarker = try FaceLandmarker(model: .attention, modelsDirectory: SyntheticFrames.modelsDirectory,
                                            options: Self.options.landmarkerOptions)
        let videos = try Self.videos()
        let sequential = try SyntheticFrames.track(try FaceTracker(landmarker: landmarker, options: Self.options),
                                                   videos[0])
        let still = videos[1][0]
        let (meshes, faces) = try ImageView.withPixels(still.pixels, width: still.width, height: still.height,
                                                       pixelFormat: .rgb8) { view in
            (try landmarker.detect(view), try landmarker.detector.detect(view))
        }
        let outcome = Hammer.run(threads: 4, rounds: 2) { thread, _ -> Bool in
            if thread < 2 {
                let tracker = try FaceTracker(landmarker: landmarker, options: Self.options)
                return try SyntheticFrames.track(tracker, videos[0]) == sequential
            }
            return try ImageView.withPixels(still.pixels, width: still.width, height: still.height,
                                            pixelFormat: .rgb8) { view in
                thread == 2 ? try landmarker.detect(view) == meshes : try landmarker.detector.detect(view) == faces
            }
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.all == Array(repeating: true, count: 8))
    }

    @Test("one tracker handed from thread to thread, frame by frame in order, gives the one-thread results")
    func handedBetweenThreads() throws {
        let frames = try Self.videos()[1]
        let sequential = try SyntheticFrames.track(try SyntheticFrames.tracker { $0 = Self.options }, frames)
        let handed = HandedTracker(try SyntheticFrames.tracker { $0 = Self.options }, threads: 3)
        let outcome = Hammer.run(threads: 3, rounds: 1) { thread, _ -> [(Int, FaceTrackingResult)] in
            var mine: [(Int, FaceTrackingResult)] = []
            for index in stride(from: thread, to: frames.count, by: 3) {
                mine.append((index, try handed.process(frames[index], index: index, thread: thread)))
            }
            return mine
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        let results = outcome.all.joined().sorted { $0.0 < $1.0 }.map(\.1)
        #expect(results == sequential)
    }
}

/// A tracker whose frames are processed by several threads in turn: thread `index % threads` processes frame
/// `index`, after the thread before it has finished frame `index - 1`. The semaphores order the calls (and make
/// each call's writes visible to the next thread), which is what the tracker's contract asks of a caller that
/// moves it between threads; hence `@unchecked Sendable`.
private final class HandedTracker: @unchecked Sendable {
    private let tracker: FaceTracker
    private let turns: [DispatchSemaphore]

    init(_ tracker: FaceTracker, threads: Int) {
        self.tracker = tracker
        // All start at 0 (libdispatch traps when a semaphore is released below its initial value).
        turns = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
        turns[0].signal()
    }

    func process(_ frame: RGBImage, index: Int, thread: Int) throws -> FaceTrackingResult {
        turns[thread].wait()
        defer { turns[(thread + 1) % turns.count].signal() }
        return try ImageView.withPixels(frame.pixels, width: frame.width, height: frame.height, pixelFormat: .rgb8) {
            try tracker.process(frame: $0, timestamp: Double(index) / 30)
        }
    }
}
