import BlazeFace
import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

// Shared helpers of the BlazeFace tests: the MediaPipe detector goldens, shared detectors, pixel-format packing,
// orientation transforms and face comparison (pictures, recipes and caches are in BlazeTestSupport).

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Caches

/// A lock-protected list, for results gathered on several threads.
final class Collector<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.lock()
        storage.append(element)
        lock.unlock()
    }

    /// Appends and returns all the elements so far, atomically.
    func appending(_ element: Element) -> [Element] {
        lock.lock()
        defer { lock.unlock() }
        storage.append(element)
        return storage
    }

    var elements: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

// MARK: - Detectors

enum Detectors {
    private static let cache = Cache<Key, FaceDetector>()
    private struct Key: Hashable {
        var model: FaceDetector.Model
        var options: FaceDetector.Options
    }

    /// MediaPipe Tasks' FaceDetector settings: minimum score 0.5, NMS IoU 0.5, weighted NMS.
    static let mediaPipeOptions = FaceDetector.Options(minimumScore: 0.5, iouThreshold: 0.5)

    /// A detector shared between tests (calls are serialized by the detector's lock).
    static func shared(_ model: FaceDetector.Model, options: FaceDetector.Options = mediaPipeOptions) throws -> FaceDetector {
        try cache.value(Key(model: model, options: options)) { try fresh(model, options: options) }
    }

    /// A new detector of its own.
    static func fresh(_ model: FaceDetector.Model, options: FaceDetector.Options = mediaPipeOptions) throws -> FaceDetector {
        try FaceDetector(model: model, modelsDirectory: TestResources.modelsDirectory.path, options: options)
    }
}

/// Faces of a recipe picture given as plain rgb8 to the shared detector with MediaPipe's settings, computed
/// once per (model, picture) and shared by the tests.
enum ReferenceFaces {
    private struct Key: Hashable {
        var model: FaceDetector.Model
        var picture: String
    }
    private static let cache = Cache<Key, [Face]>()

    static func faces(_ model: FaceDetector.Model, _ picture: String) throws -> [Face] {
        try cache.value(Key(model: model, picture: picture)) {
            try Samples.picture(picture).detect(with: try Detectors.shared(model))
        }
    }
}

// MARK: - Sample pictures and recipes

// RGBImage, Samples, PictureRecipe and SHA256 are in BlazeTestSupport.

extension Samples {
    private static let recipes = Cache<String, RGBImage>()

    /// A picture of Tests/Goldens/mediapipe/detections.json, rebuilt from its recipe.
    static func picture(_ name: String) throws -> RGBImage {
        try recipes.value(name) {
            let spec = try #require(try MediaPipeGoldens.load().images[name], "no picture \(name) in detections.json")
            return try spec.build(name: name)
        }
    }
}

/// Tests/Goldens/mediapipe/detections.json: MediaPipe Tasks 1.2.2's detections.
struct MediaPipeGoldens: Decodable, Sendable {
    struct Detection: Decodable, Sendable {
        struct PixelBox: Decodable, Sendable {
            var originX: Int
            var originY: Int
            var width: Int
            var height: Int
            var rect: Rect { Rect(x: Double(originX), y: Double(originY), width: Double(width), height: Double(height)) }
        }
        struct Keypoint: Decodable, Sendable {
            var name: String
            var x: Double
            var y: Double
            var xPx: Double
            var yPx: Double
        }
        var score: Double
        var boundingBox: PixelBox
        var keypoints: [Keypoint]
    }

    var images: [String: GoldenPicture]
    /// Model key ("short_range", "full_range") → picture name → detections, by score.
    var results: [String: [String: [Detection]]]

    private static let cache = Cache<Int, MediaPipeGoldens>()

    static func load() throws -> MediaPipeGoldens {
        try cache.value(0) {
            let url = TestResources.goldensDirectory.appendingPathComponent("mediapipe/detections.json")
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(MediaPipeGoldens.self, from: Data(contentsOf: url))
        }
    }
}

// MARK: - Pixel formats


/// Pixels of one format with their row length.
struct PackedImage: Sendable {
    var width: Int
    var height: Int
    var bytesPerRow: Int
    var format: PixelFormat
    var orientation: ImageOrientation = .up
    var bytes: [UInt8]

    func withView<R>(_ body: (ImageView) throws -> R) throws -> R {
        try ImageView.withPixels(bytes, width: width, height: height, bytesPerRow: bytesPerRow, pixelFormat: format,
                                 orientation: orientation, body)
    }

    func detect(with detector: FaceDetector) throws -> [Face] {
        try withView { try detector.detect($0) }
    }
}

extension RGBImage {
    /// The picture in `format` (not `.gray8`), with `alpha` where the format has one and `padding` extra
    /// bytes of noise at the end of each row.
    func packed(_ format: PixelFormat, padding: Int = 0, randomAlpha: Bool = false, seed: UInt64 = 1) -> PackedImage {
        var random = SplitMix64(seed: seed)
        let bpp = format.bytesPerPixel
        let rowBytes = width * bpp + padding
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            for x in 0..<width {
                let s = offset(x, y), d = y * rowBytes + x * bpp
                let r = pixels[s], g = pixels[s + 1], b = pixels[s + 2]
                let a: UInt8 = randomAlpha ? UInt8.random(in: 0...255, using: &random) : 255
                switch format {
                case .rgb8: bytes[d] = r; bytes[d + 1] = g; bytes[d + 2] = b
                case .rgba8: bytes[d] = r; bytes[d + 1] = g; bytes[d + 2] = b; bytes[d + 3] = a
                case .bgra8: bytes[d] = b; bytes[d + 1] = g; bytes[d + 2] = r; bytes[d + 3] = a
                case .argb8: bytes[d] = a; bytes[d + 1] = r; bytes[d + 2] = g; bytes[d + 3] = b
                case .gray8: preconditionFailure("use grayBytes()")
                case .nv12, .nv21, .i420: preconditionFailure("use yuv420(_:)")
                }
            }
            for p in 0..<padding { bytes[y * rowBytes + width * bpp + p] = UInt8.random(in: 0...255, using: &random) }
        }
        return PackedImage(width: width, height: height, bytesPerRow: rowBytes, format: format, bytes: bytes)
    }

    /// The plain rgb8 view of the picture.
    var rgb8: PackedImage { PackedImage(width: width, height: height, bytesPerRow: width * 3, format: .rgb8, bytes: pixels) }

    func detect(with detector: FaceDetector) throws -> [Face] { try rgb8.detect(with: detector) }
}

// MARK: - Orientation

extension RGBImage {
    /// The pixels an EXIF `orientation` would store for this upright picture: the stored picture that,
    /// shown with `orientation`, gives back `self`. Written from the EXIF definition of each value (where
    /// the stored 0th row and 0th column lie in the displayed picture), independently of `ImageOrientation`.
    func stored(for orientation: ImageOrientation) -> RGBImage {
        let W = width, H = height
        let storedW = orientation.exifValue >= 5 ? H : W, storedH = orientation.exifValue >= 5 ? W : H
        var out = RGBImage(width: storedW, height: storedH, fill: 0)
        for y in 0..<storedH {
            for x in 0..<storedW {
                // The displayed pixel (u, v) that stored pixel (x, y) shows.
                let (u, v): (Int, Int)
                switch orientation.exifValue {
                case 1: (u, v) = (x, y)                   // row 0 top, column 0 left
                case 2: (u, v) = (W - 1 - x, y)           // row 0 top, column 0 right
                case 3: (u, v) = (W - 1 - x, H - 1 - y)   // row 0 bottom, column 0 right
                case 4: (u, v) = (x, H - 1 - y)           // row 0 bottom, column 0 left
                case 5: (u, v) = (y, x)                   // row 0 left side, column 0 top
                case 6: (u, v) = (W - 1 - y, x)           // row 0 right side, column 0 top
                case 7: (u, v) = (W - 1 - y, H - 1 - x)   // row 0 right side, column 0 bottom
                default: (u, v) = (y, H - 1 - x)          // 8: row 0 left side, column 0 bottom
                }
                let s = offset(u, v), d = out.offset(x, y)
                out.pixels[d] = pixels[s]
                out.pixels[d + 1] = pixels[s + 1]
                out.pixels[d + 2] = pixels[s + 2]
            }
        }
        return out
    }
}

// MARK: - Comparing faces

extension Point {
    func distance(to other: Point) -> Double { ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot() }
}

/// The largest distance between corresponding keypoints.
func keypointDistance(_ a: Face, _ b: Face) -> Double {
    FaceKeypoints.Kind.allCases.map { a.keypoints[$0].distance(to: b.keypoints[$0]) }.max() ?? 0
}

/// How far two face lists are apart: worst IoU, keypoint distance and score difference of faces paired by
/// best IoU (nil when the counts differ).
struct FaceListDifference {
    var worstIoU = 1.0
    var worstKeypoint = 0.0
    var worstScore: Float = 0

    init?(_ faces: [Face], _ reference: [Face]) {
        guard faces.count == reference.count else { return nil }
        var used = Set<Int>()
        for face in reference {
            guard let best = faces.indices.filter({ !used.contains($0) })
                .max(by: { faces[$0].boundingBox.iou(face.boundingBox) < faces[$1].boundingBox.iou(face.boundingBox) })
            else { return nil }
            used.insert(best)
            worstIoU = min(worstIoU, faces[best].boundingBox.iou(face.boundingBox))
            worstKeypoint = max(worstKeypoint, keypointDistance(faces[best], face))
            worstScore = max(worstScore, abs(faces[best].score - face.score))
        }
    }
}

func describe(_ faces: [Face]) -> String {
    faces.map { "\($0.score) \($0.boundingBox)" }.joined(separator: "; ")
}

func format(_ value: Double, _ digits: Int = 4) -> String { String(format: "%.\(digits)f", value) }
func formatExp(_ value: Double) -> String { String(format: "%.1e", value) }
