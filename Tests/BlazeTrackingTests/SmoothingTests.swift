import BlazeTestSupport
import BlazeTracking
import Foundation
import Testing

/// The One-Euro smoothing: less jitter on a still face, little lag on a pan.
@Suite("FaceTracker smoothing")
struct SmoothingTests {
    /// The standard deviation over frames of each point, averaged over the points (pixels).
    static func jitter(_ results: ArraySlice<FaceTrackingResult>) -> Double {
        let meshes = results.compactMap { $0.faces.first?.landmarks }
        guard let count = meshes.first?.count, meshes.count > 1 else { return .nan }
        var total = 0.0
        for point in 0..<count {
            let xs = meshes.map { Double($0[point].x) }, ys = meshes.map { Double($0[point].y) }
            let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
            let variance = zip(xs, ys).map { ($0 - mx) * ($0 - mx) + ($1 - my) * ($1 - my) }.reduce(0, +)
            total += (variance / Double(xs.count)).squareRoot()
        }
        return total / Double(count)
    }

    @Test("on a still face with pixel noise, smoothing lowers the points' jitter to under half")
    func stillJitter() throws {
        let still = SyntheticFrames.window(try SyntheticFrames.astronaut(), x: 60, y: 30, windowWidth: 420)
        let frames = (0..<30).map { SyntheticFrames.noisy(still, amplitude: 12, seed: UInt64($0 + 1)) }
        let smoothed = try SyntheticFrames.track(SyntheticFrames.tracker(), frames)
        let raw = try SyntheticFrames.track(SyntheticFrames.tracker { $0.smoothing = nil }, frames)
        #expect(SyntheticFrames.ids(smoothed).allSatisfy { $0 == [1] })
        let on = Self.jitter(smoothed[5...]), off = Self.jitter(raw[5...])
        print("jitter on a still face (mean per-point std, px): smoothing off \(off), on \(on)")
        #expect(off > 0.05, "the noise should move the points: \(off)")
        #expect(on < off / 2, "smoothing on \(on) px vs off \(off) px")
    }

    @Test("on a pan of 8 px per frame, the smoothed box lags the raw one by less than 3 px")
    func panLag() throws {
        let frames = try Scenes.pan(frames: 16, from: (0, 20, 420), to: (105, 20, 420))
        let smoothed = try SyntheticFrames.track(SyntheticFrames.tracker(), frames)
        let raw = try SyntheticFrames.track(SyntheticFrames.tracker { $0.smoothing = nil }, frames)
        var worst = 0.0
        for (s, r) in zip(smoothed, raw).dropFirst(3) {
            guard let a = s.faces.first?.box.center, let b = r.faces.first?.box.center else {
                Issue.record("a face was lost")
                continue
            }
            worst = max(worst, hypot(a.x - b.x, a.y - b.y))
        }
        print("pan lag of the smoothed box centre: at most \(worst) px")
        #expect(worst < 3, "\(worst) px")
    }
}
