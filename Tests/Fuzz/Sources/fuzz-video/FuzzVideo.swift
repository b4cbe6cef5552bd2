import BlazeVideoIO

/// Limits for the video target: frames up to 1024 x 1024, 64 frames per input, so that one input stays well
/// under libFuzzer's `-rss_limit_mb` and `-timeout`.
let options = VideoReadingOptions(
    maximumWidth: 1024, maximumHeight: 1024, maximumPixelCount: 1 << 20, maximumFrameCount: 64,
    maximumPacketsWithoutFrame: 2000)

/// libFuzzer entry point: any bytes through `VideoReader(data:options:)` (the shim's memory I/O: probing,
/// demuxing, decoding, conversion), every frame read. Every outcome must be a `VideoIOError` or frames whose
/// buffers hold exactly their width × height × bytes per pixel, within the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let reader = try? VideoReader(data: bytes, options: options) else { return 0 }
    var count = 0
    while let frame = try? reader.nextFrame() {
        let image = frame.image
        precondition(image.width > 0 && image.height > 0 && image.width <= 1024 && image.height <= 1024,
                     "frame outside the limits")
        precondition(image.pixels.count == image.width * image.height * 3, "frame buffer disagrees with its size")
        precondition(frame.time.isFinite, "non-finite frame time")
        count += 1
        precondition(count <= 64, "more frames than the limit")
    }
    return 0
}
