/// A synthetic test picture as the goldens describe it (the `recipe` of an entry of `images` in
/// Tests/Goldens/mediapipe/detections.json and face_mesh.json): exact integer operations on the sample pictures,
/// rebuilt byte for byte as Tests/Goldens/recipes.py builds them. Decode with `convertFromSnakeCase`.
///
/// Operations (`op`): `file` (a sample as RGB), `place` (`src` at `at` on a `canvas` filled with `fill`),
/// `hconcat` (`parts`, each optionally cut to columns `cropX`), `crop` (`cropX`, `cropY`), `down2` (2x2 box
/// average), `mirror`, `rot90` (`k` quarter turns counterclockwise), `rotate` (by the rational angle
/// `cos`/`den`, `sin`/`den` onto a `canvas`; see `RGBImage.rotated`), `compose` (`items` placed on a `canvas`).
/// Ranges are half-open `[start, end)` pairs.
public struct PictureRecipe: Decodable, Sendable {
    /// A part of `hconcat`, or an item of `compose`: `src` cut to `cropX` x `cropY` (whole if absent), then
    /// enlarged by `up` (pixel repetition), then reduced by `down` (box average), then placed at `at` (compose).
    public struct Part: Decodable, Sendable {
        public var src: String
        public var cropX: [Int]?
        public var cropY: [Int]?
        public var up: Int?
        public var down: Int?
        public var at: [Int]?
    }

    /// A recipe that cannot be built: a missing or malformed field, an unknown operation, a part off the canvas.
    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    public var op: String
    public var file: String?
    public var src: String?
    public var canvas: [Int]?
    public var fill: Int?
    public var at: [Int]?
    public var parts: [Part]?
    public var items: [Part]?
    public var cropX: [Int]?
    public var cropY: [Int]?
    public var k: Int?
    public var cos: Int?
    public var sin: Int?
    public var den: Int?
    /// Free text of the generator (the formula spelled out); not used to build.
    public var note: String?

    /// The picture. Throws `Invalid` for a malformed recipe and `TestResources.Missing` when a sample
    /// picture is not fetched.
    public func build() throws -> RGBImage {
        switch op {
        case "file":
            return try Samples.rgb(try required(file, "file"))
        case "place":
            let (width, height) = try size(canvas)
            let (x, y) = try pair(at, "at")
            var out = RGBImage(width: width, height: height, fill: try byte(fill))
            try placeChecked(&out, try source(), x: x, y: y)
            return out
        case "hconcat":
            let pictures = try required(parts, "parts").map { part in
                let image = try Samples.rgb(part.src)
                return image.cropped(x: try range(part.cropX, in: image.width))
            }
            guard let first = pictures.first, pictures.allSatisfy({ $0.height == first.height }) else {
                throw Invalid(description: "recipe hconcat: no parts, or parts of different heights")
            }
            return RGBImage.hconcat(pictures)
        case "crop":
            let image = try source()
            return image.cropped(x: try range(cropX, in: image.width), y: try range(cropY, in: image.height))
        case "down2":
            let image = try source()
            guard image.width % 2 == 0, image.height % 2 == 0 else { throw Invalid(description: "down2 of an odd size") }
            return image.downscaled2()
        case "mirror":
            return try source().mirrored()
        case "rot90":
            return try source().rotated90(try required(k, "k"))
        case "rotate":
            let (width, height) = try size(canvas)
            let c = try required(cos, "cos"), s = try required(sin, "sin"), q = try required(den, "den")
            guard q > 0, c * c + s * s == q * q else { throw Invalid(description: "rotate: cos² + sin² ≠ den²") }
            return try source().rotated(cos: c, sin: s, den: q, canvasWidth: width, canvasHeight: height, fill: try byte(fill))
        case "compose":
            let (width, height) = try size(canvas)
            var out = RGBImage(width: width, height: height, fill: try byte(fill))
            for item in try required(items, "items") {
                var image = try Samples.rgb(item.src)
                image = image.cropped(x: try range(item.cropX, in: image.width), y: try range(item.cropY, in: image.height))
                if let up = item.up {
                    guard up >= 1 else { throw Invalid(description: "compose: up \(up)") }
                    image = image.upscaled(up)
                }
                if let down = item.down {
                    guard down >= 1 else { throw Invalid(description: "compose: down \(down)") }
                    image = image.boxDownscaled(down)
                }
                let (x, y) = try pair(item.at, "at")
                try placeChecked(&out, image, x: x, y: y)
            }
            return out
        default:
            throw Invalid(description: "unknown recipe op \(op)")
        }
    }

    // MARK: Field checks

    private func required<T>(_ value: T?, _ name: String) throws -> T {
        guard let value else { throw Invalid(description: "recipe \(op): \(name) is missing") }
        return value
    }

    private func source() throws -> RGBImage { try Samples.rgb(try required(src, "src")) }

    private func pair(_ values: [Int]?, _ name: String) throws -> (Int, Int) {
        let values = try required(values, name)
        guard values.count == 2 else { throw Invalid(description: "recipe \(op): \(name) must hold two integers") }
        return (values[0], values[1])
    }

    /// A canvas size: two positive integers.
    private func size(_ values: [Int]?) throws -> (Int, Int) {
        let (width, height) = try pair(values, "canvas")
        guard width > 0, height > 0 else { throw Invalid(description: "recipe \(op): canvas \(width)x\(height)") }
        return (width, height)
    }

    private func byte(_ value: Int?) throws -> UInt8 {
        guard let byte = UInt8(exactly: try required(value, "fill")) else {
            throw Invalid(description: "recipe \(op): fill must be 0...255")
        }
        return byte
    }

    /// `[start, end)` within `0...limit`; the whole `0..<limit` when absent.
    private func range(_ values: [Int]?, in limit: Int) throws -> Range<Int> {
        guard let values else { return 0..<limit }
        guard values.count == 2, 0 <= values[0], values[0] <= values[1], values[1] <= limit else {
            throw Invalid(description: "recipe \(op): range \(values) is not within 0...\(limit)")
        }
        return values[0]..<values[1]
    }

    private func placeChecked(_ canvas: inout RGBImage, _ image: RGBImage, x: Int, y: Int) throws {
        guard x >= 0, y >= 0, x + image.width <= canvas.width, y + image.height <= canvas.height else {
            throw Invalid(description: "recipe \(op): a \(image.width)x\(image.height) picture at (\(x), \(y)) "
                + "does not fit the \(canvas.width)x\(canvas.height) canvas")
        }
        canvas.place(image, x: x, y: y)
    }
}

/// An entry of a goldens file's `images`: a picture's size, recipe and the sha256 of its RGB bytes.
public struct GoldenPicture: Decodable, Sendable {
    public var width: Int
    public var height: Int
    public var recipe: PictureRecipe
    public var rgbSha256: String

    /// The picture rebuilt from its recipe; throws `PictureRecipe.Invalid` when its size is not the recorded one.
    public func build(name: String) throws -> RGBImage {
        let image = try recipe.build()
        guard image.width == width, image.height == height else {
            throw PictureRecipe.Invalid(description: "\(name): built \(image.width)x\(image.height), expected \(width)x\(height)")
        }
        return image
    }
}
