import BlazeFace
import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeImageIO
import BlazeJobs
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `--library` runs on every file: `blazeface detect`'s pipeline or `blazeface analyze`'s.
enum LibraryVerb: String, CaseIterable, Sendable {
    /// `FaceDetector(model: .fullRange)` with the default options, as `blazeface detect`.
    case detect
    /// `FaceAnalyzer` on `FaceLandmarker(model: .attention)` with the full-range detector and the selfie framing,
    /// as `blazeface analyze`.
    case analyze
    /// The decode alone (no model): the decoder's share of the other two.
    case decode

    /// The pipeline, one line for the reports.
    var configuration: String {
        switch self {
        case .detect:
            return "FaceDetector(model: .fullRange), default options (letterbox, minimum score 0.6, weighted NMS), "
                + "as `blazeface detect`"
        case .analyze:
            return "FaceAnalyzer(landmarker: FaceLandmarker(model: .attention, options: .init(detector: .fullRange)), "
                + "framing: .selfie): mesh, head pose, eyes, smile and capture quality of every face, as `blazeface analyze`"
        case .decode:
            return "the decode alone (reading the file included), no model"
        }
    }
}

/// How `--library` decodes each file (`--library-decode`).
enum LibraryDecode: String, CaseIterable, Sendable {
    /// `ImageDecoder.decode(contentsOf:)`: every pixel, as `landmarks`, `analyze` and `detect --full-decode`.
    case full
    /// Shrink-on-load, as `blazeface detect` by default (detect only: the library has none for the mesh):
    /// `ImageDecoder.decodeScaled(contentsOf:minimumLongSide:)` with the detector's `shrinkOnLoadLongSide` (or
    /// `--library-shrink-long-side`), the faces mapped back to the full picture.
    case shrink

    /// The decode, one line for the reports; `shrinkLongSide` nil for the detector's own rule.
    func configuration(shrinkLongSide: Int?) -> String {
        switch self {
        case .full:
            return "ImageDecoder.decode(contentsOf:): the whole picture (the file read, EXIF orientation, colour profile "
                + "to sRGB)"
        case .shrink:
            let side = shrinkLongSide.map(String.init) ?? "detector.shrinkOnLoadLongSide"
            return "ImageDecoder.decodeScaled(contentsOf:minimumLongSide: \(side)) (a JPEG at the smallest of 1/2, 1/4, "
                + "1/8 keeping that long side, by libjpeg's DCT scaling; other formats in full), faces mapped back by "
                + "FaceJob, as `blazeface detect` by default (detect only)"
        }
    }
}

/// One worker's models: what one thread of `blazeface detect` or `analyze` holds (a `FaceJob`, as the CLI's
/// workers), or none for the decode alone.
enum LibraryPipeline: Sendable {
    case job(FaceJob, FaceTask)
    case decoder

    /// Loads the verb's models (one interpreter thread each, as the CLI's workers).
    /// - Parameters:
    ///   - verb: what to run.
    ///   - modelsDir: the models folder.
    ///   - decode: full, or shrink-on-load (`shrinkLongSide`: the fewest pixels kept on the longer side; nil for
    ///     the detector's `shrinkOnLoadLongSide`).
    init(_ verb: LibraryVerb, modelsDir: String?, decode: LibraryDecode, shrinkLongSide: Int?) throws {
        var options = FaceJobOptions(decode: decode == .full ? .full : .shrinkOnLoad(minimumLongSide: shrinkLongSide))
        switch verb {
        case .detect:
            let job = FaceJob(options: options, modelsDirectory: modelsDir)
            try job.prepare(.detect)
            self = .job(job, .detect)
        case .analyze:
            guard decode == .full else {
                throw BenchFailure("--library-decode shrink has no analyze (the library shrinks for the detector only)")
            }
            options.framing = .selfie
            let job = FaceJob(options: options, modelsDirectory: modelsDir)
            try job.prepare(.analyze)
            self = .job(job, .analyze)
        case .decode:
            self = .decoder
        }
    }
}

/// What `--library` measured for one verb and worker count.
struct LibraryResult: Encodable {
    var verb: String
    var configuration: String
    /// Pictures in flight at once: workers, each on its own thread with its own models, one interpreter thread
    /// each (the CLI's `--threads`).
    var threads: Int
    /// files / wall time of each timed pass, in pass order.
    var images_per_second_passes: [Double]
    /// Their median.
    var images_per_second: Double
    /// CPU time (user + system, every thread of the process) per picture, median over the passes.
    var cpu_ms_per_image: Double
    /// Faces found in one pass (the same in every pass), and pictures with at least one.
    var faces: Int
    var images_with_faces: Int
}

/// `--library DIR`: a photo-library scan. Every image file of the folder (recursively, by extension, sorted) is
/// read, decoded and run through `detect`'s or `analyze`'s pipeline, by 1 or more workers that take the next file
/// as they finish (`DispatchQueue.concurrentPerform`, as the CLI's batch). The configurations (verb x workers)
/// alternate pass by pass, each after one untimed pass, so that a change in the machine's load falls on all.
enum LibraryBenchmark {
    static let extensions = ImageFileFormat.allFileExtensions

    /// `decode` with shrink-on-load keeps what the full-range detector's rule keeps (`shrinkOnLoadLongSide`: 9 times
    /// its input side).
    static let fullRangeShrinkLongSide = 9 * FaceDetector.Model.fullRange.configuration.anchors.inputWidth

    /// The decode and pipeline step of one file: the faces found.
    /// - Parameters:
    ///   - path: the file.
    ///   - pipeline: the worker's models.
    ///   - decode: full, or shrink-on-load (`shrinkLongSide`: the fewest pixels kept on the longer side; nil for
    ///     the full-range detector's `shrinkOnLoadLongSide`). The jobs have theirs in their options.
    static func scan(_ path: String, with pipeline: LibraryPipeline, decode: LibraryDecode,
                     shrinkLongSide: Int?) throws -> Int {
        switch (pipeline, decode) {
        case (.job(let job, .detect), _):
            return try job.detect(.file(path)).found.count
        case (.job(let job, .analyze), _):
            return try job.analyze(.file(path)).found.faces.count
        case (.job(let job, .landmarks), _):
            return try job.landmarks(.file(path)).found.count
        case (.decoder, .full):
            _ = try ImageDecoder.decode(contentsOf: path)
            return 0
        case (.decoder, .shrink):
            _ = try ImageDecoder.decodeScaled(contentsOf: path, minimumLongSide: shrinkLongSide ?? Self.fullRangeShrinkLongSide)
            return 0
        }
    }

    /// The image files under `folder`, sorted by path.
    static func files(in folder: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BenchFailure("\(folder): not a folder")
        }
        guard let walker = FileManager.default.enumerator(atPath: folder) else { throw BenchFailure("\(folder): cannot list") }
        var paths: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard !name.hasPrefix("."), extensions.contains((name as NSString).pathExtension.lowercased()) else { continue }
            paths.append((folder as NSString).appendingPathComponent(relative))
        }
        guard !paths.isEmpty else { throw BenchFailure("\(folder): no image files (\(extensions.sorted().joined(separator: ", ")))") }
        return paths.sorted()
    }

    /// Measures every verb at every worker count: `passes` timed passes each, after one untimed, alternating.
    static func run(folder: String, verbs: [LibraryVerb], threads: [Int], decode: LibraryDecode, shrinkLongSide: Int?,
                    passes: Int, modelsDir: String?, progress: (String) -> Void) throws -> LibraryReport {
        let paths = try files(in: folder)
        // As the `blazeface` command does at start-up: picture buffers stay in the allocator's heap between files.
        let keepsBlocks = PictureMemory.keepLargeBlocks()
        let configurations = verbs.flatMap { verb in threads.map { (verb, $0) } }
        let workers = try configurations.map { verb, count in
            try (0..<count).map { _ in try LibraryPipeline(verb, modelsDir: modelsDir, decode: decode, shrinkLongSide: shrinkLongSide) }
        }
        var rates = configurations.map { _ in [Double]() }, cpu = rates
        var faces = configurations.map { _ in (faces: 0, images: 0) }
        for pass in 0...passes {
            for (index, (verb, count)) in configurations.enumerated() {
                progress("\(verb.rawValue), \(count) thread\(count == 1 ? "" : "s"): \(pass == 0 ? "untimed pass" : "pass \(pass) of \(passes)") ...")
                let result = try self.pass(paths, workers: workers[index], decode: decode, shrinkLongSide: shrinkLongSide)
                if pass > 0 {
                    rates[index].append(Double(paths.count) / result.seconds)
                    cpu[index].append(result.cpuSeconds * 1000 / Double(paths.count))
                }
                if pass == 1 { faces[index] = (result.faces, result.imagesWithFaces) }
                else if pass > 1, result.faces != faces[index].faces {
                    throw BenchFailure("\(verb.rawValue): \(result.faces) faces in pass \(pass), \(faces[index].faces) in pass 1")
                }
            }
        }
        let results = configurations.enumerated().map { index, configuration in
            LibraryResult(verb: configuration.0.rawValue, configuration: configuration.0.configuration,
                          threads: configuration.1, images_per_second_passes: rates[index].map { r($0, 2) },
                          images_per_second: r(median(rates[index]), 2), cpu_ms_per_image: r(median(cpu[index]), 2),
                          faces: faces[index].faces, images_with_faces: faces[index].images)
        }
        return LibraryReport(folder: folder, paths: paths, decode: decode, shrinkLongSide: shrinkLongSide, passes: passes,
                             keepsLargeBlocks: keepsBlocks, results: results)
    }

    /// One pass over every file by `workers.count` workers; fails on the first file that fails.
    private static func pass(_ paths: [String], workers: [LibraryPipeline], decode: LibraryDecode,
                             shrinkLongSide: Int?) throws -> (seconds: Double, cpuSeconds: Double, faces: Int, imagesWithFaces: Int) {
        let state = ScanState(count: paths.count)
        let cpu0 = processCPUSeconds(), t0 = nowNanoseconds()
        DispatchQueue.concurrentPerform(iterations: workers.count) { worker in
            while let index = state.next() {
                do {
                    state.finish(faces: try scan(paths[index], with: workers[worker], decode: decode,
                                                    shrinkLongSide: shrinkLongSide))
                } catch {
                    state.fail("\(paths[index]): \(error)")
                }
            }
        }
        let seconds = Double(nowNanoseconds() &- t0) / 1e9, cpuSeconds = processCPUSeconds() - cpu0
        if let failure = state.failure { throw BenchFailure(failure) }
        return (seconds, cpuSeconds, state.faces, state.imagesWithFaces)
    }

    /// User + system CPU seconds of every thread of this process so far.
    static func processCPUSeconds() -> Double {
        let usage = selfUsage()
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// The files a pass hands out, and what its workers found.
private final class ScanState: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var nextIndex = 0
    private(set) var faces = 0
    private(set) var imagesWithFaces = 0
    private(set) var failure: String?

    init(count: Int) { self.count = count }

    /// The next file's index; nil when every file is taken or one failed.
    func next() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard nextIndex < count, failure == nil else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    func finish(faces found: Int) {
        lock.lock(); defer { lock.unlock() }
        faces += found
        if found > 0 { imagesWithFaces += 1 }
    }

    func fail(_ message: String) {
        lock.lock(); defer { lock.unlock() }
        if failure == nil { failure = message }
    }
}

/// `"library"` in the JSON report.
struct LibraryReport: Encodable {
    var folder: String
    var files: Int
    /// Files per extension (lowercased).
    var extensions: [String: Int]
    var total_bytes: Int
    var decode: String
    var decode_configuration: String
    /// `--library-shrink-long-side`, with `--library-decode shrink` (nil: the detector's `shrinkOnLoadLongSide`,
    /// 1,728 for full-range).
    var shrink_long_side: Int?
    /// Whether `PictureMemory.keepLargeBlocks()` took effect (glibc), as in the `blazeface` command.
    var keeps_large_blocks: Bool
    var passes: Int
    var results: [LibraryResult]

    init(folder: String, paths: [String], decode: LibraryDecode, shrinkLongSide: Int?, passes: Int,
         keepsLargeBlocks: Bool, results: [LibraryResult]) {
        self.folder = folder
        files = paths.count
        extensions = Dictionary(paths.map { (($0 as NSString).pathExtension.lowercased(), 1) }, uniquingKeysWith: +)
        total_bytes = paths.reduce(0) { sum, path in
            sum + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
        self.decode = decode.rawValue
        decode_configuration = decode.configuration(shrinkLongSide: shrinkLongSide)
        shrink_long_side = decode == .shrink ? shrinkLongSide : nil
        keeps_large_blocks = keepsLargeBlocks
        self.passes = passes
        self.results = results
    }

    /// The text report.
    var table: String {
        let kinds = extensions.sorted { $0.key < $1.key }.map { "\($0.value) .\($0.key)" }.joined(separator: ", ")
        var lines = ["",
                     "Library scan of \(folder): \(files) files (\(kinds)), \(fixed(Double(total_bytes) / 1e6, 1)) MB; "
                     + "\(passes) timed passes per row after one untimed, rows alternating pass by pass.",
                     "Decode: \(decode_configuration)."]
        let head = [pad("verb", 8, right: false), pad("threads", 7), pad("images/s", 9), pad("passes", 24, right: false),
                    pad("CPU ms/image", 12), pad("faces", 6), pad("with faces", 10)]
        lines.append(head.joined(separator: " "))
        lines.append(String(repeating: "-", count: lines.last!.count))
        for x in results {
            let cells = [pad(x.verb, 8, right: false), pad("\(x.threads)", 7), pad(fixed(x.images_per_second, 2), 9),
                         pad(x.images_per_second_passes.map { fixed($0, 1) }.joined(separator: " "), 24, right: false),
                         pad(fixed(x.cpu_ms_per_image, 1), 12), pad("\(x.faces)", 6), pad("\(x.images_with_faces)", 10)]
            lines.append(cells.joined(separator: " "))
        }
        lines.append("(threads: pictures in flight, one worker each with its own models and one interpreter thread, "
                     + "as blazeface's --threads; images/s: median over the passes of files / wall time)")
        for verb in Set(results.map(\.verb)).sorted() {
            lines.append("\(verb): \(results.first { $0.verb == verb }!.configuration)")
        }
        return lines.joined(separator: "\n")
    }
}
