import BlazeFace
import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

// Shared helpers of the BlazeFace tests: sample pictures, the MediaPipe picture recipes, shared detectors,
// pixel-format packing, orientation transforms and face comparison.

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Caches

/// A lock-protected memo table (tests run in parallel). Each key is computed once; callers asking for a
/// key being computed wait for it, callers of other keys do not.
final class Cache<Key: Hashable, Value>: @unchecked Sendable {
    private final class Slot {
        let lock = NSLock()
        var result: Result<Value, any Error>?
    }
    private let lock = NSLock()
    private var slots: [Key: Slot] = [:]

    func value(_ key: Key, _ make: () throws -> Value) throws -> Value {
        lock.lock()
        let slot: Slot
        if let existing = slots[key] {
            slot = existing
        } else {
            slot = Slot()
            slots[key] = slot
        }
        lock.unlock()
        slot.lock.lock()
        defer { slot.lock.unlock() }
        if let result = slot.result { return try result.get() }
        let result = Result { try make() }
        slot.result = result
        return try result.get()
    }
}

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

// MARK: - RGB pictures

/// An 8-bit RGB picture, rows tightly packed, top row first.
struct RGBImage: Hashable, Sendable {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    init(width: Int, height: Int, fill: UInt8) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: fill, count: width * height * 3))
    }

    /// Offset of pixel (x, y)'s red byte.
    func offset(_ x: Int, _ y: Int) -> Int { (y * width + x) * 3 }

    /// Copies `source` with its top-left corner at (x, y); it must fit.
    mutating func place(_ source: RGBImage, x: Int, y: Int) {
        precondition(x >= 0 && y >= 0 && x + source.width <= width && y + source.height <= height)
        for row in 0..<source.height {
            let from = source.offset(0, row), to = offset(x, y + row)
            pixels.replaceSubrange(to..<to + source.width * 3, with: source.pixels[from..<from + source.width * 3])
        }
    }

    /// Columns `x0..<x1` and rows `y0..<y1`.
    func cropped(x: Range<Int>, y: Range<Int>? = nil) -> RGBImage {
        let rows = y ?? 0..<height
        precondition(x.lowerBound >= 0 && x.upperBound <= width && rows.lowerBound >= 0 && rows.upperBound <= height)
        var out = [UInt8]()
        out.reserveCapacity(x.count * rows.count * 3)
        for row in rows { out += pixels[offset(x.lowerBound, row)..<offset(x.upperBound, row)] }
        return RGBImage(width: x.count, height: rows.count, pixels: out)
    }

    /// The pictures side by side (equal heights).
    static func hconcat(_ parts: [RGBImage]) -> RGBImage {
        let height = parts[0].height
        precondition(parts.allSatisfy { $0.height == height })
        var out = RGBImage(width: parts.map(\.width).reduce(0, +), height: height, fill: 0)
        var x = 0
        for part in parts {
            out.place(part, x: x, y: 0)
            x += part.width
        }
        return out
    }

    /// The 2x2 box average `(a + b + c + d + 2) / 4` in integers.
    func downscaled2() -> RGBImage {
        precondition(width % 2 == 0 && height % 2 == 0)
        var out = RGBImage(width: width / 2, height: height / 2, fill: 0)
        for y in 0..<out.height {
            for x in 0..<out.width {
                for c in 0..<3 {
                    let a = Int(pixels[offset(2 * x, 2 * y) + c]), b = Int(pixels[offset(2 * x + 1, 2 * y) + c])
                    let d = Int(pixels[offset(2 * x, 2 * y + 1) + c]), e = Int(pixels[offset(2 * x + 1, 2 * y + 1) + c])
                    out.pixels[out.offset(x, y) + c] = UInt8((a + b + d + e + 2) / 4)
                }
            }
        }
        return out
    }

    /// Each pixel repeated `factor` x `factor` times.
    func upscaled(_ factor: Int) -> RGBImage {
        var out = RGBImage(width: width * factor, height: height * factor, fill: 0)
        for y in 0..<out.height {
            for x in 0..<out.width {
                let from = offset(x / factor, y / factor), to = out.offset(x, y)
                out.pixels[to] = pixels[from]
                out.pixels[to + 1] = pixels[from + 1]
                out.pixels[to + 2] = pixels[from + 2]
            }
        }
        return out
    }

    /// Integer luma `(299 R + 587 G + 114 B + 500) / 1000`, one byte per pixel.
    func grayBytes() -> [UInt8] {
        (0..<width * height).map { i in
            let r = Int(pixels[3 * i]), g = Int(pixels[3 * i + 1]), b = Int(pixels[3 * i + 2])
            return UInt8((299 * r + 587 * g + 114 * b + 500) / 1000)
        }
    }

    /// A gray picture as RGB with R = G = B.
    static func replicating(gray: [UInt8], width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: gray.count * 3)
        for i in gray.indices {
            pixels[3 * i] = gray[i]
            pixels[3 * i + 1] = gray[i]
            pixels[3 * i + 2] = gray[i]
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}

// MARK: - Sample pictures and recipes

enum Samples {
    private static let decoded = Cache<String, DecodedImage>()
    private static let recipes = Cache<String, RGBImage>()

    /// A picture of Models/samples, decoded; throws telling to run Models/fetch.sh when it is missing.
    static func decode(_ file: String) throws -> DecodedImage {
        try decoded.value(file) {
            let path = TestResources.modelsDirectory.appendingPathComponent("samples/\(file)").path
            guard FileManager.default.fileExists(atPath: path) else {
                throw TestFailure("Models/samples/\(file) is missing: run Models/fetch.sh")
            }
            return try ImageDecoder.decode(contentsOf: path)
        }
    }

    /// A sample picture as RGB (gray replicated, alpha dropped), as PIL's `convert("RGB")`.
    static func rgb(_ file: String) throws -> RGBImage {
        let image = try decode(file).uprightRGB()
        return RGBImage(width: image.width, height: image.height, pixels: image.pixels)
    }

    static func astronaut() throws -> RGBImage { try rgb("astronaut.png") }

    /// A picture of Tests/Goldens/mediapipe/detections.json, rebuilt from its recipe.
    static func picture(_ name: String) throws -> RGBImage {
        try recipes.value(name) {
            let spec = try #require(try MediaPipeGoldens.load().images[name], "no picture \(name) in detections.json")
            let image = try spec.recipe.build()
            guard image.width == spec.width, image.height == spec.height else {
                throw TestFailure("\(name): built \(image.width)x\(image.height), expected \(spec.width)x\(spec.height)")
            }
            return image
        }
    }
}

/// Tests/Goldens/mediapipe/detections.json: MediaPipe Tasks 1.2.2's detections.
struct MediaPipeGoldens: Decodable, Sendable {
    struct Picture: Decodable, Sendable {
        var width: Int
        var height: Int
        var recipe: Recipe
        var rgbSha256: String
    }

    struct Recipe: Decodable, Sendable {
        struct Part: Decodable, Sendable {
            var src: String
            var cropX: [Int]?
        }
        var op: String
        var file: String?
        var src: String?
        var canvas: [Int]?
        var fill: Int?
        var at: [Int]?
        var parts: [Part]?
        var cropX: [Int]?
        var cropY: [Int]?

        /// The picture, built exactly as Tests/Goldens/mediapipe_parity.py builds it.
        func build() throws -> RGBImage {
            func range(_ pair: [Int]?) throws -> Range<Int> {
                guard let pair, pair.count == 2 else { throw TestFailure("recipe \(op): a range is missing") }
                return pair[0]..<pair[1]
            }
            func source() throws -> RGBImage {
                guard let src else { throw TestFailure("recipe \(op) has no src") }
                return try Samples.rgb(src)
            }
            switch op {
            case "file":
                guard let file else { throw TestFailure("recipe file has no file") }
                return try Samples.rgb(file)
            case "place":
                guard let canvas, canvas.count == 2, let fill, let at, at.count == 2 else {
                    throw TestFailure("recipe place: canvas, fill or at missing")
                }
                var out = RGBImage(width: canvas[0], height: canvas[1], fill: UInt8(fill))
                out.place(try source(), x: at[0], y: at[1])
                return out
            case "hconcat":
                guard let parts else { throw TestFailure("recipe hconcat has no parts") }
                return RGBImage.hconcat(try parts.map { part in
                    let image = try Samples.rgb(part.src)
                    return image.cropped(x: try part.cropX.map { try range($0) } ?? 0..<image.width)
                })
            case "crop":
                return try source().cropped(x: try range(cropX), y: try range(cropY))
            case "down2":
                return try source().downscaled2()
            default:
                throw TestFailure("unknown recipe op \(op)")
            }
        }
    }

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

    var images: [String: Picture]
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

// MARK: - SHA-256 (to check the rebuilt pictures against detections.json's rgb_sha256)

enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    static func hex(_ message: [UInt8]) -> String {
        var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var data = message
        let bitLength = UInt64(message.count) * 8
        data.append(0x80)
        while data.count % 64 != 56 { data.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        var w = [UInt32](repeating: 0, count: 64)
        for chunk in stride(from: 0, to: data.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + 4 * i
                w[i] = UInt32(data[j]) << 24 | UInt32(data[j + 1]) << 16 | UInt32(data[j + 2]) << 8 | UInt32(data[j + 3])
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let ch = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let maj = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ maj
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d
            h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
        }
        return h.map { String(format: "%08x", $0) }.joined()
    }
}
