import BlazeVideoIO
import CAllocationCounter
import Foundation

/// What `--decode` measured for one way of reading the video.
struct DecodeResult {
    /// `decode`: `VideoReader.withNextFrame` on the calling thread (decoding and the conversion to RGB, no
    /// copy); `decode-read-ahead`: `FramePrefetcher.nextFrame()` with nothing else to do, so its thread's
    /// rate (the same, plus the copy into a recycled buffer and the hand-over).
    var name: String
    var video: String
    var width: Int
    var height: Int
    var codec: String
    var threads: Int
    /// Frames of one pass (the whole file).
    var frames: Int
    var passes: Int
    /// Per frame: the time of the call that delivered it.
    var timing: Summary
    /// The median over the passes of frames / the pass's wall time.
    var framesPerSecond: Double
    /// Heap allocations of every thread per frame, past each pass's first 10 frames (FFmpeg's included).
    var allocationsPerFrame: Double?
    /// The file's frame rate, for "x real time".
    var frameRate: Double?
}

/// `--decode VIDEO`: reads a whole video file again and again with `VideoReader` (one decoder thread unless
/// `--threads`), alternating passes on the calling thread and through a `FramePrefetcher` (depth 2), and
/// reports the time per frame, frames per second and allocations. A JPEG or PNG instead of a video makes a
/// clip first (`clip(from:size:)`).
enum DecodeBenchmark {
    static let names = ["decode", "decode-read-ahead"]

    /// Warms up with one untimed pass (the file in the page cache), then alternates the two ways until each
    /// has timed at least `minimumFrames` frames and 3 passes, or `timeLimit` seconds passed (at least one pass
    /// each).
    static func run(path: String, threads: Int, minimumFrames: Int, timeLimit: Double?) throws -> [DecodeResult] {
        let options = VideoReadingOptions(threadCount: threads)
        _ = try pass(path, options, prefetch: false)
        var times: [[UInt64]] = [[], []], rates: [[Double]] = [[], []], allocations: [[Int]] = [[], []]
        var counted = [0, 0]
        let limit = Deadline(seconds: timeLimit)
        repeat {
            for way in 0..<2 {
                let p = try pass(path, options, prefetch: way == 1)
                times[way] += p.times
                rates[way].append(Double(p.times.count) / (Double(p.wall) / 1e9))
                allocations[way].append(p.allocations)
                counted[way] += max(p.times.count - 10, 0)
            }
        } while (times[0].count < minimumFrames || rates[0].count < 3) && !limit.passed
        let info = try VideoReader(contentsOf: path, options: options).info
        return (0..<2).map { way in
            DecodeResult(name: names[way], video: (path as NSString).lastPathComponent, width: info.width,
                         height: info.height, codec: info.codecName, threads: threads,
                         frames: times[way].count / rates[way].count, passes: rates[way].count,
                         timing: Summary(nanoseconds: times[way]), framesPerSecond: median(rates[way]),
                         allocationsPerFrame: blaze_allocation_counting_available() == 1 && counted[way] > 0
                             ? Double(allocations[way].reduce(0, +)) / Double(counted[way]) : nil,
                         frameRate: info.frameRate)
        }
    }

    /// One pass over the file: each frame's time, the pass's wall time, and the allocations after frame 10.
    private static func pass(_ path: String, _ options: VideoReadingOptions,
                             prefetch: Bool) throws -> (times: [UInt64], wall: UInt64, allocations: Int) {
        var times: [UInt64] = []
        times.reserveCapacity(100_000)
        var allocations = 0, counting = false
        let start = nowNanoseconds()
        let reader = try VideoReader(contentsOf: path, options: options)
        let prefetcher = prefetch ? try FramePrefetcher(reader, depth: 2) : nil
        var checksum = 0
        while true {
            if times.count == 10 {
                blaze_allocation_counting_begin_all_threads()
                counting = true
            }
            let t0 = nowNanoseconds()
            let pixel: UInt8?
            if let prefetcher {
                pixel = try prefetcher.nextFrame()?.image.pixels.first
            } else {
                pixel = try reader.withNextFrame { view, _, _ in view.baseAddress.load(as: UInt8.self) }
            }
            guard let pixel else { break }
            times.append(nowNanoseconds() &- t0)
            checksum &+= Int(pixel)
        }
        if counting { allocations = blaze_allocation_counting_end_all_threads() }
        let wall = nowNanoseconds() &- start
        guard !times.isEmpty, checksum >= 0 else { throw BenchFailure("\(path): no frame") }
        return (times, wall, allocations)
    }

    /// A 300-frame, 30 fps H.264 clip of `size` (default 1280x720) written with `VideoWriter` (x264 `veryfast`,
    /// CRF 20) into a temporary file: a window panning over the picture centred on a gray canvas, with
    /// deterministic noise of ±6 per pixel and frame (film grain, which makes a realistic bitrate).
    static func clip(from picture: String, size: (width: Int, height: Int)?) throws -> String {
        let width = size?.width ?? 1280, height = size?.height ?? 720
        let canvas = try Frame.load(picture, canvas: (width + 300, height + 100))
        let path = NSTemporaryDirectory() + "blazeface-bench-\(getpid())-\(width)x\(height).mp4"
        let writer = try VideoWriter(path: path, width: width, height: height,
                                     options: VideoWriterOptions(frameRate: FrameRate(30)))
        var frame = [UInt8](repeating: 0, count: width * height * 3)
        var state: UInt64 = 15
        for i in 0..<300 {
            let left = i, top = i / 3
            for y in 0..<height {
                let from = ((y + top) * canvas.width + left) * 3, to = y * width * 3
                for x in 0..<width * 3 {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    let noise = Int((state >> 33) % 13) - 6
                    frame[to + x] = UInt8(clamping: Int(canvas.pixels[from + x]) + noise)
                }
            }
            try writer.append(ImageBuffer(width: width, height: height, pixelFormat: .rgb8, pixels: frame))
        }
        try writer.finish()
        return path
    }
}

extension DecodeBenchmark {
    /// The text report of `--decode`.
    static func table(_ results: [DecodeResult]) -> String {
        guard let first = results.first else { return "" }
        var lines = ["",
                     "Decoding \(first.video) (\(first.width)x\(first.height) \(first.codec), \(first.frames) frames) to rgb8, "
                     + "\(first.threads) decoder thread\(first.threads == 1 ? "" : "s"), \(first.passes) passes each, alternating "
                     + "(frames/s: median over the passes, opening the file included):"]
        let head = [pad("reading", 18, right: false), pad("median ms", 10), pad("min ms", 8), pad("p90 ms", 8),
                    pad("frames/s", 9), pad("x real time", 12), pad("allocs/frame", 13)]
        lines.append(head.joined(separator: " "))
        lines.append(String(repeating: "-", count: lines.last!.count))
        for d in results {
            let realTime = d.frameRate.map { fixed(d.framesPerSecond / $0, 2) } ?? "-"
            let cells = [pad(d.name, 18, right: false), pad(fixed(d.timing.medianMs, 3), 10), pad(fixed(d.timing.minMs, 3), 8),
                         pad(fixed(d.timing.p90Ms, 3), 8), pad(fixed(d.framesPerSecond, 1), 9), pad(realTime, 12),
                         pad(d.allocationsPerFrame.map { fixed($0, 2) } ?? "n/a", 13)]
            lines.append(cells.joined(separator: " "))
        }
        lines.append("(decode: VideoReader.withNextFrame on this thread; decode-read-ahead: FramePrefetcher(depth: 2)"
                     + ".nextFrame() with no other work, i.e. its thread's rate)")
        return lines.joined(separator: "\n")
    }
}

/// One way of reading of `--decode` in the JSON report (`"decode": [...]`).
extension DecodeResult: Encodable {
    enum CodingKeys: String, CodingKey {
        case reading, video, width, height, codec, threads, frames, passes, median_ms, min_ms, p90_ms
        case frames_per_second, real_time_factor, allocations_per_frame
    }

    func encode(to encoder: any Encoder) throws {
        var json = encoder.container(keyedBy: CodingKeys.self)
        try json.encode(name, forKey: .reading)
        try json.encode(video, forKey: .video)
        try json.encode(width, forKey: .width)
        try json.encode(height, forKey: .height)
        try json.encode(codec, forKey: .codec)
        try json.encode(threads, forKey: .threads)
        try json.encode(frames, forKey: .frames)
        try json.encode(passes, forKey: .passes)
        try json.encode(r(timing.medianMs), forKey: .median_ms)
        try json.encode(r(timing.minMs), forKey: .min_ms)
        try json.encode(r(timing.p90Ms), forKey: .p90_ms)
        try json.encode(r(framesPerSecond, 1), forKey: .frames_per_second)
        try json.encodeIfPresent(frameRate.map { r(framesPerSecond / $0, 2) }, forKey: .real_time_factor)
        try json.encodeIfPresent(allocationsPerFrame.map { r($0, 2) }, forKey: .allocations_per_frame)
    }
}
