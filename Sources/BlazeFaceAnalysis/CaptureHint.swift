/// What to fix before a capture: one reason a face, or the picture, does not meet a `Framing`.
///
/// The cases are in the order a capture screen should ask for them: first get exactly one face, then frame
/// it (distance, position), then pose and eyes, then light and sharpness. `CaptureHints` iterates in this
/// order, so its first hint is the one to show.
public enum CaptureHint: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// No face in the picture.
    case noFace
    /// More faces than the framing allows (`Framing.maximumFaces`).
    case multipleFaces
    /// The head is smaller than `Framing.headHeight` allows: "bring your face closer".
    case tooSmall
    /// The head is larger than `Framing.headHeight` allows: "move back".
    case tooLarge
    /// The eyes' midpoint is off the target column, or the eye line off the target band: "move to the centre".
    case offCentre
    /// Yaw, pitch or roll, relative to the line of sight, beyond the framing's limits: "look straight at the
    /// camera".
    case lookStraight
    /// An eye's open probability below `Framing.minimumEyeOpen`: "open your eyes".
    case eyesClosed
    /// The face's mean luminance below `Framing.luminance`: "more light, please".
    case tooDark
    /// The face's mean luminance above `Framing.luminance`: "too much light".
    case tooBright
    /// The face region's sharpness below `Framing.minimumSharpness`: "hold still" / "image quality too low".
    case blurry

    /// The case's name, as the CLI's JSON spells it (`"offCentre"`).
    public var description: String {
        switch self {
        case .noFace: return "noFace"
        case .multipleFaces: return "multipleFaces"
        case .tooSmall: return "tooSmall"
        case .tooLarge: return "tooLarge"
        case .offCentre: return "offCentre"
        case .lookStraight: return "lookStraight"
        case .eyesClosed: return "eyesClosed"
        case .tooDark: return "tooDark"
        case .tooBright: return "tooBright"
        case .blurry: return "blurry"
        }
    }

    /// A short instruction for the person in front of the camera (English).
    public var instruction: String {
        switch self {
        case .noFace: return "No face found"
        case .multipleFaces: return "Only one person, please"
        case .tooSmall: return "Bring your face closer"
        case .tooLarge: return "Move back a little"
        case .offCentre: return "Move to the centre"
        case .lookStraight: return "Look straight at the camera"
        case .eyesClosed: return "Open your eyes"
        case .tooDark: return "More light, please"
        case .tooBright: return "Too much light"
        case .blurry: return "Image quality too low: hold still"
        }
    }
}

/// A set of `CaptureHint`s in one machine word: no heap allocation. Iterates in `CaptureHint`'s order
/// (`first` is the hint to show first).
public struct CaptureHints: Hashable, Sendable, Sequence, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// Bit `hint.rawValue` set for each hint.
    public private(set) var rawValue: UInt16

    /// No hint: the empty set.
    public init() { rawValue = 0 }

    /// The set of the given hints, such as `[.tooSmall, .blurry]`.
    /// - Parameter hints: the hints, in any order; repeats count once.
    public init(arrayLiteral hints: CaptureHint...) {
        rawValue = 0
        for hint in hints { insert(hint) }
    }

    /// Whether the set holds no hint.
    public var isEmpty: Bool { rawValue == 0 }
    /// The number of hints in the set.
    public var count: Int { rawValue.nonzeroBitCount }
    /// The hint of highest priority (lowest `CaptureHint` case), nil when empty.
    public var first: CaptureHint? {
        isEmpty ? nil : CaptureHint(rawValue: rawValue.trailingZeroBitCount)
    }

    /// Whether `hint` is in the set.
    /// - Parameter hint: the hint to look for.
    /// - Returns: true when the set holds `hint`.
    public func contains(_ hint: CaptureHint) -> Bool { rawValue & (1 << UInt16(hint.rawValue)) != 0 }
    /// Adds `hint` (nothing changes when it is there).
    /// - Parameter hint: the hint to add.
    public mutating func insert(_ hint: CaptureHint) { rawValue |= 1 << UInt16(hint.rawValue) }
    /// Removes `hint` (nothing changes when it is not there).
    /// - Parameter hint: the hint to remove.
    public mutating func remove(_ hint: CaptureHint) { rawValue &= ~(1 << UInt16(hint.rawValue)) }
    /// Adds every hint of `other`.
    /// - Parameter other: the hints to add.
    public mutating func formUnion(_ other: CaptureHints) { rawValue |= other.rawValue }

    /// Visits a set's hints in `CaptureHint`'s order, highest priority first.
    public struct Iterator: IteratorProtocol {
        var remaining: UInt16
        /// The next hint, or nil after the last.
        /// - Returns: the next hint in priority order, or nil after the last.
        public mutating func next() -> CaptureHint? {
            guard remaining != 0 else { return nil }
            let index = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            return CaptureHint(rawValue: index)
        }
    }

    /// An iterator over the hints, highest priority first.
    /// - Returns: an iterator that starts at the highest-priority hint.
    public func makeIterator() -> Iterator { Iterator(remaining: rawValue) }

    /// The names in order, as `[tooSmall, blurry]`.
    public var description: String { "[" + map(\.description).joined(separator: ", ") + "]" }
}
