import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// The expression figure and table of Documentation/Attributes.md. With BLAZEFACE_FIGURES set to a folder, writes
/// expression-faces.png there (the two public-domain faces, the astronaut and the cameraman, each with three bars
/// below it: the subject's left eye open, right eye open, smiling; full width = 1; the other pictures' rights do
/// not allow copies in the repository) and prints one table row per labelled face with the attention mesh
/// and the plain mesh. Without it, checks only that the figure's faces are found.
@Suite("Expression figure")
struct ExpressionFigureTests {
    static let shown: [(picture: String, centre: [Double])] = [
        ("astronaut.png", [227, 122]), ("camera.png", [239, 158]),
    ]

    @Test("the figure's faces are found; with BLAZEFACE_FIGURES, the figure and the table")
    func figure() throws {
        var tiles: [RGBImage] = []
        for (picture, centre) in Self.shown {
            let rgb = try Samples.rgb(picture)
            let face = try #require(ExpressionSamples.face(near: centre, in: try ExpressionSamples.faces(picture)))
            let e = try face.expression(imageWidth: rgb.width, imageHeight: rgb.height)
            tiles.append(Self.tile(rgb, face: face, expression: e))
        }
        guard let folder = ProcessInfo.processInfo.environment["BLAZEFACE_FIGURES"] else { return }
        let figure = RGBImage.hconcat(tiles)
        let buffer = ImageBuffer(width: figure.width, height: figure.height, pixelFormat: .rgb8, pixels: figure.pixels)
        try PNGEncoder.write(buffer, to: folder + "/expression-faces.png")

        let plain = try FaceLandmarker(model: .mesh, modelsDirectory: TestResources.modelsDirectory.path)
        for label in ExpressionLabel.all {
            let rgb = try Samples.rgb(label.picture)
            let image = ImageBuffer(width: rgb.width, height: rgb.height, pixelFormat: .rgb8, pixels: rgb.pixels)
            var cells: [String] = []
            for faces in [try ExpressionSamples.faces(label.picture), try image.withView { try plain.detect($0) }] {
                guard let face = ExpressionSamples.face(near: label.centre, in: faces) else { cells.append("—"); continue }
                let e = try face.expression(imageWidth: rgb.width, imageHeight: rgb.height)
                cells.append(String(format: "%.2f / %.2f / %.2f", e.leftEyeOpen, e.rightEyeOpen, e.smiling))
            }
            let smiling = label.smiling.map { $0 ? "yes" : "no" } ?? "unsure"
            print("| \(label.picture) (\(Int(label.centre[0])), \(Int(label.centre[1]))) | \(label.leftEye.rawValue) / "
                  + "\(label.rightEye.rawValue) / \(smiling) | \(cells[0]) | \(cells[1]) |")
        }
    }

    /// The face cut square (1.5 times its detection box) and resampled to 160 x 160 (nearest neighbour), with
    /// three bars below: blue the left eye, green the right eye, red the smile.
    static func tile(_ picture: RGBImage, face: FaceLandmarks, expression e: FaceExpression) -> RGBImage {
        let box = face.detection?.boundingBox ?? face.boundingBox
        let side = 1.5 * max(box.width, box.height), x0 = box.x + box.width / 2 - side / 2, y0 = box.y + box.height / 2 - side / 2
        let size = 160, barHeight = 10
        var tile = RGBImage(width: size, height: size + 3 * barHeight + 8, fill: 255)
        for y in 0..<size {
            for x in 0..<size {
                let sx = Int(x0 + (Double(x) + 0.5) * side / Double(size)), sy = Int(y0 + (Double(y) + 0.5) * side / Double(size))
                guard sx >= 0, sy >= 0, sx < picture.width, sy < picture.height else { continue }
                let s = picture.offset(sx, sy), o = tile.offset(x, y)
                (tile.pixels[o], tile.pixels[o + 1], tile.pixels[o + 2]) = (picture.pixels[s], picture.pixels[s + 1], picture.pixels[s + 2])
            }
        }
        let bars: [(Float, [UInt8])] = [(e.leftEyeOpen, [30, 110, 240]), (e.rightEyeOpen, [40, 190, 60]), (e.smiling, [230, 40, 30])]
        for (k, (value, colour)) in bars.enumerated() {
            let top = size + 2 + k * (barHeight + 2)
            for y in top..<(top + barHeight) {
                for x in 4..<(size - 4) {
                    let filled = Float(x - 4) < value * Float(size - 8)
                    let o = tile.offset(x, y)
                    let c: [UInt8] = filled ? colour : [225, 225, 225]
                    (tile.pixels[o], tile.pixels[o + 1], tile.pixels[o + 2]) = (c[0], c[1], c[2])
                }
            }
        }
        return tile
    }
}
