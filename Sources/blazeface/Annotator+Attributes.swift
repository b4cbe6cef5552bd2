import BlazeFaceAnalysis
import BlazeFaceMesh

/// Drawing what `analyze` finds: the face's box, its head axes from the nose tip, and a label with the eyes,
/// the smile, the quality and the hints.
extension Annotator {
    /// The head axes' colours: x toward the subject's left (red), y up the face (green), z out of it (blue).
    static let axisColors: [(UInt8, UInt8, UInt8)] = [(230, 40, 30), (40, 200, 60), (40, 120, 255)]
    /// The length of each drawn axis on the canonical face, centimetres.
    static let axisLength = 6.0

    mutating func draw(_ face: AnalyzedFace, camera: CameraIntrinsics) {
        if let detection = face.landmarks.detection { draw(detection) }
        drawAxes(face.pose, camera: camera)
        let box = face.landmarks.detection?.boundingBox ?? face.landmarks.boundingBox
        let e = face.expression
        var lines = ["EYES L \(format2(e.leftEyeOpen)) R \(format2(e.rightEyeOpen))",
                     "SMILE \(format2(e.smiling))", "QUALITY \(format2(Float(face.quality.score)))"]
        lines += face.quality.hints.map { Self.words($0.description) }
        guard box.minX.isFinite, box.maxY.isFinite, abs(box.minX) < 1e7, abs(box.maxY) < 1e7 else { return }
        drawLabel(lines, x: Int(box.minX.rounded()), y: Int(box.maxY.rounded()) + 2 * scale)
    }

    /// The pose's axes from the canonical nose tip, projected with `camera`; nothing when an end is behind it.
    mutating func drawAxes(_ pose: HeadPose, camera: CameraIntrinsics) {
        let nose = pose.cameraPoint(CanonicalFaceModel.vertex(1))
        guard let origin = camera.project(nose) else { return }
        for axis in 0..<3 {
            guard let end = camera.project(nose + Self.axisLength * pose.rotation.column(axis)) else { continue }
            drawClippedLine(from: origin, to: end, Self.axisColors[axis], width: 2 * scale)
        }
    }

    /// "offCentre" as "off centre": a camel-case name as words, for the capitals-only font.
    static func words(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase { out.append(" ") }
            out.append(character)
        }
        return out
    }

    /// Lines of text on a dark band whose top-left corner is (x, y); moved inside the image where it can be.
    mutating func drawLabel(_ lines: [String], x: Int, y: Int) {
        let glyph = max(1, scale), lineHeight = 9 * glyph
        let width = (lines.map(\.count).max() ?? 0) * 6 * glyph + 2 * glyph
        let height = lines.count * lineHeight + glyph
        let left = max(0, min(x, image.width - width)), top = max(0, min(y, image.height - height))
        fill(x0: left, y0: top, x1: left + width, y1: top + height, (0, 0, 0))
        for (row, line) in lines.enumerated() {
            drawText(line, x: left + glyph, y: top + glyph + row * lineHeight, pixel: glyph, color: (255, 255, 255))
        }
    }
}
