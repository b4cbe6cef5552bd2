import BlazeTestSupport
import BlazeTracking
import Foundation
import Testing

/// Hard cuts: another person in the same place, a face jumping to another place.
@Suite("FaceTracker cuts")
struct CutTests {
    @Test("a cut to another person in exactly the same place gives a new ID (the proportions changed)")
    func samePlaceOtherPerson() throws {
        let a = try Scenes.astronautFace(), b = try Scenes.cameramanFace()
        let frames = Scenes.moving(a, Array(repeating: (180, 70), count: 6))
            + Scenes.moving(b, Array(repeating: (180, 72), count: 6))
        let results = try SyntheticFrames.track(SyntheticFrames.tracker(), frames)
        let ids = SyntheticFrames.ids(results)
        #expect(ids[0..<6].allSatisfy { $0 == [1] }, "\(ids)")
        #expect(ids[6..<12].allSatisfy { $0 == [2] }, "\(ids)")
        #expect(results[6].events.contains(.started(id: 2)), "\(results[6].events)")
    }

    @Test("without the identity check, the same cut keeps the ID: what the descriptor adds")
    func samePlaceWithoutIdentityCheck() throws {
        let a = try Scenes.astronautFace(), b = try Scenes.cameramanFace()
        let frames = Scenes.moving(a, Array(repeating: (180, 70), count: 4))
            + Scenes.moving(b, Array(repeating: (180, 72), count: 4))
        let tracker = try SyntheticFrames.tracker { $0.identityThreshold = nil }
        let ids = SyntheticFrames.ids(try SyntheticFrames.track(tracker, frames))
        #expect(ids.allSatisfy { $0 == [1] }, "\(ids)")
    }

    @Test("cuts to another picture and back to a closer framing give new IDs, never reused")
    func cutToAnotherPicture() throws {
        let astronaut = try Scenes.pan(frames: 5, from: (0, 0, 420), to: (10, 5, 420))
        let cameraman = (0..<5).map { _ in
            SyntheticFrames.window(try! SyntheticFrames.cameraman(), x: 60, y: 40, windowWidth: 420)
        }
        let back = try Scenes.pan(frames: 5, from: (100, 60, 300), to: (100, 60, 300))
        let tracker = try SyntheticFrames.tracker { $0.holdFrames = 2 }
        let results = try SyntheticFrames.track(tracker, astronaut + cameraman + back)
        let ids = SyntheticFrames.ids(results)
        #expect(ids[0..<5].allSatisfy { $0 == [1] }, "\(ids)")
        #expect(ids[5..<10].allSatisfy { $0 == [2] }, "\(ids)")
        // Back to the astronaut, framed closer and elsewhere: a third ID (1 ended, and IDs are not reused).
        #expect(ids[10..<15].allSatisfy { $0 == [3] }, "\(ids)")
        let started = results.flatMap(\.events).compactMap { event -> Int? in
            if case let .started(id) = event { return id } else { return nil }
        }
        #expect(started == [1, 2, 3], "\(ids)")
    }
}
