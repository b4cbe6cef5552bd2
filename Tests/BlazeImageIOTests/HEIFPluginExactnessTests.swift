#if canImport(CLibHeif)
import BlazeImageIO
import CLibHeif
import Testing

/// With libheif before 1.19 (Debian 12 ships 1.15), the decoder gives libheif its own HEVC plugin (FFmpeg's
/// libavcodec), which also converts 8-bit YCbCr to RGB planes with libheif's arithmetic (heif_ycbcr.c). Its pixels
/// must be libheif's own decoding to the bit: libde265 and libheif's conversion, in a context without the plugin.
/// With libheif 1.19 or later the plugin is not built, and the test checks the decoder's copy of libheif's pixels.
@Suite("HEIC pixels against libheif's own decoding")
struct HEIFPluginExactnessTests {
    /// Full and limited range (libheif's constants for limited range are not 255/219 and 255/224), 4:2:0, a grid,
    /// irot and imir, 10-bit, nclx and ICC colour, alpha (converted by libheif: the plugin hands it YCbCr planes).
    @Test(arguments: ["heif_rgb.heic", "heif_limited_range.heic", "heif_grid.heic", "heif_irot90.heic",
                      "heif_irot270_exif6.heic", "heif_imir.heic", "heif_10bit.heic", "heif_display_p3.heic",
                      "heif_nclx_p3.heic", "heif_alpha.heic"])
    func sameAsLibheif(_ file: String) throws {
        let data = try Fixtures.bytes(file)
        var options = ImageDecodingOptions()
        options.convertsToSRGB = false
        let ours = try ImageDecoder.decode(data: data, options: options)
        let reference = try #require(Self.libheifPixels(data, alpha: ours.pixelFormat == .rgba8))
        #expect(reference.width == ours.width && reference.height == ours.height)
        let differing = zip(ours.pixels, reference.pixels).count { $0 != $1 }
        #expect(ours.pixels.count == reference.pixels.count && differing == 0,
                "\(differing) of \(ours.pixels.count) samples differ from libheif's")
    }

    /// libheif's decoding of the primary image to interleaved 8-bit RGB or RGBA, with the codecs it was built with.
    static func libheifPixels(_ data: [UInt8], alpha: Bool) -> (pixels: [UInt8], width: Int, height: Int)? {
        guard let context = heif_context_alloc() else { return nil }
        defer { heif_context_free(context) }
        return data.withUnsafeBytes { raw -> (pixels: [UInt8], width: Int, height: Int)? in
            guard heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil).code
                    == heif_error_Ok else { return nil }
            var handle: OpaquePointer?
            guard heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok, let handle else {
                return nil
            }
            defer { heif_image_handle_release(handle) }
            var image: OpaquePointer?
            let chroma = alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
            guard heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, nil).code == heif_error_Ok,
                  let image else { return nil }
            defer { heif_image_release(image) }
            var stride: Int32 = 0
            guard heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) == 8,
                  let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else { return nil }
            let width = Int(heif_image_get_width(image, heif_channel_interleaved))
            let height = Int(heif_image_get_height(image, heif_channel_interleaved))
            let rowBytes = width * (alpha ? 4 : 3)
            var pixels: [UInt8] = []
            pixels.reserveCapacity(rowBytes * height)
            for y in 0..<height {
                pixels.append(contentsOf: UnsafeBufferPointer(start: plane + y * Int(stride), count: rowBytes))
            }
            return (pixels, width, height)
        }
    }
}
#endif
