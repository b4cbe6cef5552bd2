/// Recognizes blinks, winks, head turns, head tilts and nods of one face from its timestamped attributes.
///
/// ```swift
/// var gestures = GestureRecognizer()
/// for frame in video {
///     let sample = GestureSample(time: frame.time, leftEyeOpen: a.leftEyeOpen, rightEyeOpen: a.rightEyeOpen,
///                                pitch: a.pitch, yaw: a.yaw, roll: a.roll)
///     for gesture in gestures.update(sample) { print(gesture) }     // "wink left", "head turn right", ...
/// }
/// ```
///
/// Each gesture fires once: an eye must open again, and the head must come back to rest (yaw and roll within
/// their rest bands), before the same gesture can fire again; thresholds have hysteresis (an eye is closed
/// below `eyeClosedBelow` and open again only above `eyeOpenAbove`), so noise around one threshold does not
/// fire twice.
///
/// - A **blink**: both eyes closed at the same time and both open again within `blinkMaximumDuration`.
/// - A **wink**: one eye closed for at least `winkMinimumDuration` while the other stays open; fires as soon as
///   that time has passed (it does not wait for the eye to open).
/// - A **head turn** / **tilt**: yaw / roll past `turnThreshold` / `tiltThreshold` degrees, starting from rest.
///   Yaw positive is a turn to the subject's left; roll positive (counter-clockwise as the camera sees it) is a
///   tilt toward the subject's right shoulder.
/// - A **nod**: pitch drops `nodAmplitude` degrees below its resting value and comes back within
///   `nodMaximumDuration`.
///
/// Samples more than `maximumGap` seconds apart (dropped frames, a face lost and found), or with a missing
/// value, end every gesture in progress without firing it. Samples whose time does not increase are ignored.
/// A value type: one recognizer per tracked face (`GestureRecognizers` keeps one per face ID).
public struct GestureRecognizer: Sendable {
    /// Thresholds and durations; the defaults suit faces at 15 to 60 frames per second.
    public struct Configuration: Hashable, Sendable {
        /// An eye whose open probability falls below this is closed...
        public var eyeClosedBelow: Float = 0.3
        /// ...and is open again only above this.
        public var eyeOpenAbove: Float = 0.7
        /// The longest closing of both eyes that counts as a blink, in seconds.
        public var blinkMaximumDuration: Double = 0.5
        /// How long one eye must stay closed, the other open, for a wink, in seconds.
        public var winkMinimumDuration: Double = 0.25
        /// Degrees of yaw, either way, for a head turn.
        public var turnThreshold: Double = 25
        /// Degrees of yaw either side of 0 within which the head is at rest again after a turn.
        public var turnRest: Double = 10
        /// Degrees of roll, either way, for a head tilt.
        public var tiltThreshold: Double = 20
        /// Degrees of roll either side of 0 within which the head is at rest again after a tilt.
        public var tiltRest: Double = 8
        /// How far pitch must dip below its resting value for a nod, in degrees.
        public var nodAmplitude: Double = 10
        /// The longest a nod may take, from the dip to the return, in seconds.
        public var nodMaximumDuration: Double = 1.0
        /// The longest time between samples that keeps a gesture in progress, in seconds.
        public var maximumGap: Double = 0.5

        /// The default thresholds and durations.
        public init() {}
    }

    /// The thresholds and durations in use.
    public var configuration: Configuration

    private var lastTime: Double?
    private var left = EyeEpisode(), right = EyeEpisode()
    /// Both eyes' joint closing: when the first closed, and whether both were closed together.
    private var closingStart: Double?
    private var bothClosed = false
    private var turn = AxisState.rest, tilt = AxisState.rest
    private var restingPitch: Double?
    private var nodStart: Double?

    /// A recognizer with no history.
    /// - Parameter configuration: the thresholds and durations (the defaults by default).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Forgets everything in progress (call it when the face is lost).
    public mutating func reset() {
        self = GestureRecognizer(configuration: configuration)
    }

    /// Reads one sample and returns the gestures it completes (usually none; no allocation then).
    /// - Parameter sample: the face's attributes at one moment; a sample not later than the previous is ignored.
    /// - Returns: the gestures the sample completes, usually none.
    public mutating func update(_ sample: GestureSample) -> [FaceGesture] {
        if let last = lastTime {
            guard sample.time > last else { return [] }
            if sample.time - last > configuration.maximumGap { endEpisodes() }
        }
        lastTime = sample.time
        var events: [FaceGesture] = []
        updateEyes(sample, &events)
        updateAxes(sample, &events)
        return events
    }

    // MARK: - Eyes

    private struct EyeEpisode: Sendable {
        var closed = false
        var closedSince = 0.0
        var winkFired = false
        /// Whether the other eye stayed open during this closing.
        var otherStayedOpen = true
    }

    private mutating func updateEyes(_ sample: GestureSample, _ events: inout [FaceGesture]) {
        guard let leftOpen = sample.leftEyeOpen, let rightOpen = sample.rightEyeOpen,
              leftOpen.isFinite, rightOpen.isFinite else {
            endEyeEpisodes()
            return
        }
        let t = sample.time, c = configuration
        let wasClosed = left.closed || right.closed
        func step(_ eye: inout EyeEpisode, _ open: Float) {
            if eye.closed, open > c.eyeOpenAbove { eye.closed = false }
            else if !eye.closed, open < c.eyeClosedBelow {
                eye = EyeEpisode(closed: true, closedSince: t, winkFired: false, otherStayedOpen: true)
            }
        }
        step(&left, leftOpen)
        step(&right, rightOpen)
        if left.closed, right.closed { bothClosed = true }
        if left.closed, right.closed || rightOpen < c.eyeOpenAbove { left.otherStayedOpen = false }
        if right.closed, left.closed || leftOpen < c.eyeOpenAbove { right.otherStayedOpen = false }
        // Winks fire once the eye has been closed long enough with the other open.
        for side in FaceSide.allCases {
            let fired = side == .left ? fireWink(&left, at: t) : fireWink(&right, at: t)
            if fired { events.append(.wink(side)) }
        }
        // Blinks fire when both eyes are open again after closing together, quickly enough.
        let isClosed = left.closed || right.closed
        if !wasClosed, isClosed { closingStart = t; bothClosed = left.closed && right.closed }
        if wasClosed, !isClosed, let start = closingStart {
            if bothClosed, t - start <= c.blinkMaximumDuration { events.append(.blink) }
            closingStart = nil
            bothClosed = false
        }
    }

    private func fireWink(_ eye: inout EyeEpisode, at t: Double) -> Bool {
        guard eye.closed, !eye.winkFired, eye.otherStayedOpen, t - eye.closedSince >= configuration.winkMinimumDuration
        else { return false }
        eye.winkFired = true
        return true
    }

    /// Ends the eyes' episodes without firing: the eyes count as closed-and-fired until they open again, so a
    /// closing that spans a gap fires nothing.
    private mutating func endEyeEpisodes() {
        for index in 0..<2 {
            var eye = index == 0 ? left : right
            if eye.closed { eye.winkFired = true; eye.otherStayedOpen = false }
            if index == 0 { left = eye } else { right = eye }
        }
        closingStart = nil
        bothClosed = false
    }

    // MARK: - Head

    private enum AxisState: Sendable {
        case rest
        /// Past the threshold (fired) or out of the rest band without firing: waiting to come back to rest.
        case away
    }

    private mutating func updateAxes(_ sample: GestureSample, _ events: inout [FaceGesture]) {
        let c = configuration
        if let yaw = sample.yaw, yaw.isFinite {
            if let side = Self.step(&turn, value: yaw, threshold: c.turnThreshold, rest: c.turnRest) {
                events.append(.headTurn(side == 1 ? .left : .right))
            }
        }
        if let roll = sample.roll, roll.isFinite {
            if let side = Self.step(&tilt, value: roll, threshold: c.tiltThreshold, rest: c.tiltRest) {
                events.append(.headTilt(side == 1 ? .right : .left))
            }
        }
        guard let pitch = sample.pitch, pitch.isFinite else {
            nodStart = nil
            return
        }
        let t = sample.time
        if let start = nodStart, let resting = restingPitch {
            if pitch > resting - c.nodAmplitude / 2 {
                if t - start <= c.nodMaximumDuration { events.append(.nod) }
                nodStart = nil
            }
        } else if let resting = restingPitch, pitch < resting - c.nodAmplitude {
            nodStart = t
        } else {
            // At rest: follow the resting pitch slowly (a head that settles lower is not nodding).
            restingPitch = restingPitch.map { $0 + 0.1 * (pitch - $0) } ?? pitch
        }
        if let start = nodStart, t - start > c.nodMaximumDuration {
            // Looking down, not nodding: wait until the pitch is back, then start resting again from there.
            if let resting = restingPitch, pitch > resting - c.nodAmplitude / 2 { nodStart = nil }
        }
    }

    /// One axis's rest/away machine: fires +1 or -1 when the value leaves rest past the threshold.
    private static func step(_ state: inout AxisState, value: Double, threshold: Double, rest: Double) -> Int? {
        switch state {
        case .rest:
            if abs(value) >= threshold {
                state = .away
                return value > 0 ? 1 : -1
            }
            return nil
        case .away:
            if abs(value) <= rest { state = .rest }
            return nil
        }
    }

    /// After a gap: nothing in progress survives; a head away from rest stays away.
    private mutating func endEpisodes() {
        endEyeEpisodes()
        nodStart = nil
    }
}

/// One `GestureRecognizer` per tracked face, by face ID.
public struct GestureRecognizers: Sendable {
    /// The thresholds and durations every face's recognizer uses.
    public var configuration: GestureRecognizer.Configuration
    private var recognizers: [Int: GestureRecognizer] = [:]

    /// No face followed yet.
    /// - Parameter configuration: the thresholds and durations for every face.
    public init(configuration: GestureRecognizer.Configuration = .init()) {
        self.configuration = configuration
    }

    /// The faces being followed.
    public var faceIDs: [Int] { recognizers.keys.sorted() }

    /// Reads one sample of face `id` (a new ID starts a new recognizer).
    /// - Parameters:
    ///   - id: the face's ID, as a tracker gives it.
    ///   - sample: the face's attributes at one moment; times increase from sample to sample.
    /// - Returns: the gestures the sample completes, usually none.
    public mutating func update(face id: Int, _ sample: GestureSample) -> [FaceGesture] {
        recognizers[id, default: GestureRecognizer(configuration: configuration)].update(sample)
    }

    /// Forgets a face that left: whatever it was doing fires nothing.
    /// - Parameter id: the face's ID.
    public mutating func remove(face id: Int) {
        recognizers[id] = nil
    }
}
