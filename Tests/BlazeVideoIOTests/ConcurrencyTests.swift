import BlazeTestSupport
import BlazeVideoIO
import Foundation
import Testing

/// What the video reader's and writer's documentation promises about threads: a reader or a writer is used from
/// one thread at a time, and readers and writers are independent of each other, so several run at once on
/// several threads (FFmpeg keeps no state per process that they share, apart from the log callback the shim
/// installs once, which keeps each thread's last message apart). Each thread's frames, files and errors are
/// the ones a sequential run gives. Run under ThreadSanitizer by Tests/Sanitizers/run.sh thread.
@Suite("Concurrency: video reader and writer")
struct VideoConcurrencyTests {
    /// The files both tests read: name, video, writer options.
    static func sources() throws -> [(name: String, video: TestVideo, options: VideoWriterOptions)] {
        [
            ("pan.mp4", try TestVideo.pan(count: 12), VideoWriterOptions(codec: .h264)),
            ("zoom.avi", try TestVideo.zoom(count: 10), VideoWriterOptions(codec: .mpeg4, frameRate: FrameRate(15))),
            ("cut.mkv", try TestVideo.hardCut(), VideoWriterOptions(codec: .h264, frameRate: FrameRate(25), threadCount: 2)),
        ]
    }

    /// What one read gives: every frame, and the error that ended the stream.
    struct Read: Equatable, Sendable {
        var frames: [VideoFrame]
        var error: VideoIOError?
    }

    static func read(_ reader: VideoReader) -> Read {
        let (frames, error) = readAll(reader)
        return Read(frames: frames, error: error)
    }

    @Test("four threads read three files and a damaged one at once, from paths and from memory, with one and two decoder threads")
    func readers() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = try Self.sources().map { source in
            let path = folder.appendingPathComponent(source.name).path
            try source.video.write(to: path, options: source.options)
            return path
        }
        // The pan with 400 bytes overwritten in its middle: good frames, then .corrupt with FFmpeg's message.
        var damaged = Array(try Data(contentsOf: URL(fileURLWithPath: paths[2])))
        var generator = SplitMix64(seed: 15)
        for i in damaged.count / 2..<damaged.count / 2 + 400 { damaged[i] = UInt8(truncatingIfNeeded: generator.next()) }
        let contents = try paths.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) } + [damaged]
        let sequential = try contents.map { Self.read(try VideoReader(data: $0)) }
        #expect(sequential.map(\.frames.count).prefix(3) == [12, 10, 20])
        #expect(sequential.prefix(3).allSatisfy { $0.error == nil })
        guard case .corrupt? = sequential[3].error else {
            Issue.record("the damaged file read as \(String(describing: sequential[3].error))")
            return
        }
        let outcome = Hammer.run(threads: 4, rounds: 4) { thread, round -> (Int, Read) in
            let index = (thread + round) % contents.count
            // Damaged input is compared with one decoder thread: the error's detail is FFmpeg's last message on
            // the thread that logged it, which with more threads may be one of FFmpeg's own.
            let options = VideoReadingOptions(threadCount: index == 3 || thread % 2 == 0 ? 1 : 2)
            let reader = index < 3 && round % 2 == 0
                ? try VideoReader(contentsOf: paths[index], options: options)
                : try VideoReader(data: contents[index], options: options)
            return (index, Self.read(reader))
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.all.count == 16)
        for (index, read) in outcome.all {
            #expect(read == sequential[index], "file \(index)")
        }
    }

    @Test("four threads write their own files while two read: every file decodes to the sequentially written one's frames")
    func writersAndReaders() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = try Self.sources()
        @Sendable func path(_ name: String, _ tag: String) -> String { folder.appendingPathComponent(tag + "-" + name).path }
        let sequential = try sources.map { source -> Read in
            try source.video.write(to: path(source.name, "sequential"), options: source.options)
            return Self.read(try VideoReader(contentsOf: path(source.name, "sequential")))
        }
        let outcome = Hammer.run(threads: 6, rounds: 2) { thread, round -> (Int, Read) in
            let index = (thread + round) % sources.count
            if thread >= 4 {
                return (index, Self.read(try VideoReader(contentsOf: path(sources[index].name, "sequential"))))
            }
            let written = path(sources[index].name, "thread\(thread)-round\(round)")
            try sources[index].video.write(to: written, options: sources[index].options)
            return (index, Self.read(try VideoReader(contentsOf: written)))
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.all.count == 12)
        for (index, read) in outcome.all {
            #expect(read.error == nil)
            #expect(read == sequential[index], "\(sources[index].name)")
        }
    }
}
