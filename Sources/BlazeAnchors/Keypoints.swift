/// Up to eight keypoints stored inline (no heap allocation): a fixed-capacity collection of `Keypoint`.
///
/// BlazeFace has six keypoints per detection: 0 right eye, 1 left eye, 2 nose tip, 3 mouth centre,
/// 4 right ear tragion, 5 left ear tragion (the subject's own left and right).
///
/// Equality and hashing consider only the `count` stored points.
public struct Keypoints: RandomAccessCollection, MutableCollection, Hashable, Sendable {
    /// Positions are `0 ..< count`.
    public typealias Index = Int
    /// The valid positions, `0 ..< count`.
    public typealias Indices = Range<Int>
    /// Each element is one point.
    public typealias Element = Keypoint

    /// The most keypoints a value can hold.
    public static let capacity = 8

    /// x0, y0, x1, y1, ...; lanes past `2 * count` are always zero, so the synthesized equality and
    /// hashing see only the stored points.
    @usableFromInline var storage: SIMD16<Float>
    @usableFromInline var storedCount: UInt8

    /// An empty collection.
    @inlinable
    public init() {
        storage = SIMD16()
        storedCount = 0
    }

    /// The given points, in order.
    ///
    /// - Parameter points: the keypoints, in order.
    /// - Precondition: there are at most `Keypoints.capacity` of them.
    public init(_ points: some Sequence<Keypoint>) {
        self.init()
        for point in points { append(point) }
    }

    /// Always 0.
    @inlinable public var startIndex: Int { 0 }
    /// The number of points stored.
    @inlinable public var endIndex: Int { Int(storedCount) }
    /// The number of points stored, 0 to `capacity`.
    @inlinable public var count: Int { Int(storedCount) }
    /// `0 ..< count`.
    @inlinable public var indices: Range<Int> { 0..<Int(storedCount) }

    /// Whether `capacity` points are stored.
    @inlinable public var isFull: Bool { Int(storedCount) == Self.capacity }

    /// The point at `position`.
    /// - Parameter position: `0 ..< count`.
    /// - Returns: the point stored there.
    /// - Precondition: `position` is in `0 ..< count`.
    @inlinable
    public subscript(position: Int) -> Keypoint {
        get {
            precondition(position >= 0 && position < Int(storedCount), "Keypoints index out of range")
            return Keypoint(x: storage[2 &* position], y: storage[2 &* position &+ 1])
        }
        set {
            precondition(position >= 0 && position < Int(storedCount), "Keypoints index out of range")
            storage[2 &* position] = newValue.x
            storage[2 &* position &+ 1] = newValue.y
        }
    }

    /// Appends a point.
    ///
    /// - Parameter point: the point to store after the others.
    /// - Precondition: `isFull` is false.
    @inlinable
    public mutating func append(_ point: Keypoint) {
        precondition(!isFull, "Keypoints holds at most \(Self.capacity) points")
        let position = Int(storedCount)
        storage[2 &* position] = point.x
        storage[2 &* position &+ 1] = point.y
        storedCount &+= 1
    }

    /// Removes and returns the last point.
    ///
    /// - Returns: the point that was last.
    /// - Precondition: the collection is not empty.
    @inlinable
    @discardableResult
    public mutating func removeLast() -> Keypoint {
        precondition(storedCount > 0, "Keypoints is empty")
        let last = self[Int(storedCount) - 1]
        storedCount &-= 1
        storage[2 &* Int(storedCount)] = 0
        storage[2 &* Int(storedCount) &+ 1] = 0
        return last
    }

    /// Removes every point.
    @inlinable
    public mutating func removeAll() {
        storage = SIMD16()
        storedCount = 0
    }
}

extension Keypoints: ExpressibleByArrayLiteral {
    /// - Parameter elements: the keypoints, in order.
    /// - Precondition: at most `Keypoints.capacity` elements.
    public init(arrayLiteral elements: Keypoint...) {
        self.init(elements)
    }
}

extension Keypoints: CustomStringConvertible {
    /// The points in order, such as `[(0.4, 0.3), (0.6, 0.3)]`.
    public var description: String {
        "[" + map(\.description).joined(separator: ", ") + "]"
    }
}
