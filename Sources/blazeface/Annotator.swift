import BlazeFace
import BlazeImageIO

/// Draws faces onto an upright RGB image: boxes, scores and the six keypoints.
struct Annotator {
    var image: ImageBuffer  // rgb8, upright

    /// Line width and text scale grow with the image so the drawing stays visible.
    var scale: Int { max(1, min(image.width, image.height) / 300) }

    static let boxColor: (UInt8, UInt8, UInt8) = (40, 230, 60)
    static let keypointColors: [FaceKeypoints.Kind: (UInt8, UInt8, UInt8)] = [
        .rightEye: (255, 60, 60), .leftEye: (60, 120, 255), .noseTip: (255, 220, 40),
        .mouthCenter: (230, 60, 230), .rightEarTragion: (255, 150, 40), .leftEarTragion: (40, 220, 230),
    ]

    mutating func set(_ x: Int, _ y: Int, _ color: (UInt8, UInt8, UInt8)) {
        guard x >= 0, y >= 0, x < image.width, y < image.height else { return }
        let i = (y * image.width + x) * 3
        image.pixels[i] = color.0
        image.pixels[i + 1] = color.1
        image.pixels[i + 2] = color.2
    }

    mutating func fill(x0: Int, y0: Int, x1: Int, y1: Int, _ color: (UInt8, UInt8, UInt8)) {
        let xa = max(x0, 0), xb = min(x1, image.width), ya = max(y0, 0), yb = min(y1, image.height)
        guard xa < xb, ya < yb else { return }
        for y in ya..<yb { for x in xa..<xb { set(x, y, color) } }
    }

    mutating func draw(_ face: Face) {
        drawBox(face.boundingBox, label: format2(face.score), color: Self.boxColor)
        for (kind, point) in face.keypoints.all {
            guard point.x.isFinite, point.y.isFinite, abs(point.x) < 1e7, abs(point.y) < 1e7 else { continue }
            let r = 3 * scale, cx = Int(point.x.rounded()), cy = Int(point.y.rounded())
            let color = Self.keypointColors[kind] ?? (255, 255, 255)
            for dy in -r...r { for dx in -r...r where dx * dx + dy * dy <= r * r { set(cx + dx, cy + dy, color) } }
        }
    }

    /// A box's outline in `color` and `label` above it (below it at the top edge) on a dark band; nothing for a
    /// box with a non-finite or far-away side.
    mutating func drawBox(_ b: Rect, label: String, color: (UInt8, UInt8, UInt8)) {
        guard [b.minX, b.minY, b.maxX, b.maxY].allSatisfy({ $0.isFinite && abs($0) < 1e7 }) else { return }
        let t = 2 * scale
        let x0 = Int(b.minX.rounded()), y0 = Int(b.minY.rounded()), x1 = Int(b.maxX.rounded()), y1 = Int(b.maxY.rounded())
        fill(x0: x0 - t / 2, y0: y0 - t / 2, x1: x1 + t / 2, y1: y0 + t / 2, color)
        fill(x0: x0 - t / 2, y0: y1 - t / 2, x1: x1 + t / 2, y1: y1 + t / 2, color)
        fill(x0: x0 - t / 2, y0: y0 - t / 2, x1: x0 + t / 2, y1: y1 + t / 2, color)
        fill(x0: x1 - t / 2, y0: y0 - t / 2, x1: x1 + t / 2, y1: y1 + t / 2, color)
        let glyph = 2 * scale
        let width = label.count * 6 * glyph, height = 9 * glyph
        let top = y0 - t / 2 - height >= 0 ? y0 - t / 2 - height : y1 + t / 2
        fill(x0: x0 - t / 2, y0: top, x1: x0 - t / 2 + width + 2 * glyph, y1: top + height, (0, 0, 0))
        drawText(label, x: x0 - t / 2 + glyph, y: top + glyph, pixel: glyph, color: color)
    }

    /// Outlines a rotated region: its four edges in `color`, the first one (the tensor's top row) in red.
    mutating func draw(_ region: RotatedRect, color: (UInt8, UInt8, UInt8) = Self.boxColor) {
        let corners = region.corners
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite && abs($0.x) < 1e7 && abs($0.y) < 1e7 }) else { return }
        for edge in 0..<4 {
            drawLine(from: corners[edge], to: corners[(edge + 1) % 4], edge == 0 ? (255, 60, 60) : color)
        }
    }

    /// A line of width `width` (default `scale`) from `a` to `b`; the ends must be finite and within about
    /// 1e7 pixels of the image (`drawClippedLine` takes any ends).
    mutating func drawLine(from a: Point, to b: Point, _ color: (UInt8, UInt8, UInt8), width: Int? = nil) {
        let steps = Int(max(abs(b.x - a.x), abs(b.y - a.y)).rounded(.up)) + 1
        let t = width ?? scale
        for step in 0...steps {
            let f = Double(step) / Double(steps)
            let x = Int((a.x + (b.x - a.x) * f).rounded()), y = Int((a.y + (b.y - a.y) * f).rounded())
            fill(x0: x - t / 2, y0: y - t / 2, x1: x - t / 2 + t, y1: y - t / 2 + t, color)
        }
    }

    mutating func drawText(_ text: String, x: Int, y: Int, pixel: Int, color: (UInt8, UInt8, UInt8)) {
        var cursor = x
        for character in text {
            if let rows = TinyFont.rows(of: character) {
                for (row, bits) in rows.enumerated() {
                    for column in 0..<5 where bits & (1 << (4 - column)) != 0 {
                        fill(x0: cursor + column * pixel, y0: y + row * pixel,
                             x1: cursor + (column + 1) * pixel, y1: y + (row + 1) * pixel, color)
                    }
                }
            }
            cursor += 6 * pixel
        }
    }
}

/// A score with two decimals, without Foundation formatting.
func format2(_ value: Float) -> String {
    let hundredths = Int((Double(value) * 100).rounded())
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
}
