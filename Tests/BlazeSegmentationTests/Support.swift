import BlazeImageIO
import BlazeSegmentation
import BlazeTestSupport
import Foundation

/// Tests/Goldens/mediapipe/segmentation.json: MediaPipe 0.10.21's legacy SelfieSegmentation masks on the goldens'
/// pictures, written by Tests/Goldens/segmentation_parity.py. Each mask is an 8-bit PNG beside the json,
/// byte = rint(mask · 255), so byte / 255 is within 0.5 / 255 of MediaPipe's float.
struct SegmentationGoldens: Decodable, Sendable {
    struct Result: Decodable, Sendable {
        var maskPng: String
        var sha256Float32: String
        var mean: Double
        var foregroundFraction: Double
        /// `[x, y, value]`: MediaPipe's exact float32 value at a few pixels.
        var probes: [[Double]]
    }

    /// MediaPipe's SegmentationSmoothingCalculator (with its loopback) on the general model's masks of `frames`.
    struct Video: Decodable, Sendable {
        var model: String
        var combineWithPreviousRatio: Float
        var frames: [String]
        /// Per frame: nil for the first (passed through), then the smoothed mask.
        var smoothed: [Result?]
    }

    var images: [String: GoldenPicture]
    var video: Video
    /// Model key (`general`, `landscape`) → picture name → result.
    var results: [String: [String: Result]]

    static let directory = TestResources.goldensDirectory.appendingPathComponent("mediapipe")
    private static let cache = Cache<Int, SegmentationGoldens>()
    private static let pictures = Cache<String, RGBImage>()
    private static let masks = Cache<String, SegmentationMask>()

    static func load() throws -> SegmentationGoldens {
        try cache.value(0) {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(SegmentationGoldens.self,
                                      from: Data(contentsOf: directory.appendingPathComponent("segmentation.json")))
        }
    }

    /// A picture rebuilt from its recipe (its sha256 is checked by `MediaPipeSegmentationParityTests`).
    static func picture(_ name: String) throws -> RGBImage {
        try pictures.value(name) {
            guard let spec = try load().images[name] else {
                throw TestResources.Missing(description: "segmentation.json has no picture \(name)")
            }
            return try spec.build(name: name)
        }
    }

    /// MediaPipe's mask of `name` for `model`, as byte / 255.
    static func mask(_ model: PersonSegmenter.Model, _ name: String) throws -> SegmentationMask {
        guard let result = try load().results[model.rawValue]?[name] else {
            throw TestResources.Missing(description: "segmentation.json has no \(model) result for \(name)")
        }
        return try mask(result)
    }

    /// The PNG of a result, as byte / 255.
    static func mask(_ result: Result) throws -> SegmentationMask {
        try masks.value(result.maskPng) {
            let png = try ImageDecoder.decode(contentsOf: directory.appendingPathComponent(result.maskPng).path)
            guard png.pixelFormat == .gray8 else { throw TestResources.Missing(description: "\(result.maskPng) is not gray") }
            return SegmentationMask(width: png.width, height: png.height, values: png.pixels.map { Float($0) / 255 })
        }
    }
}

enum SegmentationSamples {
    static var modelsDirectory: String { TestResources.modelsDirectory.path }

    private static let segmenters = Cache<String, PersonSegmenter>()

    /// A shared segmenter (tests that count allocations or smooth make their own).
    static func segmenter(_ model: PersonSegmenter.Model) throws -> PersonSegmenter {
        try segmenters.value(model.rawValue) { try PersonSegmenter(model: model, modelsDirectory: modelsDirectory) }
    }

    static func buffer(_ image: RGBImage, orientation: ImageOrientation = .up) -> ImageBuffer {
        ImageBuffer(width: image.width, height: image.height, pixelFormat: .rgb8, pixels: image.pixels,
                    orientation: orientation)
    }

    /// Mean |Δ| and the IoU of the > 0.5 regions (1 when both are empty).
    static func compare(_ ours: SegmentationMask, _ reference: SegmentationMask) -> (meanError: Double, iou: Double) {
        precondition(ours.width == reference.width && ours.height == reference.height)
        var sum = 0.0, both = 0, either = 0
        for (a, b) in zip(ours.values, reference.values) {
            sum += abs(Double(a) - Double(b))
            let (p, q) = (a > 0.5, b > 0.5)
            if p && q { both += 1 }
            if p || q { either += 1 }
        }
        return (sum / Double(max(ours.values.count, 1)), either == 0 ? 1 : Double(both) / Double(either))
    }
}
