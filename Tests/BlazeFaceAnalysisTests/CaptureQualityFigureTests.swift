import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// The capture-quality figure of Documentation/Attributes.md: the astronaut cropped to a passport frame, and five
/// degraded copies, each assessed against `Framing.passport`. Set BLAZEFACE_FIGURES to a folder to write
/// capture-quality-astronaut.png there (each panel reduced to 125 x 125) and print the table.
@Suite("Capture quality figure")
struct CaptureQualityFigureTests {
    @Test("each variant of the passport crop gets its own hint; the crop itself none")
    func figure() throws {
        let assessor = try CaptureQualityAssessor(framing: .passport)
        let astronaut = try Samples.astronaut(), mesh = try CaptureSamples.astronautMesh()
        // The 250 px square of CaptureHintTests.passport: head 60 % of the height, eyes 37 % from the top.
        let (x, y, side) = (100, 9, 250)
        let crop = astronaut.cropped(x: x..<(x + side), y: y..<(y + side))
        let points = CaptureSamples.moved(mesh, dx: Float(-x), dy: Float(-y))
        let (small, smallPoints) = CaptureSamples.downscaled(crop, points, by: 2, fill: 230)
        let variants: [(name: String, picture: RGBImage, points: [Landmark], hint: CaptureHint?)] = [
            ("passport crop", crop, points, nil),
            ("blur σ 2 px", crop.gaussianBlurred(sigma: 2), points, .blurry),
            ("exposure × 0.2", crop.exposureScaled(0.2), points, .tooDark),
            ("exposure × 1.5", crop.exposureScaled(1.5), points, .tooBright),
            ("shifted 30 px left", crop.shifted(dx: -30, dy: 0, fill: 230), CaptureSamples.moved(points, dx: -30), .offCentre),
            ("halved", small, smallPoints, .tooSmall),
        ]
        var rows: [String] = []
        for variant in variants {
            let quality = try CaptureSamples.quality(variant.picture, variant.points, assessor)
            #expect(quality.hints.first == variant.hint, "\(variant.name): \(quality.hints)")
            let m = quality.measurements
            rows.append(String(format: "| %@ | %.2f | %@ | %.3f | %.2f | %.2f | %.2f |", variant.name, quality.score,
                               quality.hints.isEmpty ? "none" : quality.hints.map(\.description).joined(separator: ", "),
                               m.sharpness, m.luminance, m.headHeight, m.eyeX))
        }
        guard let folder = ProcessInfo.processInfo.environment["BLAZEFACE_FIGURES"] else { return }
        let figure = RGBImage.hconcat(variants.map { $0.picture.boxDownscaled(2) })
        let buffer = ImageBuffer(width: figure.width, height: figure.height, pixelFormat: .rgb8, pixels: figure.pixels)
        try PNGEncoder.write(buffer, to: folder + "/capture-quality-astronaut.png")
        print("| variant | score | hints | sharpness | luminance | head height | eyes x |")
        for row in rows { print(row) }
    }
}
