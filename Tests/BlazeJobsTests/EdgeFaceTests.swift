import BlazeFace
import BlazeImageIO
import BlazeImaging
import BlazeJobs
import BlazeTestSupport
import Testing

/// One box rule (MediaPipe's): a face cut by an edge of the picture keeps the box the model gives it, past the
/// edge, whether the picture was decoded in full or smaller (shrink-on-load), and the two boxes agree.
@Suite("Faces cut by an edge")
struct EdgeFaceTests {
    /// The astronaut sample cut through the face (about a fifth of it) by one edge.
    enum Edge: String, CaseIterable, CustomTestStringConvertible {
        case top, bottom, left, right

        var testDescription: String { rawValue }

        /// The crop of the 512x512 sample (face box about x 175...270, y 83...178).
        func crop(_ image: RGBImage) -> RGBImage {
            switch self {
            case .top: return image.cropped(x: 0..<512, y: 100..<512)
            case .bottom: return image.cropped(x: 0..<512, y: 0..<160)
            case .left: return image.cropped(x: 192..<512)
            case .right: return image.cropped(x: 0..<253)
            }
        }

        /// How far the box reaches past this edge of a `width` x `height` picture, in pixels.
        func overhang(_ box: Rect, width: Int, height: Int) -> Double {
            switch self {
            case .top: return -box.minY
            case .bottom: return box.maxY - Double(height)
            case .left: return -box.minX
            case .right: return box.maxX - Double(width)
            }
        }
    }

    /// The cut picture enlarged to a 4,000-pixel long side (about 10 MP) and encoded as JPEG: shrink-on-load
    /// decodes it at 1/2.
    static func picture(_ edge: Edge) throws -> [UInt8] {
        let cut = edge.crop(try Samples.astronaut())
        let factor = 4000.0 / Double(max(cut.width, cut.height))
        let large = LargeSamples.resized(
            ImageBuffer(width: cut.width, height: cut.height, pixelFormat: .rgb8, pixels: cut.pixels),
            width: Int((Double(cut.width) * factor).rounded()), height: Int((Double(cut.height) * factor).rounded()))
        return try JPEGEncoder.encode(large, quality: 90)
    }

    @Test(arguments: Edge.allCases)
    func boxPastTheEdge(_ edge: Edge) throws {
        let bytes = try Self.picture(edge)
        let models = TestResources.modelsDirectory.path
        // One model (full-range): the rule is about mapping, not about which model of an ensemble wins.
        let detector = FaceJobOptions.DetectorSource.catalog(.fullRange)
        let full = try FaceJob(options: FaceJobOptions(detector: detector, decode: .full), modelsDirectory: models)
            .detect(.bytes(bytes))
        let shrunk = try FaceJob(options: FaceJobOptions(detector: detector), modelsDirectory: models).detect(.bytes(bytes))
        #expect(full.picture.scaleDenominator == 1 && shrunk.picture.scaleDenominator == 2)
        #expect(full.report.width == shrunk.report.width && full.report.height == shrunk.report.height)
        let a = try #require(full.found.first, "\(edge): no face in the full decode")
        let b = try #require(shrunk.found.first, "\(edge): no face at 1/2")
        #expect(full.found.count == 1 && shrunk.found.count == 1)
        let (width, height) = (full.report.width, full.report.height)
        // A fifth of a ~740-pixel face is cut: the box reaches well past the edge, in both decodes.
        #expect(edge.overhang(a.boundingBox, width: width, height: height) > 50, "\(edge) full: \(a.boundingBox)")
        #expect(edge.overhang(b.boundingBox, width: width, height: height) > 50, "\(edge) 1/2: \(b.boundingBox)")
        #expect(a.boundingBox.iou(b.boundingBox) > 0.95, "\(edge): \(a.boundingBox) against \(b.boundingBox)")
        // The report carries the same box, unclipped.
        let box = try #require(shrunk.report.faces.first?.box)
        #expect(box.x == b.boundingBox.minX && box.y == b.boundingBox.minY && box.width == b.boundingBox.width)
    }
}
