import BlazeFaceAnalysis
import BlazeTestSupport
import BlazeTracking
import Testing

/// `.expression`: the tracker computes the eyes and the smile itself (BlazeFaceAnalysis's `ExpressionEstimator`).
@Suite struct ExpressionAttributeTests {
    @Test("the astronaut (eyes open) gets eye and smile values on every frame, before the hook sees them; no blink")
    func expressionAttribute() throws {
        let frames = try Scenes.pan(frames: 8, from: (0, 0, 420), to: (7, 0, 420))
        let tracker = try SyntheticFrames.tracker { $0.attributes = [.gestures, .expression] }
        var seenByHook: [Float?] = []
        tracker.attributeHook = { _, _, attributes in seenByHook.append(attributes.leftEyeOpen) }
        let results = try SyntheticFrames.track(tracker, frames)
        #expect(results.allSatisfy { $0.faces.map(\.id) == [1] }, "\(SyntheticFrames.ids(results))")
        for result in results {
            let a = try #require(result.faces.first?.attributes)
            let left = try #require(a.leftEyeOpen), right = try #require(a.rightEyeOpen)
            let smiling = try #require(a.smiling)
            #expect(left > 0.5 && right > 0.5, "eyes open: \(a)")
            #expect((0...1).contains(smiling), "\(a)")
        }
        #expect(seenByHook.count == frames.count && seenByHook.allSatisfy { $0 != nil }, "\(seenByHook)")
        let gestures = results.flatMap(\.events).filter { if case .gesture = $0 { true } else { false } }
        #expect(gestures.isEmpty, "\(gestures)")
    }

    @Test("without .expression the values stay nil (the hook alone sets them)")
    func expressionOff() throws {
        let frames = try Scenes.pan(frames: 3, from: (0, 0, 420), to: (2, 0, 420))
        let tracker = try SyntheticFrames.tracker { $0.attributes = [.headPose] }
        let results = try SyntheticFrames.track(tracker, frames)
        let a = try #require(results.last?.faces.first?.attributes)
        #expect(a.headPose != nil && a.leftEyeOpen == nil && a.smiling == nil, "\(a)")
    }
}
