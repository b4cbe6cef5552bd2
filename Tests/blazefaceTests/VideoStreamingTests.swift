import Foundation
import Testing

/// `track --files-from FILE|- --json-lines --out-dir DIR`: one summary line per video in input order, each
/// video's frame lines in a file of its own equal to a run of `track VIDEO --json-lines` alone, error lines
/// for what cannot be read, exit 0 at the end of the input.
@Suite struct VideoStreamingTests {
    static let models = DetectTests.models

    @Test("videos from standard input: a line each, in order; frame files equal to single runs; bad inputs are error lines")
    func videosFromStandardInput() async throws {
        let scratch = try TemporaryDirectory()
        let panCut = scratch.path("pan-cut.mp4"), pan = scratch.path("sub/pan-cut.mkv")
        try FileManager.default.createDirectory(atPath: scratch.path("sub"), withIntermediateDirectories: true)
        try TrackVideos.write(try TrackVideos.panThenCut(), to: panCut)
        try TrackVideos.write(try TrackVideos.panThenCut(panFrames: 10, cutFrames: 0), to: pan)
        let text = scratch.path("notes.txt"), cut = scratch.path("cut.mkv")
        try Data("not a video\n".utf8).write(to: URL(fileURLWithPath: text))
        let whole = try Data(contentsOf: URL(fileURLWithPath: pan))
        try whole.prefix(whole.count * 6 / 10).write(to: URL(fileURLWithPath: cut))
        let inputs = [panCut, "/no/such/video.mp4", text, pan, cut]
        let outDir = scratch.path("frames")

        let run = try await CommandLineTool.run(
            ["track", "--files-from", "-", "--json-lines", "--out-dir", outDir, "--models-dir", Self.models],
            standardInput: inputs.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run)")
        let lines = try TrackVideos.lines(run.standardOutput)
        #expect(lines.map { $0["path"] as? String } == inputs)
        #expect(lines.map { $0["error"] != nil } == [false, true, true, false, true], "\(lines)")
        #expect(Set(lines[1].keys) == ["path", "error"] && Set(lines[2].keys) == ["path", "error"])

        // Each good video: its frame lines are those of a run of its own, and the summary counts them.
        for (index, video) in [(0, panCut), (3, pan)] {
            let alone = try await CommandLineTool.run(["track", video, "--json-lines", "--models-dir", Self.models])
            #expect(alone.status == 0)
            let line = lines[index]
            let file = try #require(line["framesFile"] as? String)
            #expect(file.hasPrefix(outDir + "/") && file.hasSuffix(".jsonl"))
            #expect(try String(contentsOfFile: file, encoding: .utf8) == alone.standardOutput, "\(video)")
            let frames = try TrackVideos.lines(alone.standardOutput)
            #expect(line["frames"] as? Int == frames.count && line["processedFrames"] as? Int == frames.count)
            let ids = try #require(line["ids"] as? [[String: Any]])
            #expect(ids.map { $0["id"] as? Int } == Array(Set(TrackVideos.ids(frames).joined())).sorted().map(Optional.some))
            for id in ids {
                let seen = TrackVideos.ids(frames).filter { $0.contains(id["id"] as? Int ?? -1) }.count
                #expect(id["frames"] as? Int == seen)
                // 30 fps: on screen for its frames' count of thirtieths of a second (no gaps in these clips).
                #expect(abs((id["seconds"] as? Double ?? 0) - Double(seen) / 30) < 0.002, "\(id)")
                #expect(alone.standardError.contains(String(format: "ID %d: %.2f s on screen", id["id"] as? Int ?? 0,
                                                            id["seconds"] as? Double ?? 0)), "\(alone.standardError)")
            }
        }
        #expect((lines[0]["ids"] as? [Any])?.count == 2 && (lines[3]["ids"] as? [Any])?.count == 1)
        #expect(lines[0]["framesFile"] as? String != lines[3]["framesFile"] as? String)
        // The truncated one: the summary of the frames before the damage, and the error.
        let damaged = lines[4]
        #expect((damaged["error"] as? String)?.contains("truncated") == true, "\(damaged)")
        let partial = try #require(damaged["framesFile"] as? String)
        #expect(try TrackVideos.lines(try String(contentsOfFile: partial, encoding: .utf8)).count == damaged["frames"] as? Int)
        // Only the three videos' files are left: nothing written aside remains.
        #expect(try FileManager.default.contentsOfDirectory(atPath: outDir).filter { !$0.hasSuffix(".jsonl") } == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: outDir).count == 3)
    }

    @Test("--out-dir that is a file, or cannot be made: exit 1 with a message, before any video is read")
    func badOutDir() async throws {
        let scratch = try TemporaryDirectory()
        let file = scratch.path("taken")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for (outDir, message) in [(file, "not a folder"), (file + "/frames", "cannot create the folder")] {
            let result = try await CommandLineTool.run(
                ["track", "--files-from", "-", "--json-lines", "--out-dir", outDir, "--models-dir", Self.models],
                standardInput: "/no/such/video.mp4\n")
            #expect(result.status == 1 && result.standardOutput.isEmpty, "\(result)")
            #expect(result.standardError.contains("--out-dir \(outDir): \(message)"), "\(result.standardError)")
        }
    }

    @Test("--files-from needs --json-lines and --out-dir; not with a video or --annotate; --out-dir only with it")
    func badArguments() async throws {
        let cases: [([String], String)] = [
            (["track", "--files-from", "-", "--out-dir", "x"], "--files-from needs --json-lines"),
            (["track", "--files-from", "-", "--json-lines"], "--files-from needs --out-dir"),
            (["track", "v.mp4", "--files-from", "-", "--json-lines", "--out-dir", "x"], "not both"),
            (["track", "--files-from", "-", "--json-lines", "--out-dir", "x", "--annotate", "a.mp4"], "--annotate takes one video"),
            (["track", "v.mp4", "--out-dir", "x"], "--out-dir goes with --files-from"),
            (["track"], "no video"),
        ]
        for (arguments, message) in cases {
            let result = try await CommandLineTool.run(arguments + ["--models-dir", Self.models])
            #expect(result.status != 0 && result.standardError.contains(message), "\(arguments): \(result)")
        }
    }
}
