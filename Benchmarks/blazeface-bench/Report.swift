import BlazeFace
import BlazeRuntime
import CAllocationCounter
import Foundation

/// The single-core arithmetic limit assumed for the "% of limit" column: ~90 GFLOP/s (one Zen3 core,
/// two 8-wide FMA units at ~2.8–3 GHz; a register-tiled SIMD8 GEMM measured 93–101 on this machine).
let singleCoreLimitGFLOPS = 90.0

// MARK: - JSON

struct JSONReport: Encodable {
    /// Invoke results (one per model), then pipeline results (`--pipelines`).
    var results: [JSONResult]
    var detect: [JSONDetect]
    /// `--decode`: the video read on the calling thread and through a `FramePrefetcher`.
    var decode: [DecodeResult]?
    /// `--library`: the photo-library scan.
    var library: LibraryReport?
    var settings: JSONSettings
}

struct JSONSettings: Encodable {
    var iterations: Int
    var warmup: Int
    var loads: Int
    var threads: Int
    var time_limit_s: Double?
    var input_pattern: String
    var arithmetic_limit_gflops_per_thread: Double
    var allocation_counting: String
    var peak_rss: String
    var cpus: Int
}

struct JSONInvoke: Encodable {
    var model: String
    var path: String
    var threads: Int
    var median_ms: Double
    var min_ms: Double
    var p90_ms: Double
    var max_ms: Double
    var mean_ms: Double
    var iterations: Int
    var warmup: Int
    var allocations_per_invoke: Double
    var gflops: Double
    var arithmetic_limit_gflops: Double
    var share_of_limit: Double
    var peak_rss_bytes: Int
    var load_ms: Double
    var load_ms_samples: [Double]
    var arena_bytes: Int
    var macs: Int
    var steps: Int
    var input_shapes: [[Int]]
    var per_op: [JSONStep]?
}

/// An entry of `results`: a model's invoke figures or a pipeline's, each encoded as its own object.
enum JSONResult: Encodable {
    case invoke(JSONInvoke)
    case pipeline(JSONPipeline)

    func encode(to encoder: Encoder) throws {
        switch self {
        case let .invoke(x): try x.encode(to: encoder)
        case let .pipeline(x): try x.encode(to: encoder)
        }
    }
}

/// One pipeline of `--pipelines` (`detect`, `landmarks`, `landmarks-tracking`, `segmentation`,
/// `segmentation-landscape`; the last two with `person_share` and the breakdown `invoke_median_ms` (bare model
/// invoke), `model_resolution_median_ms` (the segmenter without the resize) and `resize_median_ms`).
struct JSONPipeline: Encodable {
    var pipeline: String
    var configuration: String
    var threads: Int
    var image: String
    var frame_width: Int
    var frame_height: Int
    var median_ms: Double
    var min_ms: Double
    var p90_ms: Double
    var mean_ms: Double
    var iterations: Int
    var allocations_per_frame: Double
    var faces: Int
    var presence: Double?
    var tracked_throughout: Bool?
    var person_share: Double?
    var invoke_median_ms: Double?
    var model_resolution_median_ms: Double?
    var model_resolution_allocations_per_frame: Double?
    var resize_median_ms: Double?
}

struct JSONStep: Encodable {
    var step: Int
    var operator_index: Int
    var `operator`: String
    var kernel: String
    var output_shape: [Int]
    var macs: Int
    var median_us: Double
    var percent: Double
    var gflops: Double?
}

struct JSONDetect: Encodable {
    var model: String
    var threads: Int
    var image: String
    var frame_width: Int
    var frame_height: Int
    var median_ms: Double
    var min_ms: Double
    var p90_ms: Double
    var iterations: Int
    var allocations_per_detect: Double
    var invoke_median_ms: Double
    var invoke_min_ms: Double
    var invoke_p90_ms: Double
    var allocations_per_invoke: Double
    var detect_to_invoke_ratio: Double
    var overhead_ms: Double
    /// The preprocessing step alone (timed in its own blocks), part of the overhead.
    var preprocess_median_ms: Double
    var faces: Int
    var top_score: Double?
}

/// Rounds for display in JSON (the decoder prints the shortest round-trip form).
func r(_ x: Double, _ digits: Int = 4) -> Double {
    let scale = pow(10.0, Double(digits))
    return (x * scale).rounded() / scale
}

extension InvokeResult {
    var limit: Double { singleCoreLimitGFLOPS * Double(threads) }

    var json: JSONInvoke {
        let total = profile.map { $0.reduce(0) { $0 + $1.medianMicroseconds } } ?? 0
        return JSONInvoke(
            model: model.name, path: model.path, threads: threads, median_ms: r(invoke.medianMs),
            min_ms: r(invoke.minMs), p90_ms: r(invoke.p90Ms), max_ms: r(invoke.maxMs), mean_ms: r(invoke.meanMs),
            iterations: iterations, warmup: warmup,
            allocations_per_invoke: Double(allocations) / Double(iterations), gflops: r(gflops, 2),
            arithmetic_limit_gflops: limit, share_of_limit: r(gflops / limit, 4),
            peak_rss_bytes: peakResidentBytes, load_ms: r(median(loadMs), 3), load_ms_samples: loadMs.map { r($0, 3) },
            arena_bytes: arenaBytes, macs: multiplyAccumulates, steps: stepCount, input_shapes: inputShapes,
            per_op: profile?.map { p in
                JSONStep(step: p.step, operator_index: p.description.operatorIndex, operator: p.description.operatorName,
                         kernel: p.description.kernel, output_shape: p.description.outputShape,
                         macs: p.description.multiplyAccumulates, median_us: r(p.medianMicroseconds, 3),
                         percent: r(total > 0 ? 100 * p.medianMicroseconds / total : 0, 2),
                         gflops: p.description.multiplyAccumulates > 0 && p.medianMicroseconds > 0
                            ? r(2 * Double(p.description.multiplyAccumulates) / (p.medianMicroseconds * 1e3), 2) : nil)
            })
    }
}

extension DetectResult {
    var json: JSONDetect {
        JSONDetect(
            model: model.name, threads: threads, image: frame.recipe, frame_width: frame.width,
            frame_height: frame.height, median_ms: r(detect.medianMs), min_ms: r(detect.minMs), p90_ms: r(detect.p90Ms),
            iterations: iterations, allocations_per_detect: Double(detectAllocations) / Double(iterations),
            invoke_median_ms: r(invoke.medianMs), invoke_min_ms: r(invoke.minMs), invoke_p90_ms: r(invoke.p90Ms),
            allocations_per_invoke: Double(invokeAllocations) / Double(iterations),
            detect_to_invoke_ratio: r(detect.medianMs / invoke.medianMs, 3),
            overhead_ms: r(detect.medianMs - invoke.medianMs), preprocess_median_ms: r(preprocess.medianMs),
            faces: faces.count,
            top_score: faces.first.map { r(Double($0.score), 4) })
    }
}

extension PipelineResult {
    var json: JSONPipeline {
        JSONPipeline(
            pipeline: name.rawValue, configuration: name.configuration(threads: threads), threads: threads,
            image: frame.recipe, frame_width: frame.width, frame_height: frame.height, median_ms: r(timing.medianMs),
            min_ms: r(timing.minMs), p90_ms: r(timing.p90Ms), mean_ms: r(timing.meanMs), iterations: iterations,
            allocations_per_frame: Double(allocations) / Double(iterations), faces: faces,
            presence: presence.map { r(Double($0), 4) }, tracked_throughout: trackedThroughout,
            person_share: personShare.map { r($0, 4) }, invoke_median_ms: breakdown.map { r($0.invoke.medianMs) },
            model_resolution_median_ms: breakdown.map { r($0.modelResolution.medianMs) },
            model_resolution_allocations_per_frame: breakdown.map { Double($0.modelResolutionAllocations) / Double(iterations) },
            resize_median_ms: breakdown.map { r($0.resize.medianMs) })
    }
}

// MARK: - Text

func pad(_ s: String, _ width: Int, right: Bool = true) -> String {
    let n = s.count
    guard n < width else { return s }
    let fill = String(repeating: " ", count: width - n)
    return right ? fill + s : s + fill
}

func fixed(_ x: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", x) }

func allocationText(_ count: Int, per: Int) -> String {
    guard blaze_allocation_counting_available() == 1 else { return "n/a" }
    let value = Double(count) / Double(per)
    return value == value.rounded() ? String(Int(value)) : fixed(value, 2)
}

enum TextReport {
    static func header(threads: Int, iterations: Int, warmup: Int, loads: Int) -> String {
        """
        blazeface-bench: \(iterations) timed invokes after \(warmup) warm-up invokes per model, \(threads) thread\(threads == 1 ? "" : "s"); \
        load = median of \(loads) loads (parse, fold, pack, plan).
        Times are per invoke (median, min, p90 in ms). GFLOP/s = 2 x MACs / median. "% limit" assumes \
        ~\(Int(singleCoreLimitGFLOPS)) GFLOP/s per thread (one Zen3 core, AVX2 FMA), x \(threads) = \
        \(Int(singleCoreLimitGFLOPS) * threads) GFLOP/s.
        allocs = heap allocations per invoke, all threads; peak RSS = the process's high-water mark \
        while the model was loaded and run.
        """
    }

    static func invokeTable(_ results: [InvokeResult]) -> String {
        let columns: [(String, Int)] = [("model", 18), ("load ms", 8), ("median ms", 10), ("min ms", 8), ("p90 ms", 8),
                                        ("GFLOP/s", 8), ("% limit", 8), ("allocs", 7), ("MMACs", 7),
                                        ("arena KiB", 10), ("peak RSS MiB", 13)]
        var lines = [columns.enumerated().map { $0.offset == 0 ? pad($0.element.0, $0.element.1, right: false) : pad($0.element.0, $0.element.1) }.joined(separator: " ")]
        lines.append(String(repeating: "-", count: lines[0].count))
        for x in results {
            let cells = [
                pad(x.model.name, 18, right: false), pad(fixed(median(x.loadMs), 2), 8), pad(fixed(x.invoke.medianMs, 3), 10),
                pad(fixed(x.invoke.minMs, 3), 8), pad(fixed(x.invoke.p90Ms, 3), 8), pad(fixed(x.gflops, 1), 8),
                pad(fixed(100 * x.gflops / x.limit, 1), 8), pad(allocationText(x.allocations, per: x.iterations), 7),
                pad(fixed(Double(x.multiplyAccumulates) / 1e6, 1), 7), pad(fixed(Double(x.arenaBytes) / 1024, 0), 10),
                pad(fixed(Double(x.peakResidentBytes) / 1_048_576, 1), 13),
            ]
            lines.append(cells.joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }

    static func profileTable(_ x: InvokeResult) -> String {
        guard let profile = x.profile else { return "" }
        let total = profile.reduce(0) { $0 + $1.medianMicroseconds }
        var lines = ["",
                     "per-op profile: \(x.model.name), \(x.threads) thread\(x.threads == 1 ? "" : "s"), median of \(x.iterations) profiled invokes per step",
                     "(each step timed on its own; the sum of step medians, \(fixed(total / 1000, 3)) ms, includes the timer's overhead; the plain invoke median was \(fixed(x.invoke.medianMs, 3)) ms)"]
        if profile.contains(where: { $0.description.lane != nil }) {
            lines.append("(steps marked \"lane L\" belong to chains that invoke() runs side by side, lane L on thread L; here each is timed alone, whole, on the calling thread)")
        }
        let head = [pad("step", 5), pad("op#", 4), pad("operator", 20, right: false), pad("kernel", 28, right: false),
                    pad("output shape", 18, right: false), pad("MACs", 10), pad("µs", 9), pad("%", 6), pad("GFLOP/s", 8)]
        lines.append(head.joined(separator: " "))
        lines.append(String(repeating: "-", count: lines.last!.count))
        for p in profile {
            let d = p.description
            let g = d.multiplyAccumulates > 0 && p.medianMicroseconds > 0
                ? fixed(2 * Double(d.multiplyAccumulates) / (p.medianMicroseconds * 1e3), 1) : "-"
            let cells = [pad(String(p.step), 5), pad(String(d.operatorIndex), 4), pad(d.operatorName, 20, right: false),
                         pad(d.lane.map { "\(d.kernel) lane \($0)" } ?? (d.threads > 1 ? "\(d.kernel) x\(d.threads)" : d.kernel), 28, right: false), pad(d.outputShape.map(String.init).joined(separator: "x"), 18, right: false),
                         pad(d.multiplyAccumulates > 0 ? String(d.multiplyAccumulates) : "-", 10),
                         pad(fixed(p.medianMicroseconds, 2), 9), pad(fixed(total > 0 ? 100 * p.medianMicroseconds / total : 0, 1), 6),
                         pad(g, 8)]
            lines.append(cells.joined(separator: " "))
        }
        // By operator kind.
        var byKind: [String: (us: Double, macs: Int, count: Int)] = [:]
        for p in profile {
            let key = p.description.kernel
            byKind[key, default: (0, 0, 0)].us += p.medianMicroseconds
            byKind[key, default: (0, 0, 0)].macs += p.description.multiplyAccumulates
            byKind[key, default: (0, 0, 0)].count += 1
        }
        lines.append("")
        lines.append("by kernel: " + [pad("kernel", 28, right: false), pad("steps", 5), pad("µs", 9), pad("%", 6), pad("GFLOP/s", 8)].joined(separator: " "))
        for (kernel, v) in byKind.sorted(by: { $0.value.us > $1.value.us }) {
            let g = v.macs > 0 ? fixed(2 * Double(v.macs) / (v.us * 1e3), 1) : "-"
            lines.append("           " + [pad(kernel, 28, right: false), pad(String(v.count), 5), pad(fixed(v.us, 2), 9),
                                           pad(fixed(100 * v.us / total, 1), 6), pad(g, 8)].joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }

    static func pipelineTable(_ results: [PipelineResult]) -> String {
        guard let first = results.first else { return "" }
        var lines = ["",
                     "Pipelines on \(first.frame.recipe), rgb8, \(first.iterations) timed frames each, alternating blocks of 10:"]
        var configurations: [String] = []
        for p in results where !configurations.contains(p.name.configuration(threads: p.threads)) {
            configurations.append(p.name.configuration(threads: p.threads))
        }
        lines += configurations.map { $0 + "." }
        let head = [pad("pipeline", 22, right: false), pad("median ms", 10), pad("min ms", 8), pad("p90 ms", 8),
                    pad("allocs/frame", 13), pad("faces", 6), pad("presence", 9)]
        lines.append(head.joined(separator: " "))
        lines.append(String(repeating: "-", count: lines.last!.count))
        for p in results {
            let cells = [pad(p.name.rawValue, 22, right: false), pad(fixed(p.timing.medianMs, 3), 10),
                         pad(fixed(p.timing.minMs, 3), 8), pad(fixed(p.timing.p90Ms, 3), 8),
                         pad(allocationText(p.allocations, per: p.iterations), 13),
                         pad(p.breakdown == nil ? String(p.faces) : "-", 6),
                         pad(p.presence.map { fixed(Double($0), 3) } ?? "-", 9)]
            lines.append(cells.joined(separator: " "))
        }
        for p in results {
            if let b = p.breakdown {
                lines.append("\(p.name.rawValue): \(fixed(100 * (p.personShare ?? 0), 1))% person; bare invoke "
                             + "\(fixed(b.invoke.medianMs, 3)) ms, at the model's resolution (preprocessing + invoke) "
                             + "\(fixed(b.modelResolution.medianMs, 3)) ms, mask resize alone \(fixed(b.resize.medianMs, 3)) ms")
            }
        }
        for p in results {
            guard let base = p.name.withoutAttributes, let without = results.first(where: { $0.name == base }) else {
                continue
            }
            let extra = p.timing.medianMs - without.timing.medianMs
            lines.append("\(p.name.rawValue) over \(base.rawValue): +\(fixed(1000 * extra, 1)) us per frame "
                         + "(\(fixed(100 * extra / without.timing.medianMs, 1))% of its median)")
            if let b = p.attributeBreakdown {
                lines.append("  per face alone (median us): head pose \(fixed(1000 * b.pose.medianMs, 1)), expression "
                             + "\(fixed(1000 * b.expression.medianMs, 1)), capture quality "
                             + "\(fixed(1000 * b.quality.medianMs, 1)) (pose and eyes given)")
            }
        }
        if results.contains(where: { $0.trackedThroughout == false }) {
            lines.append("(landmarks-tracking or tracking lost the face on some frame: the detector ran again there)")
        }
        return lines.joined(separator: "\n")
    }

    static func detectTable(_ results: [DetectResult]) -> String {
        guard let first = results.first else { return "" }
        var lines = ["",
                     "FaceDetector.detect(_:into:) on \(first.frame.recipe), rgb8, \(first.iterations) timed calls, alternating blocks of 10 with bare invokes and with the preprocessing step alone:"]
        let head = [pad("model", 18, right: false), pad("detect ms", 10), pad("min ms", 8), pad("p90 ms", 8), pad("allocs", 7),
                    pad("invoke ms", 10), pad("detect/invoke", 14), pad("overhead ms", 12), pad("preprocess ms", 14), pad("faces", 6)]
        lines.append(head.joined(separator: " "))
        lines.append(String(repeating: "-", count: lines.last!.count))
        for d in results {
            let cells = [pad(d.model.name, 18, right: false), pad(fixed(d.detect.medianMs, 3), 10), pad(fixed(d.detect.minMs, 3), 8),
                         pad(fixed(d.detect.p90Ms, 3), 8), pad(allocationText(d.detectAllocations, per: d.iterations), 7),
                         pad(fixed(d.invoke.medianMs, 3), 10), pad(fixed(d.detect.medianMs / d.invoke.medianMs, 2), 14),
                         pad(fixed(d.detect.medianMs - d.invoke.medianMs, 3), 12), pad(fixed(d.preprocess.medianMs, 3), 14),
                         pad(String(d.faces.count), 6)]
            lines.append(cells.joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }
}
