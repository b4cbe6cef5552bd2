import BlazeImaging
import BlazeVideoIO

/// The reading options for an input of `size` bytes: frames up to 1024 x 1024, 64 frames per input (so that one
/// input stays well under libFuzzer's `-rss_limit_mb` and `-timeout`), and, from the size's low bits (which the
/// mutations change often, unlike the container's magic bytes), the delivered pixels (RGB, BGRA, RGBA or the
/// decoder's I420 planes) and whether damage stops the stream or FFmpeg's concealment repairs it.
func options(forSize size: Int) -> VideoReadingOptions {
    let formats: [PixelFormat] = [.rgb8, .bgra8, .i420, .rgba8]
    return VideoReadingOptions(
        pixelFormat: formats[size & 3], maximumWidth: 1024, maximumHeight: 1024, maximumPixelCount: 1 << 20,
        maximumFrameCount: 64, maximumPacketsWithoutFrame: 2000, stopsAtDamage: size & 4 == 0)
}

/// The bytes a frame of this size holds in `format`: packed pixels, or I420's three planes (chroma (w+1)/2 x
/// (h+1)/2, FFmpeg's rounding).
func expectedBytes(_ image: ImageBuffer) -> Int {
    guard image.pixelFormat == .i420 else { return image.width * image.height * image.pixelFormat.bytesPerPixel }
    return image.width * image.height + 2 * ((image.width + 1) / 2) * ((image.height + 1) / 2)
}

/// libFuzzer entry point: any bytes through `VideoReader(data:options:)` (the shim's memory I/O: probing,
/// demuxing, decoding, conversion or the planes' copy), every frame read, through `nextFrame()` or, when the
/// size's bit 3 is set, `nextFrame(into:)` into the first frame, recycled. Every outcome must be a `VideoIOError` or
/// frames in the asked format whose buffers hold exactly their size's bytes, within the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let options = options(forSize: size)
    guard let reader = try? VideoReader(data: bytes, options: options) else { return 0 }
    var count = 0
    func check(_ frame: VideoFrame) {
        let image = frame.image
        precondition(image.width > 0 && image.height > 0 && image.width <= 1024 && image.height <= 1024,
                     "frame outside the limits")
        precondition(image.pixelFormat == options.pixelFormat, "frame in another format than asked")
        precondition(image.pixels.count == expectedBytes(image), "frame buffer disagrees with its size")
        precondition(frame.time.isFinite, "non-finite frame time")
        count += 1
        precondition(count <= 64, "more frames than the limit")
    }
    if size & 8 == 0 {
        while let frame = try? reader.nextFrame() { check(frame) }
    } else if var frame = try? reader.nextFrame() {
        check(frame)
        while (try? reader.nextFrame(into: &frame)) == true { check(frame) }
    }
    return 0
}
