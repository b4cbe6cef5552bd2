import BlazeImageIO
import BlazeImaging
import Foundation

/// The sample pictures of Models/samples/ (fetched by Models/fetch.sh), decoded once per process.
public enum Samples {
    private static let decoded = Cache<String, DecodedImage>()

    /// A picture of Models/samples, decoded; throws `TestResources.Missing` telling to run Models/fetch.sh
    /// when it is missing.
    public static func decode(_ file: String) throws -> DecodedImage {
        try decoded.value(file) {
            let path = TestResources.modelsDirectory.appendingPathComponent("samples/\(file)").path
            guard FileManager.default.fileExists(atPath: path) else {
                throw TestResources.Missing(description: "Models/samples/\(file) is missing: run Models/fetch.sh")
            }
            return try ImageDecoder.decode(contentsOf: path)
        }
    }

    /// A sample picture as RGB (gray replicated, alpha dropped), as PIL's `convert("RGB")`.
    public static func rgb(_ file: String) throws -> RGBImage {
        let image = try decode(file).uprightRGB()
        return RGBImage(width: image.width, height: image.height, pixels: image.pixels)
    }

    /// NASA's portrait of Eileen Collins (512x512), the pictures' usual subject.
    public static func astronaut() throws -> RGBImage { try rgb("astronaut.png") }
}
