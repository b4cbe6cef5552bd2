import Testing
import BlazeAnchors

@Suite("Box and keypoints")
struct GeometryTests {
    @Test func boxProperties() {
        let box = Box(xCenter: 0.5, yCenter: 0.25, width: 0.5, height: 0.25)
        #expect(box == Box(xMin: 0.25, yMin: 0.125, xMax: 0.75, yMax: 0.375))
        #expect(box.width == 0.5 && box.height == 0.25 && box.area == 0.125)
        #expect(box.center == Keypoint(x: 0.5, y: 0.25))
        #expect(!box.isEmpty)
        let empty = Box(xMin: 0.5, yMin: 0, xMax: 0.4, yMax: 1)
        #expect(empty.isEmpty && empty.area == 0 && empty.width < 0)
        let point = Box(xMin: 0.5, yMin: 0.5, xMax: 0.5, yMax: 0.5)
        #expect(!point.isEmpty && point.area == 0)
    }

    @Test("IoU: identical 1, symmetric, nested = area ratio, partial overlap")
    func iou() {
        let a = Box(xMin: 0, yMin: 0, xMax: 0.4, yMax: 0.4)
        let b = Box(xMin: 0.1, yMin: 0.1, xMax: 0.5, yMax: 0.5)
        #expect(a.iou(with: a) == 1)
        #expect(close(a.iou(with: b), 0.09 / 0.23))
        #expect(a.iou(with: b) == b.iou(with: a))
        let big = Box(xMin: 0, yMin: 0, xMax: 1, yMax: 1)
        let small = Box(xMin: 0.4, yMin: 0.4, xMax: 0.6, yMax: 0.6)
        #expect(close(big.iou(with: small), 0.04))
        #expect(close(small.iou(with: big), 0.04))
    }

    @Test("IoU of disjoint, touching, zero-area, empty and NaN boxes is 0 (MediaPipe's convention)")
    func degenerateIoU() {
        let a = Box(xMin: 0, yMin: 0, xMax: 0.5, yMax: 0.5)
        #expect(a.iou(with: Box(xMin: 0.6, yMin: 0, xMax: 1, yMax: 0.5)) == 0)       // disjoint
        #expect(a.iou(with: Box(xMin: 0.5, yMin: 0, xMax: 1, yMax: 0.5)) == 0)       // shared edge
        #expect(a.iou(with: Box(xMin: 0.5, yMin: 0.5, xMax: 1, yMax: 1)) == 0)       // shared corner
        let point = Box(xMin: 0.25, yMin: 0.25, xMax: 0.25, yMax: 0.25)
        #expect(point.iou(with: point) == 0)                                          // zero area, itself
        #expect(point.iou(with: a) == 0 && a.iou(with: point) == 0)                   // zero area inside
        let line = Box(xMin: 0.1, yMin: 0.25, xMax: 0.4, yMax: 0.25)
        #expect(line.iou(with: a) == 0)
        let empty = Box(xMin: 0.4, yMin: 0.1, xMax: 0.1, yMax: 0.4)
        #expect(empty.iou(with: a) == 0 && a.iou(with: empty) == 0 && empty.iou(with: empty) == 0)
        let nan = Box(xMin: .nan, yMin: 0, xMax: 0.5, yMax: 0.5)
        #expect(nan.iou(with: a) == 0 && a.iou(with: nan) == 0)
    }

    @Test func keypointsCollection() {
        var points = Keypoints()
        #expect(points.isEmpty && points.count == 0 && !points.isFull)
        for i in 0..<Keypoints.capacity { points.append(Keypoint(x: Float(i), y: -Float(i))) }
        #expect(points.isFull && points.count == 8)
        #expect(points[7] == Keypoint(x: 7, y: -7))
        #expect(points.map(\.x) == [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(points.reversed().first == Keypoint(x: 7, y: -7))
        points[3] = Keypoint(x: 0.5, y: 0.25)
        #expect(points[3] == Keypoint(x: 0.5, y: 0.25))
        #expect(points.removeLast() == Keypoint(x: 7, y: -7))
        #expect(points.count == 7)
        points.removeAll()
        #expect(points == Keypoints())
    }

    @Test("Equality and hashing see only the stored points")
    func keypointsEquality() {
        let a: Keypoints = [Keypoint(x: 1, y: 2), Keypoint(x: 3, y: 4)]
        var b: Keypoints = [Keypoint(x: 1, y: 2)]
        b.append(Keypoint(x: 9, y: 9))
        b.removeLast()
        b.append(Keypoint(x: 3, y: 4))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect(a != Keypoints([Keypoint(x: 1, y: 2)]))
        #expect(a.description == "[(1.0, 2.0), (3.0, 4.0)]")
        #expect(Keypoints(Array(a)) == a)
    }
}
