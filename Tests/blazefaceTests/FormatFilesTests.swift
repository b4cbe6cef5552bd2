import BlazeImageIO
import BlazeTestSupport
import CLibTIFF
import CLibWebP
import Foundation
import Testing

/// `blazeface detect` on pictures that are not JPEG or PNG: the PPM portrait (and BMP, WebP, TIFF copies),
/// found in a folder walk by extension, recognised by content, with the same faces as the PNG they were made from.
@Suite struct FormatFilesTests {
    /// The astronaut sample as lossy WebP (libwebp's encoder, quality 90) and as a deflate-compressed TIFF
    /// (libtiff), with the libraries' own encoders.
    static func writeLibraryCopies(of image: DecodedImage, into folder: String) throws {
        let rgb = try image.uprightRGB()
        let width = rgb.width, height = rgb.height
        var output: UnsafeMutablePointer<UInt8>? = nil
        let size = rgb.pixels.withUnsafeBufferPointer {
            WebPEncodeRGB($0.baseAddress, Int32(width), Int32(height), Int32(width * 3), 90, &output)
        }
        defer { WebPFree(output) }
        let encoded = try #require(output.map { Data(bytes: $0, count: size) }, "libwebp could not encode")
        try encoded.write(to: URL(fileURLWithPath: folder + "/astronaut.webp"))

        let tiff = try #require(TIFFOpen(folder + "/nested/astronaut.tiff", "w"))
        defer { TIFFClose(tiff) }
        func set(_ tag: Int32, _ value: UInt32) -> Bool { withVaList([value]) { TIFFVSetField(tiff, UInt32(tag), $0) } == 1 }
        #expect(set(TIFFTAG_IMAGEWIDTH, UInt32(width)) && set(TIFFTAG_IMAGELENGTH, UInt32(height)))
        #expect(set(TIFFTAG_BITSPERSAMPLE, 8) && set(TIFFTAG_SAMPLESPERPIXEL, 3) && set(TIFFTAG_ROWSPERSTRIP, 16))
        #expect(set(TIFFTAG_PHOTOMETRIC, UInt32(PHOTOMETRIC_RGB)) && set(TIFFTAG_PLANARCONFIG, UInt32(PLANARCONFIG_CONTIG)))
        #expect(set(TIFFTAG_COMPRESSION, UInt32(COMPRESSION_ADOBE_DEFLATE)))
        var row = [UInt8](repeating: 0, count: width * 3)
        for y in 0..<height {
            row.replaceSubrange(0..., with: rgb.pixels[(y * width * 3)..<((y + 1) * width * 3)])
            #expect(TIFFWriteScanline(tiff, &row, UInt32(y), 0) == 1)
        }
    }

    /// The astronaut sample as binary PPM (P6) and as a 24-bit bottom-up BMP: both layouts are simple enough to
    /// write here.
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

    @Test("a folder's PPM, BMP, WebP and TIFF copies of a PNG are found and give its faces (IoU >= 0.97)")
    func sameFacesAsThePNG() async throws {
        let png = try DetectTests.sample("astronaut.png")
        let scratch = try TemporaryDirectory()
        let folder = scratch.path("in")
        try FileManager.default.createDirectory(atPath: folder + "/nested", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: png, toPath: folder + "/astronaut.png")
        let decoded = try ImageDecoder.decode(contentsOf: png)
        try Self.writeCopies(of: decoded, into: folder)
        try Self.writeLibraryCopies(of: decoded, into: folder)
        let result = try await CommandLineTool.run(
            ["detect", folder, "--json", "--models-dir", DetectTests.models, "--model", "full-range"])
        #expect(result.status == 0, "\(result)")
        let images = try DetectTests.images(result.standardOutput)
        let paths = images.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }
        #expect(paths == ["astronaut.png", "astronaut.ppm", "astronaut.webp", "ASTRONAUT.BMP", "astronaut.tiff"],
                "\(paths)")
        guard images.count == 5 else { return }
        let reference = try Self.boxes(images[0])
        #expect(reference.count == 1)
        for image in images.dropFirst() {
            let found = try Self.boxes(image)
            #expect(found.count == reference.count, "\(image)")
            for (a, b) in zip(found, reference) { #expect(Self.iou(a, b) >= 0.97, "\(a) against \(b)") }
        }
    }
}
