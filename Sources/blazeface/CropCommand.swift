import ArgumentParser
import BlazeImageIO
import Foundation

/// `blazeface crop`: what a model sees of a region of an image (BlazeImaging's `ImageToTensor`).
struct CropCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crop",
        abstract: "Sample a (rotated) region of an image into a tensor-sized picture, as a model's input sees it.",
        discussion: """
            Writes NAME-tensor.png (the tensor as 8-bit RGB, before the range conversion) and NAME-region.png \
            (the upright image with the sampled region outlined; its first edge, the tensor's top, in red) \
            into --out. Coordinates are pixels of the upright image (after EXIF orientation), origin top-left; \
            the rotation is in degrees, clockwise on screen. Without --center and --size the whole image is used.
            """)

    @Argument(help: "An image file (\(ImageFileFormat.listedNames)).")
    var image: String

    @Option(help: ArgumentHelp("Region centre in upright pixels.", valueName: "x,y"))
    var center: String?

    @Option(help: ArgumentHelp("Region size in upright pixels (one number for a square).", valueName: "w[xh]"))
    var size: String?

    @Option(help: ArgumentHelp("Region rotation in degrees, clockwise on screen.", valueName: "degrees"))
    var rotation: Double = 0

    @Option(help: ArgumentHelp("Tensor size.", valueName: "WxH"))
    var tensor: String = "192x192"

    @Option(help: "letterbox (keep proportions, pad) or stretch.")
    var fit: ImageToTensor.Fit = .letterbox

    @Option(help: "zero (black outside the image) or replicate (the nearest edge pixel).")
    var border: ImageToTensor.Border = .replicate

    @Option(help: "warp (OpenCV's warpPerspective, any rotation) or detector (unturned regions only).")
    var sampling: ImageToTensor.Sampling = .warp

    @Option(help: "Folder to write the two PNG files into (created if needed).")
    var out: String = "out"

    func validate() throws {
        guard Self.pair(tensor, separator: "x").map({ $0.0 >= 1 && $0.1 >= 1 && $0.0 <= 4096 && $0.1 <= 4096 }) == true else {
            throw ValidationError("--tensor must look like 192x192 (sides 1...4096)")
        }
        guard (center == nil) == (size == nil) else { throw ValidationError("--center and --size go together") }
        if let center, Self.pair(center, separator: ",") == nil { throw ValidationError("--center must look like 120.5,80") }
        if let size {
            guard let s = Self.pair(size, separator: "x") ?? Double(size).map({ ($0, $0) }), s.0 > 0, s.1 > 0 else {
                throw ValidationError("--size must look like 100 or 100x80, positive")
            }
        }
        guard rotation.isFinite else { throw ValidationError("--rotation must be a finite number") }
    }

    static func pair(_ text: String, separator: Character) -> (Double, Double)? {
        let parts = text.lowercased().split(separator: separator)
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a.isFinite, b.isFinite else { return nil }
        return (a, b)
    }

    func run() throws {
        try reportingFailures {
            let decoded = try ImageDecoder.decode(contentsOf: image)
            let (w, h) = Self.pair(tensor, separator: "x")!
            let converter = try ImageToTensor(options: .init(width: Int(w), height: Int(h), range: 0...255, fit: fit,
                                                             border: border, sampling: sampling))
            var region: RotatedRect?
            if let center, let size {
                let c = Self.pair(center, separator: ",")!, s = Self.pair(size, separator: "x") ?? (Double(size)!, Double(size)!)
                region = RotatedRect(center: Point(x: c.0, y: c.1), width: s.0, height: s.1, rotation: rotation * .pi / 180)
            }
            var values = [Float](repeating: 0, count: converter.floatCount)
            let footprint = try decoded.withView { view in
                try values.withUnsafeMutableBufferPointer { try converter.convert(view, region: region, into: $0) }
            }
            let tensorImage = ImageBuffer(width: Int(w), height: Int(h), pixelFormat: .rgb8,
                                          pixels: values.map { UInt8(max(0, min(255, $0.rounded()))) })
            var annotator = try Annotator(image: decoded.uprightRGB())
            annotator.draw(footprint)
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let name = ((image as NSString).lastPathComponent as NSString).deletingPathExtension
            let tensorPath = (out as NSString).appendingPathComponent(name + "-tensor.png")
            let regionPath = (out as NSString).appendingPathComponent(name + "-region.png")
            try PNGEncoder.write(tensorImage, to: tensorPath)
            try PNGEncoder.write(annotator.image, to: regionPath)
            print("\(tensorPath)  \(Int(w))x\(Int(h)) tensor of \(footprint)")
            print(regionPath)
        }
    }
}

extension ImageToTensor.Fit: ExpressibleByArgument {}
extension ImageToTensor.Border: ExpressibleByArgument {}
extension ImageToTensor.Sampling: ExpressibleByArgument {}
