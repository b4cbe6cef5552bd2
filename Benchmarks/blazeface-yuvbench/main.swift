// blazeface-yuvbench: the cost of sampling model inputs straight from YUV 4:2:0 frames against the RGB path, and
// of the full-frame conversion it avoids. The crops are the pipelines' (the detector's 128x128 letterbox of the
// whole frame, the face mesh's 192x192 `.warp` crop, unturned and turned), on one camera-sized frame made from a
// sample picture; RGB and YUV calls alternate in blocks of 20 so that both see the same machine load. Medians.
//
//     swift run -c release blazeface-yuvbench [picture] [width] [height] [iterations]
//     (defaults: Models/samples/breakingbad.jpg resized to 1280 x 720, 400 iterations)
import BlazeImageIO
import BlazeImaging
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func nanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted(), n = s.count
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
}

/// Microseconds per call of each of `calls`, alternating blocks of 20 calls after 20 untimed rounds.
func alternate(_ calls: [() throws -> Void], iterations: Int) throws -> [Double] {
    var times = calls.map { _ in [Double]() }
    for _ in 0..<20 { for call in calls { try call() } }
    var done = 0
    while done < iterations {
        for (index, call) in calls.enumerated() {
            for _ in 0..<20 {
                let start = nanoseconds()
                try call()
                times[index].append(Double(nanoseconds() &- start) / 1000)
            }
        }
        done += 20
    }
    return times.map(median)
}

/// Nearest-neighbour resampling of packed RGB to `width x height`.
func resized(_ image: ImageBuffer, width: Int, height: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        let sy = (2 * y + 1) * image.height / (2 * height)
        for x in 0..<width {
            let sx = (2 * x + 1) * image.width / (2 * width)
            for c in 0..<3 { out[(y * width + x) * 3 + c] = image.pixels[(sy * image.width + sx) * 3 + c] }
        }
    }
    return out
}

/// BT.601 limited-range NV12 or I420 of packed RGB (the chroma of each 2x2 block averaged), in one buffer.
func yuv420(_ rgb: [UInt8], width: Int, height: Int, format: PixelFormat) -> [UInt8] {
    let cw = (width + 1) / 2, ch = (height + 1) / 2
    var out = [UInt8](repeating: 128, count: try! ImageView.byteCount(width: width, height: height, bytesPerRow: width,
                                                                       pixelFormat: format))
    func at(_ x: Int, _ y: Int) -> (Double, Double, Double) {
        let p = (y * width + x) * 3
        return (Double(rgb[p]), Double(rgb[p + 1]), Double(rgb[p + 2]))
    }
    for y in 0..<height {
        for x in 0..<width {
            let (r, g, b) = at(x, y)
            out[y * width + x] = UInt8(min(max((16 + (0.299 * r + 0.587 * g + 0.114 * b) * 219 / 255).rounded(), 0), 255))
        }
    }
    for j in 0..<ch {
        for i in 0..<cw {
            let (r, g, b) = at(min(2 * i, width - 1), min(2 * j, height - 1))
            let luma = 0.299 * r + 0.587 * g + 0.114 * b
            let u = UInt8(min(max(128 + (b - luma) / 1.772 * 224 / 255, 0), 255).rounded())
            let v = UInt8(min(max(128 + (r - luma) / 1.402 * 224 / 255, 0), 255).rounded())
            let base = width * height
            if format == .i420 {
                out[base + j * cw + i] = u
                out[base + cw * ch + j * cw + i] = v
            } else {
                out[base + j * 2 * cw + 2 * i] = u
                out[base + j * 2 * cw + 2 * i + 1] = v
            }
        }
    }
    return out
}

let arguments = CommandLine.arguments
let picturePath = arguments.count > 1 ? arguments[1] : "Models/samples/breakingbad.jpg"
let width = arguments.count > 2 ? Int(arguments[2]) ?? 1280 : 1280
let height = arguments.count > 3 ? Int(arguments[3]) ?? 720 : 720
let iterations = arguments.count > 4 ? Int(arguments[4]) ?? 400 : 400

let picture = try ImageDecoder.decode(contentsOf: picturePath).uprightRGB()
let rgb = resized(picture, width: width, height: height)
let nv12 = yuv420(rgb, width: width, height: height, format: .nv12)
let i420 = yuv420(rgb, width: width, height: height, format: .i420)

let centre = Point(x: Double(width) / 2, y: Double(height) / 2), side = Double(min(width, height)) * 0.4
let cases: [(String, ImageToTensor.Options, RotatedRect?)] = [
    ("detector 128x128 letterbox", .init(width: 128, height: 128, range: -1...1, fit: .letterbox, border: .zero, sampling: .detector), nil),
    ("mesh 192x192 warp, unturned", .init(width: 192, height: 192, range: 0...1, fit: .stretch, border: .replicate, sampling: .warp),
     RotatedRect(center: centre, width: side, height: side)),
    ("mesh 192x192 warp, turned 0.3", .init(width: 192, height: 192, range: 0...1, fit: .stretch, border: .replicate, sampling: .warp),
     RotatedRect(center: centre, width: side, height: side, rotation: 0.3)),
    // A face filling most of the frame's height (a selfie, or the tracked clip of Documentation/Video.md): the
    // stored pixels under the crop are several times its taps.
    ("mesh 192x192 warp, large, unturned", .init(width: 192, height: 192, range: 0...1, fit: .stretch, border: .replicate, sampling: .warp),
     RotatedRect(center: centre, width: 2 * side, height: 2 * side)),
    ("mesh 192x192 warp, large, turned 0.1", .init(width: 192, height: 192, range: 0...1, fit: .stretch, border: .replicate, sampling: .warp),
     RotatedRect(center: centre, width: 2 * side, height: 2 * side, rotation: 0.1)),
]

print("\(width)x\(height) frame from \(picturePath), \(iterations) calls each, median microseconds")
print("case | rgb8 | nv12 | i420 | nv12/rgb8")
try rgb.withUnsafeBytes { rgbBytes in
    try nv12.withUnsafeBytes { nv12Bytes in
        try i420.withUnsafeBytes { i420Bytes in
            let rgbView = try ImageView(pixels: rgbBytes, width: width, height: height, bytesPerRow: width * 3, pixelFormat: .rgb8)
            let nv12View = try ImageView(pixels: nv12Bytes, width: width, height: height, bytesPerRow: width, pixelFormat: .nv12)
            let i420View = try ImageView(pixels: i420Bytes, width: width, height: height, bytesPerRow: width, pixelFormat: .i420)
            for (name, options, region) in cases {
                let converter = try ImageToTensor(options: options)
                let output = UnsafeMutableBufferPointer<Float>.allocate(capacity: converter.floatCount)
                defer { output.deallocate() }
                let t = try alternate([
                    { _ = try converter.convert(rgbView, region: region, into: output) },
                    { _ = try converter.convert(nv12View, region: region, into: output) },
                    { _ = try converter.convert(i420View, region: region, into: output) },
                ], iterations: iterations)
                print(String(format: "%@ | %.1f | %.1f | %.1f | %.2f", name, t[0], t[1], t[2], t[1] / t[0]))
            }
            let full = try alternate([{ _ = nv12View.uprightRGB() }], iterations: max(iterations / 10, 20))
            print(String(format: "full-frame nv12 -> rgb8 (ImageView.uprightRGB) | %.1f", full[0]))
        }
    }
}
