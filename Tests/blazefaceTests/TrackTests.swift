import BlazeImageIO
import BlazeTestSupport
import BlazeVideoIO
import Foundation
import Testing

/// `blazeface track` end to end on small videos made from the sample pictures: IDs, the JSON lines' keys, the
/// annotated video, and a truncated input.
@Suite struct TrackTests {
    static let models = DetectTests.models

    @Test("a pan keeps ID 1, a cut gives ID 2; the JSON lines carry their keys; the annotated MP4 has every frame")
    func panAndCut() async throws {
        let scratch = try TemporaryDirectory()
        let input = scratch.path("pan-cut.mp4"), output = scratch.path("annotated.mp4")
        let frames = try TrackVideos.panThenCut()
        try TrackVideos.write(frames, to: input)
        let result = try await CommandLineTool.run(["track", input, "--json-lines", "--annotate", output,
                                                    "--landmarks", "--attributes", "--models-dir", Self.models])
        #expect(result.status == 0, "\(result)")
        let lines = try TrackVideos.lines(result.standardOutput)
        #expect(lines.map { $0["frame"] as? Int } == Array(0..<frames.count))
        let ids = TrackVideos.ids(lines)
        #expect(ids.prefix(12).allSatisfy { $0 == [1] }, "the pan: \(ids)")
        // The cut frame may still see ID 1 end; from the next frame on only the cameraman's new ID.
        #expect(ids.suffix(6).allSatisfy { $0 == [2] }, "after the cut: \(ids)")
        let times = lines.compactMap { $0["time"] as? Double }
        #expect(times.count == frames.count && zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 1e-3 })

        let first = lines[0]
        #expect(Set(first.keys) == ["frame", "time", "faces", "events"])
        let face = try #require((first["faces"] as? [[String: Any]])?.first)
        #expect(Set(face.keys) == ["id", "box", "score", "framesSeen", "landmarks", "pose", "leftEyeOpen",
                                   "rightEyeOpen", "smiling"])
        let box = try #require(face["box"] as? [String: Double])
        #expect(Set(box.keys) == ["x", "y", "width", "height"])
        #expect((box["width"] ?? 0) > 70 && (box["width"] ?? 0) < 140, "\(box)")
        #expect((face["landmarks"] as? [[Double]])?.count == 478)
        let pose = try #require(face["pose"] as? [String: Double])
        #expect(Set(pose.keys) == ["pitch", "yaw", "roll"])
        #expect((face["leftEyeOpen"] as? Double ?? 0) > 0.5 && (face["rightEyeOpen"] as? Double ?? 0) > 0.5)
        let events = lines.flatMap { ($0["events"] as? [[String: Any]]) ?? [] }
        let started = events.filter { $0["type"] as? String == "started" }.compactMap { $0["id"] as? Int }
        #expect(started == [1, 2], "\(events)")

        #expect(result.standardError.contains("2 IDs seen") && result.standardError.contains("ID 1: "),
                "the summary on stderr: \(result.standardError)")
        let (written, error) = try TrackVideos.readAll(output)
        #expect(error == nil)
        #expect(written.count == frames.count)
        #expect(written.allSatisfy { $0.image.width == 320 && $0.image.height == 180 })
        try Self.writeFigure(written)
    }

    @Test("a truncated input: the good frames' lines, then a typed error, exit 1, and a finalized MP4 (--read-ahead 0: decoded on the tracker's thread; 1, 2: on a second one)", arguments: ["0", "1", "2"])
    func truncatedInput(readAhead: String) async throws {
        let scratch = try TemporaryDirectory()
        let whole = scratch.path("whole.mkv"), cut = scratch.path("cut.mkv"), output = scratch.path("annotated.mp4")
        let frames = try TrackVideos.panThenCut(panFrames: 20, cutFrames: 0)
        try TrackVideos.write(frames, to: whole)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        try bytes.prefix(bytes.count * 6 / 10).write(to: URL(fileURLWithPath: cut))
        let readable = try TrackVideos.readAll(cut)
        guard case .truncated? = readable.error else { Issue.record("\(String(describing: readable.error))"); return }

        let result = try await CommandLineTool.run(["track", cut, "--json-lines", "--annotate", output,
                                                    "--read-ahead", readAhead, "--models-dir", Self.models])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("error: \(cut): truncated video after \(readable.frames.count) frames"),
                "\(result.standardError)")
        let lines = try TrackVideos.lines(result.standardOutput)
        #expect(lines.count == readable.frames.count && lines.count > 0, "\(result)")
        #expect(TrackVideos.ids(lines).allSatisfy { $0 == [1] })
        let (written, error) = try TrackVideos.readAll(output)
        #expect(error == nil && written.count == readable.frames.count)
    }

    @Test("a video stored turned with a display matrix (a phone's): faces and the annotated frames are upright")
    func rotatedInput() async throws {
        let scratch = try TemporaryDirectory()
        let input = scratch.path("turned.mp4"), output = scratch.path("annotated.mp4")
        let frames = try TrackVideos.panThenCut(panFrames: 6, cutFrames: 0)
        try TrackVideos.write(frames, to: input, orientation: .right)
        #expect(try VideoReader(contentsOf: input).info.orientation == .right)
        let result = try await CommandLineTool.run(["track", input, "--json-lines", "--annotate", output,
                                                    "--models-dir", Self.models])
        #expect(result.status == 0, "\(result)")
        let lines = try TrackVideos.lines(result.standardOutput)
        #expect(TrackVideos.ids(lines) == Array(repeating: [1], count: frames.count), "\(result)")
        // The astronaut's face is in the upright frame's left half (x 50...220 of 320) and upper part.
        let box = try #require(((lines.first?["faces"] as? [[String: Any]])?.first?["box"]) as? [String: Double])
        #expect((box["x"] ?? 0) > 20 && (box["x"] ?? 0) + (box["width"] ?? 0) < 250 && (box["y"] ?? 0) < 60, "\(box)")
        let (written, error) = try TrackVideos.readAll(output)
        #expect(error == nil && written.count == frames.count)
        #expect(written.allSatisfy { $0.image.width == 320 && $0.image.height == 180 && $0.image.orientation == .up })
    }

    @Test("--decode-to yuv (the decoder's planes sampled straight) and rgb (converted first): the same IDs on every frame, boxes within 1.5 px, a turned video too; yuv with --annotate writes upright frames", arguments: [ImageOrientation.up, .right])
    func yuvAndRGBFrames(orientation: ImageOrientation) async throws {
        let scratch = try TemporaryDirectory()
        let input = scratch.path("pan-cut.mp4")
        let frames = try TrackVideos.panThenCut(panFrames: 8, cutFrames: 4)
        try TrackVideos.write(frames, to: input, orientation: orientation)
        var runs: [[[String: Any]]] = []
        for format in ["yuv", "rgb"] {
            // The YUV run also annotates: its frames are converted to RGB for drawing (uprightRGB).
            let annotate = format == "yuv" ? ["--annotate", scratch.path("annotated.mp4")] : []
            let result = try await CommandLineTool.run(["track", input, "--json-lines", "--decode-to", format,
                                                        "--models-dir", Self.models] + annotate)
            #expect(result.status == 0, "\(format): \(result)")
            runs.append(try TrackVideos.lines(result.standardOutput))
        }
        let (written, error) = try TrackVideos.readAll(scratch.path("annotated.mp4"))
        #expect(error == nil && written.count == frames.count)
        #expect(written.allSatisfy { $0.image.width == 320 && $0.image.height == 180 && $0.image.orientation == .up })
        let (yuv, rgb) = (runs[0], runs[1])
        #expect(yuv.count == frames.count && rgb.count == frames.count)
        #expect(TrackVideos.ids(yuv) == TrackVideos.ids(rgb), "yuv \(TrackVideos.ids(yuv)), rgb \(TrackVideos.ids(rgb))")
        #expect(TrackVideos.ids(yuv).prefix(8).allSatisfy { $0 == [1] })
        var largest = 0.0
        for (a, b) in zip(yuv, rgb) {
            let boxesA = ((a["faces"] as? [[String: Any]]) ?? []).compactMap { $0["box"] as? [String: Double] }
            let boxesB = ((b["faces"] as? [[String: Any]]) ?? []).compactMap { $0["box"] as? [String: Double] }
            #expect(boxesA.count == boxesB.count)
            for (p, q) in zip(boxesA, boxesB) {
                for key in ["x", "y", "width", "height"] { largest = max(largest, abs((p[key] ?? .nan) - (q[key] ?? .nan))) }
            }
        }
        #expect(largest <= 1.5, "largest box difference \(largest) px")
    }

    @Test("bad input: a missing file, an image instead of a video, bad options; typed messages and exit 1")
    func badInput() async throws {
        let scratch = try TemporaryDirectory()
        let missing = scratch.path("missing.mp4")
        var result = try await CommandLineTool.run(["track", missing, "--models-dir", Self.models])
        #expect(result.status == 1 && result.standardError.contains("error: cannot read \(missing): no such file"),
                "\(result)")
        result = try await CommandLineTool.run(["track", try DetectTests.sample("coffee.png"), "--models-dir", Self.models])
        #expect(result.status == 1 && result.standardError.contains("error:"), "\(result)")
        result = try await CommandLineTool.run(["track", missing, "--every", "0"])
        #expect(result.status != 0 && result.standardError.contains("--every must be at least 1"), "\(result)")
        result = try await CommandLineTool.run(["track", missing, "--decode-to", "bgr"])
        #expect(result.status != 0 && result.standardError.contains("--decode-to"), "\(result)")
        result = try await CommandLineTool.run(["track", missing, "--read-ahead", "17"])
        #expect(result.status != 0 && result.standardError.contains("--read-ahead must be 0...16"), "\(result)")
    }

    /// With BLAZEFACE_FIGURES set to a folder, writes track-strip.png there (Documentation/Video.md's picture):
    /// five annotated frames side by side, across the pan and the cut.
    static func writeFigure(_ frames: [VideoFrame]) throws {
        guard let folder = ProcessInfo.processInfo.environment["BLAZEFACE_FIGURES"] else { return }
        let picks = [0, 5, 11, 12, 19].filter { $0 < frames.count }
        let images = try picks.map { try frames[$0].image.uprightRGB() }
        let gap = 4, width = images.reduce(0) { $0 + $1.width } + gap * (images.count - 1), height = 180
        var strip = [UInt8](repeating: 255, count: width * height * 3)
        var left = 0
        for image in images {
            for row in 0..<min(height, image.height) {
                let from = row * image.width * 3, to = (row * width + left) * 3
                strip[to..<to + image.width * 3] = image.pixels[from..<from + image.width * 3]
            }
            left += image.width + gap
        }
        try PNGEncoder.write(ImageBuffer(width: width, height: height, pixelFormat: .rgb8, pixels: strip),
                             to: (folder as NSString).appendingPathComponent("track-strip.png"))
    }
}
