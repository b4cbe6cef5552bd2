import BlazeFaceMesh
import Foundation

/// Drawing face meshes: the region the model saw, the tessellation (thin, light), the contours of the lips,
/// eyes, eyebrows and face oval (stronger), and the irises (a circle through each iris rim, and its centre).
extension Annotator {
    static let regionColor: (UInt8, UInt8, UInt8) = (60, 170, 255)
    static let tessellationColor: (UInt8, UInt8, UInt8) = (205, 205, 205)
    static let contourColor: (UInt8, UInt8, UInt8) = (40, 230, 60)
    static let irisColor: (UInt8, UInt8, UInt8) = (255, 220, 40)

    /// The tessellation's edges, each once: MediaPipe's list has every inner edge in both directions.
    static let meshEdges: [LandmarkConnection] = {
        var seen = Set<LandmarkConnection>()
        return FaceMeshConnections.tessellation.filter {
            seen.insert(LandmarkConnection(start: min($0.start, $0.end), end: max($0.start, $0.end))).inserted
        }
    }()

    /// Draws one face's mesh. Points outside the image are fine: lines are clipped to it.
    mutating func draw(_ face: FaceLandmarks) {
        draw(face.region, color: Self.regionColor)
        drawMesh(face.points)
    }

    /// The tessellation, the contours and, for 478 points, the irises of a mesh's points.
    mutating func drawMesh(_ points: [Landmark]) {
        let thin = max(1, scale / 2)
        for edge in Self.meshEdges where edge.end < points.count {
            drawClippedLine(from: points[edge.start].point, to: points[edge.end].point, Self.tessellationColor,
                            width: thin)
        }
        for edge in FaceMeshConnections.contours where edge.end < points.count {
            drawClippedLine(from: points[edge.start].point, to: points[edge.end].point, Self.contourColor)
        }
        guard points.count >= 478 else { return }
        for (centre, rim) in [(468, FaceMeshConnections.rightIris), (473, FaceMeshConnections.leftIris)] {
            drawIris(centre: points[centre].point, rim: rim.map { points[$0.start].point })
        }
    }

    /// A circle around `centre` whose radius is the mean distance to the `rim` points, and a dot at the centre.
    mutating func drawIris(centre: Point, rim: [Point]) {
        let distances = rim.map { (($0.x - centre.x) * ($0.x - centre.x) + ($0.y - centre.y) * ($0.y - centre.y)).squareRoot() }
        let radius = distances.reduce(0, +) / Double(max(distances.count, 1))
        guard radius.isFinite else { return }
        let segments = 32
        func onCircle(_ step: Int) -> Point {
            let angle = 2 * Double.pi * Double(step) / Double(segments)
            return Point(x: centre.x + radius * cos(angle), y: centre.y + radius * sin(angle))
        }
        for step in 0..<segments {
            drawClippedLine(from: onCircle(step), to: onCircle(step + 1), Self.irisColor)
        }
        drawClippedLine(from: centre, to: centre, Self.irisColor, width: scale + 1)
    }

    /// `drawLine` for any ends: the part of the segment inside the image (plus a margin for the line width),
    /// nothing for a segment outside it or with a non-finite end.
    mutating func drawClippedLine(from a: Point, to b: Point, _ color: (UInt8, UInt8, UInt8), width: Int? = nil) {
        let margin = Double(width ?? scale) + 1
        guard let (start, end) = Self.clip(a, b, minX: -margin, minY: -margin, maxX: Double(image.width) + margin,
                                           maxY: Double(image.height) + margin) else { return }
        drawLine(from: start, to: end, color, width: width)
    }

    /// Liang–Barsky clipping of the segment from `a` to `b` to a rectangle; nil when no part lies inside.
    static func clip(_ a: Point, _ b: Point, minX: Double, minY: Double, maxX: Double,
                     maxY: Double) -> (Point, Point)? {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return nil }
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = 0.0, t1 = 1.0
        // Each side as (p, q): the segment is inside where t * p <= q.
        for (p, q) in [(-dx, a.x - minX), (dx, maxX - a.x), (-dy, a.y - minY), (dy, maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let t = q / p
                if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
                if t0 > t1 { return nil }
            }
        }
        return (Point(x: a.x + t0 * dx, y: a.y + t0 * dy), Point(x: a.x + t1 * dx, y: a.y + t1 * dy))
    }
}
