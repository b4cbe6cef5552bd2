import BlazeFace
import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// Shrink-on-load (issue 25): the full-range detector (192-pixel input) on a JPEG decoded at the smallest DCT
/// scale whose long side keeps twice the model's input side finds the faces of the full decode.
@Suite("Scaled decode detection")
struct ScaledDecodeDetectionTests {
    /// Twice the full-range detector's input side: 1280 x 886 and 1000 x 667 decode at 1/2.
    static let minimumLongSide = 2 * 192

    /// The smallest IoU accepted: the 1/2 decode moves the boxes of multi_face.jpg's small faces by a few
    /// pixels (the worst IoU measured is 0.914, the detector resampling 500 rather than 1000 pixels to 192).
    @Test(arguments: [("t1.jpg", 0.95), ("multi_face.jpg", 0.9)])
    func sameFacesAsFullDecode(_ file: String, _ minimumIoU: Double) throws {
        let path = TestResources.modelsDirectory.appendingPathComponent("samples/\(file)").path
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("Models/samples/\(file) is missing: run Models/fetch.sh")
            return
        }
        let detector = try Detectors.shared(.fullRange)
        let full = try ImageDecoder.decode(contentsOf: path)
        let scaled = try ImageDecoder.decodeScaled(contentsOf: path, minimumLongSide: Self.minimumLongSide)
        #expect(scaled.scaleDenominator > 1, "\(file) should shrink")
        let fullFaces = try full.withView { try detector.detect($0) }
        let scaledFaces = try scaled.image.withView { try detector.detect($0) }
        #expect(!fullFaces.isEmpty)
        #expect(scaledFaces.count == fullFaces.count, "\(file): \(scaledFaces.count) faces at 1/\(scaled.scaleDenominator), \(fullFaces.count) in full")
        for face in fullFaces {
            let best = scaledFaces.map { scaled.fullSizeRect($0.boundingBox).iou(face.boundingBox) }.max() ?? 0
            #expect(best >= minimumIoU, "\(file): a face at \(face.boundingBox) matches IoU \(best) at 1/\(scaled.scaleDenominator)")
        }
    }
}
