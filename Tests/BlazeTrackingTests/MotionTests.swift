import BlazeTestSupport
import BlazeTracking
import Foundation
import Testing

/// IDs through camera motion, fast motion, crossing faces, misses and re-entries.
@Suite("FaceTracker motion")
struct MotionTests {
    @Test("one ID through a pan and a zoom over the astronaut, the box following the face")
    func panAndZoom() throws {
        let frames = try Scenes.pan(frames: 12, from: (0, 0, 420), to: (90, 60, 420))
            + Scenes.pan(frames: 12, from: (90, 60, 420), to: (120, 70, 300))
        let results = try SyntheticFrames.track(SyntheticFrames.tracker(), frames)
        #expect(SyntheticFrames.ids(results).allSatisfy { $0 == [1] }, "\(SyntheticFrames.ids(results))")
        // The face moves left and up as the window pans right and down: its box centre follows the picture's
        // face centre (225, 125) mapped into the frame, within a fifth of the face's size.
        for (index, result) in results.enumerated() where index % 4 == 3 {
            let t = Double(index % 12) / 11
            let window = index < 12 ? (90 * t, 60 * t, 420.0) : (90 + 30 * t, 60 + 10 * t, 420 - 120 * t)
            let scale = 480 / window.2
            let expected = ((225 - window.0) * scale, (125 - window.1) * scale)
            guard let box = result.faces.first?.box else { continue }
            #expect(abs(box.center.x - expected.0) < box.width / 5 && abs(box.center.y - expected.1) < box.height / 5,
                    "frame \(index): \(box.center) vs \(expected)")
        }
    }

    @Test("one ID through fast motion: the face crosses the frame at 40 px (0.4 face widths) per frame")
    func fastMotion() throws {
        let face = try Scenes.astronautFace()
        let positions: [(Int, Int)?] = (0..<10).map { (10 + 40 * $0, 70 + 8 * ($0 % 3)) }
        let results = try SyntheticFrames.track(SyntheticFrames.tracker(), Scenes.moving(face, positions))
        #expect(SyntheticFrames.ids(results).allSatisfy { $0 == [1] }, "\(SyntheticFrames.ids(results))")
    }

    @Test("two faces crossing keep their IDs: no swap")
    func crossing() throws {
        // Faces of about 75 and 70 px on a 640x360 frame, passing each other at 30 px a frame each.
        let a = try Scenes.astronautFace(scale: 0.8), b = try Scenes.cameramanPortrait()
        let frames = (0..<16).map { index in
            SyntheticFrames.composed([(a, 20 + 30 * index, 5), (b, 440 - 30 * index, 160)], width: 640, height: 360)
        }
        let results = try SyntheticFrames.track(SyntheticFrames.tracker(), frames)
        // The astronaut (upper) keeps the ID she had on the first frame, the cameraman (lower) his.
        let first = try #require(results.first)
        try #require(first.faces.count == 2, "\(SyntheticFrames.ids(results)) \(results.map(\.faces).map { $0.map(\.box) })")
        let upperID = first.faces.min { $0.box.center.y < $1.box.center.y }!.id
        let lowerID = first.faces.max { $0.box.center.y < $1.box.center.y }!.id
        for (index, result) in results.enumerated() {
            #expect(result.faces.count == 2, "frame \(index): \(result.faces.map(\.id))")
            for face in result.faces {
                #expect(face.id == (face.box.center.y < 180 ? upperID : lowerID), "frame \(index): \(face.id) at \(face.box)")
            }
        }
    }

    @Test("a face that leaves and comes back within the hold keeps its ID; after the hold it gets a new one",
          arguments: [(absent: 3, sameID: true), (absent: 9, sameID: false)])
    func leaveAndReenter(_ scenario: (absent: Int, sameID: Bool)) throws {
        let face = try Scenes.astronautFace()
        // Out through the right edge, away for `absent` frames, back through the right edge.
        let leaving: [(Int, Int)?] = [(300, 70), (340, 70), (380, 70), (420, 70), (470, 70)]
        let away: [(Int, Int)?] = Array(repeating: nil, count: scenario.absent)
        let back: [(Int, Int)?] = [(400, 70), (360, 70), (330, 70), (300, 70)]
        let tracker = try SyntheticFrames.tracker { $0.holdFrames = 6 }
        let results = try SyntheticFrames.track(tracker, Scenes.moving(face, leaving + away + back))
        let ids = SyntheticFrames.ids(results)
        #expect(ids.first == [1])
        let last = try #require(ids.last)
        #expect(last == [scenario.sameID ? 1 : 2], "\(ids)")
        let events = results.flatMap(\.events)
        #expect(events.contains(.missed(id: 1)))
        #expect(events.contains(.ended(id: 1)) != scenario.sameID, "\(events)")
        #expect(events.contains(.started(id: 2)) != scenario.sameID, "\(events)")
    }
}
