import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// `blazeface detect` on pictures that are not JPEG or PNG: the PPM portrait, found in a folder walk by
/// extension, recognised by content, with the same faces as the PNG it was made from.
@Suite struct FormatFilesTests {
    /// The astronaut sample as binary PPM (P6) and as a 24-bit bottom-up BMP: both layouts are simple enough to
    /// write here, so the test needs no encoder library.
    static func writeCopies(of image: DecodedImage, into folder: String) throws {
        let rgb = try image.uprightRGB()
        let width = rgb.width, height = rgb.height
        let ppm = Array("P6\n# the astronaut sample\n\(width) \(height)\n255\n".utf8) + rgb.pixels
        try Data(ppm).write(to: URL(fileURLWithPath: folder + "/astronaut.ppm"))

        let rowBytes = (width * 3 + 3) / 4 * 4
        var bmp = [UInt8]()
        func le32(_ value: Int) { for shift in stride(from: 0, to: 32, by: 8) { bmp.append(UInt8(truncatingIfNeeded: value >> shift)) } }
        func le16(_ value: Int) { bmp += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        bmp += Array("BM".utf8); le32(54 + rowBytes * height); le32(0); le32(54)
        le32(40); le32(width); le32(height); le16(1); le16(24); le32(0); le32(rowBytes * height); le32(2835); le32(2835)
        le32(0); le32(0)
        for y in (0..<height).reversed() {
            for x in 0..<width {
                let at = (y * width + x) * 3
                bmp += [rgb.pixels[at + 2], rgb.pixels[at + 1], rgb.pixels[at]]
            }
            bmp += Array(repeating: 0, count: rowBytes - width * 3)
        }
        try Data(bmp).write(to: URL(fileURLWithPath: folder + "/nested/ASTRONAUT.BMP"))
    }

    static func boxes(_ image: [String: Any]) throws -> [[Double]] {
        let faces = try #require(image["faces"] as? [[String: Any]], "\(image)")
        return try faces.map { face in
            let box = try #require(face["box"] as? [String: Double])
            return [box["x"] ?? .nan, box["y"] ?? .nan, box["width"] ?? .nan, box["height"] ?? .nan]
        }
    }

    static func iou(_ a: [Double], _ b: [Double]) -> Double {
        let width = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
        let height = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
        let overlap = width * height
        return overlap / (a[2] * a[3] + b[2] * b[3] - overlap)
    }

    @Test("a folder's PPM and BMP copies of a PNG are found and give its faces")
    func sameFacesAsThePNG() async throws {
        let png = try DetectTests.sample("astronaut.png")
        let scratch = try TemporaryDirectory()
        let folder = scratch.path("in")
        try FileManager.default.createDirectory(atPath: folder + "/nested", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: png, toPath: folder + "/astronaut.png")
        try Self.writeCopies(of: try ImageDecoder.decode(contentsOf: png), into: folder)
        let result = try await CommandLineTool.run(
            ["detect", folder, "--json", "--models-dir", DetectTests.models, "--model", "full-range"])
        #expect(result.status == 0, "\(result)")
        let images = try DetectTests.images(result.standardOutput)
        let paths = images.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }
        #expect(paths == ["astronaut.png", "astronaut.ppm", "ASTRONAUT.BMP"], "\(paths)")
        guard images.count == 3 else { return }
        let reference = try Self.boxes(images[0])
        #expect(reference.count == 1)
        for image in images.dropFirst() {
            let found = try Self.boxes(image)
            #expect(found.count == reference.count, "\(image)")
            for (a, b) in zip(found, reference) { #expect(Self.iou(a, b) >= 0.97, "\(a) against \(b)") }
        }
    }
}
