import BlazeFaceAnalysis
import BlazeTestSupport
import Foundation
import Testing

/// Synthetic attribute streams at 30 frames per second: a resting face (eyes open 0.95, pose near 0) with
/// seeded noise, and scripted gestures on top.
struct Stream {
    var samples: [GestureSample] = []
    var time = 0.0
    var generator: SplitMix64
    let noise: Double

    init(seed: UInt64 = 1, noise: Double = 0.03) {
        generator = SplitMix64(seed: seed)
        self.noise = noise
    }

    mutating func jitter(_ scale: Double) -> Double { Double.random(in: -scale...scale, using: &generator) }

    /// `seconds` of frames whose values `shape` gives at each fraction 0...1 of the span.
    mutating func add(_ seconds: Double, fps: Double = 30,
                      _ shape: (Double) -> (left: Float, right: Float, pitch: Double, yaw: Double, roll: Double) = { _ in
                          (0.95, 0.95, 0, 0, 0) }) {
        let frames = max(1, Int(seconds * fps))
        for frame in 0..<frames {
            let v = shape(Double(frame) / Double(frames))
            func eye(_ p: Float) -> Float { min(1, max(0, p + Float(jitter(noise)))) }
            samples.append(GestureSample(time: time, leftEyeOpen: eye(v.left), rightEyeOpen: eye(v.right),
                                         pitch: v.pitch + jitter(noise * 30), yaw: v.yaw + jitter(noise * 30),
                                         roll: v.roll + jitter(noise * 30)))
            time += 1 / fps
        }
    }

    mutating func rest(_ seconds: Double) { add(seconds) }

    mutating func closeEyes(left: Bool, right: Bool, for seconds: Double) {
        add(seconds) { _ in (left ? 0.05 : 0.95, right ? 0.05 : 0.95, 0, 0, 0) }
    }

    /// A pose excursion: the angle ramps up to `peak` and back (a sine arch).
    mutating func pose(_ seconds: Double, pitch: Double = 0, yaw: Double = 0, roll: Double = 0) {
        add(seconds) { f in
            let k = sin(f * .pi)
            return (0.95, 0.95, pitch * k, yaw * k, roll * k)
        }
    }

    func run(_ recognizer: inout GestureRecognizer) -> [FaceGesture] {
        samples.flatMap { recognizer.update($0) }
    }
}

@Suite("Gesture recognizer")
struct GestureRecognizerTests {
    @Test("each scripted gesture fires exactly once, with noise", arguments: [1, 2, 3] as [UInt64])
    func scripted(seed: UInt64) {
        var stream = Stream(seed: seed)
        stream.rest(1)
        stream.closeEyes(left: true, right: true, for: 0.15)    // blink
        stream.rest(1)
        stream.closeEyes(left: true, right: false, for: 0.6)    // wink with the subject's left eye
        stream.rest(1)
        stream.closeEyes(left: false, right: true, for: 0.6)    // wink right
        stream.rest(1)
        stream.pose(1.2, yaw: 40)                               // turn to the subject's left
        stream.rest(1)
        stream.pose(1.2, yaw: -40)
        stream.rest(1)
        stream.pose(1.2, roll: 30)                              // counter-clockwise: toward the right shoulder
        stream.rest(1)
        stream.pose(0.6, pitch: -20)                            // a nod
        stream.rest(1)
        var recognizer = GestureRecognizer()
        #expect(stream.run(&recognizer) == [.blink, .wink(.left), .wink(.right), .headTurn(.left), .headTurn(.right),
                                            .headTilt(.right), .nod])
    }

    @Test("a resting face with noise fires nothing; neither do slow or small movements")
    func nothing() {
        var stream = Stream(seed: 9, noise: 0.05)
        stream.rest(5)
        stream.pose(2, pitch: -6, yaw: 15, roll: 12)           // below every threshold
        stream.closeEyes(left: true, right: true, for: 2)      // eyes closed for long: not a blink
        stream.rest(1)
        stream.pose(3, pitch: -25)                             // looking down for long: not a nod
        stream.rest(2)
        var recognizer = GestureRecognizer()
        #expect(stream.run(&recognizer).isEmpty)
    }

    @Test("hysteresis: a value hovering at a threshold fires once, and again only after rest")
    func hysteresis() {
        var recognizer = GestureRecognizer()
        var events: [FaceGesture] = []
        var t = 0.0
        for yaw in [0.0, 26, 24, 26, 24, 26, 15, 26, 5, 26] {
            events += recognizer.update(GestureSample(time: t, leftEyeOpen: 0.9, rightEyeOpen: 0.9, pitch: 0,
                                                      yaw: yaw, roll: 0))
            t += 0.05
        }
        #expect(events == [.headTurn(.left), .headTurn(.left)])   // the second after yaw 5 (back at rest)
    }

    @Test("dropped frames: a gesture split by a gap longer than maximumGap does not fire; short gaps are fine")
    func droppedFrames() {
        var stream = Stream(seed: 4)
        stream.rest(1)
        stream.closeEyes(left: true, right: true, for: 0.1)
        stream.time += 1.0                                      // a one-second hole in the middle of the blink
        stream.closeEyes(left: true, right: true, for: 0.1)
        stream.rest(1)
        var recognizer = GestureRecognizer()
        #expect(stream.run(&recognizer).isEmpty)

        // Every other frame dropped (15 fps): the blink still fires.
        var sparse = Stream(seed: 5)
        sparse.rest(1)
        sparse.closeEyes(left: true, right: true, for: 0.2)
        sparse.rest(1)
        sparse.samples = sparse.samples.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        var second = GestureRecognizer()
        #expect(sparse.run(&second) == [.blink])
    }

    @Test("missing values end what is in progress; times that do not increase are ignored")
    func missingAndDisordered() {
        var recognizer = GestureRecognizer()
        var events: [FaceGesture] = []
        events += recognizer.update(GestureSample(time: 0, leftEyeOpen: 0.9, rightEyeOpen: 0.9))
        events += recognizer.update(GestureSample(time: 0.03, leftEyeOpen: 0.05, rightEyeOpen: 0.05))
        events += recognizer.update(GestureSample(time: 0.06))                                  // eyes unknown
        events += recognizer.update(GestureSample(time: 0.09, leftEyeOpen: 0.9, rightEyeOpen: 0.9))
        #expect(events.isEmpty)
        events += recognizer.update(GestureSample(time: 0.12, leftEyeOpen: 0.05, rightEyeOpen: 0.05))
        events += recognizer.update(GestureSample(time: 0.10, leftEyeOpen: 0.9, rightEyeOpen: 0.9))  // back in time
        events += recognizer.update(GestureSample(time: .nan, leftEyeOpen: 0.9, rightEyeOpen: 0.9))
        events += recognizer.update(GestureSample(time: 0.20, leftEyeOpen: .nan, rightEyeOpen: 0.9))
        #expect(events.isEmpty)
    }

    @Test("two faces keep their own state; a face that leaves mid-gesture fires nothing")
    func twoFaces() {
        var a = Stream(seed: 6), b = Stream(seed: 7)
        a.rest(0.5); b.rest(0.5)
        a.closeEyes(left: true, right: false, for: 0.5)          // face 1 winks
        b.pose(1.0, yaw: -35)                                   // face 2 turns right meanwhile
        a.rest(1); b.rest(0.5)
        var recognizers = GestureRecognizers()
        var events: [(Int, FaceGesture)] = []
        for (sa, sb) in zip(a.samples, b.samples) {
            events += recognizers.update(face: 1, sa).map { (1, $0) }
            events += recognizers.update(face: 2, sb).map { (2, $0) }
        }
        #expect(events.map(\.0) == [1, 2] || events.map(\.0) == [2, 1])
        #expect(events.contains { $0.0 == 1 && $0.1 == .wink(.left) })
        #expect(events.contains { $0.0 == 2 && $0.1 == .headTurn(.right) })

        // Face 3 starts a blink and leaves; it comes back (a new track) with open eyes: nothing fires.
        var c = Stream(seed: 8)
        c.rest(0.5)
        c.closeEyes(left: true, right: true, for: 0.1)
        var fired: [FaceGesture] = []
        for sample in c.samples { fired += recognizers.update(face: 3, sample) }
        recognizers.remove(face: 3)
        #expect(recognizers.faceIDs == [1, 2])
        var back = Stream(seed: 10)
        back.time = c.time
        back.rest(0.5)
        for sample in back.samples { fired += recognizers.update(face: 3, sample) }
        #expect(fired.isEmpty)
    }
}
