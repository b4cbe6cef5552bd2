import Foundation

/// One memory sample: after `frame` frames, `seconds` into the run.
struct RSSSample {
    var frame: Int
    var seconds: Double
    var bytes: Int

    static func csv(_ samples: [RSSSample]) -> String {
        "frame,seconds,rss_bytes\n" + samples.map { "\($0.frame),\(String(format: "%.3f", $0.seconds)),\($0.bytes)\n" }.joined()
    }
}

/// The numbers of a soak: memory at the start, after warm-up, its peak after warm-up, and at the end.
struct RSSSummary {
    var first: RSSSample
    var warmup: RSSSample
    var peakAfterWarmup: RSSSample
    var last: RSSSample
    /// Last sample minus the warm-up sample, in bytes (negative when memory went down).
    var growth: Int { last.bytes - warmup.bytes }

    /// `samples` is not empty; the warm-up sample is the first at or after `warmupFrames` (the last one if none).
    init(_ samples: [RSSSample], warmupFrames: Int) {
        first = samples[0]
        last = samples[samples.count - 1]
        let start = samples.firstIndex { $0.frame >= warmupFrames } ?? samples.count - 1
        warmup = samples[start]
        peakAfterWarmup = samples[start...].max { $0.bytes < $1.bytes }!
    }

    func report(current: Bool) -> String {
        func mib(_ sample: RSSSample) -> String {
            String(format: "%.1f MiB at frame %d", Double(sample.bytes) / 1_048_576, sample.frame)
        }
        return """
            resident memory (\(current ? "current, /proc/self/statm" : "peak, getrusage")):
              start \(mib(first))
              after warm-up \(mib(warmup))
              peak after warm-up \(mib(peakAfterWarmup))
              end \(mib(last))
              growth after warm-up \(String(format: "%+.2f", Double(growth) / 1_048_576)) MiB
            """
    }
}
