import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic nanoseconds (no allocation).
@inline(__always)
func nowNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
}

/// An optional time limit measured from its creation.
struct Deadline {
    private let end: UInt64?

    init(seconds: Double?) {
        end = seconds.map { nowNanoseconds() &+ UInt64(max(0, $0) * 1e9) }
    }

    @inline(__always)
    func passed(at now: UInt64) -> Bool {
        guard let end else { return false }
        return now >= end
    }

    var passed: Bool { passed(at: nowNanoseconds()) }
}

/// Order statistics of a set of durations, in milliseconds.
///
/// The median of an even count is the mean of the two middle values (as Python's `statistics.median`);
/// p90 is the nearest-rank 90th percentile (the ceil(0.9·n)-th smallest), as `Benchmarks/litert_bench.py`.
struct Summary: Equatable {
    var count: Int
    var medianMs: Double
    var minMs: Double
    var p90Ms: Double
    var maxMs: Double
    var meanMs: Double

    init(nanoseconds: [UInt64]) {
        precondition(!nanoseconds.isEmpty, "no samples")
        let sorted = nanoseconds.map { Double($0) / 1e6 }.sorted()
        let n = sorted.count
        count = n
        medianMs = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        minMs = sorted[0]
        maxMs = sorted[n - 1]
        p90Ms = sorted[max(0, Int((0.9 * Double(n)).rounded(.up)) - 1)]
        meanMs = sorted.reduce(0, +) / Double(n)
    }
}

/// Median of doubles (mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty, "no samples")
    let s = values.sorted(), n = s.count
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
}

/// The process's resident-memory high-water mark.
enum ResidentMemory {
    /// Peak resident set size in bytes: `VmHWM` of /proc/self/status on Linux, else `getrusage`'s
    /// `ru_maxrss` (kilobytes on Linux, bytes on Darwin).
    static func peakBytes() -> Int {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
            for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                let digits = line.dropFirst("VmHWM:".count).filter(\.isNumber)
                if let kb = Int(digits) { return kb * 1024 }
            }
        }
        #endif
        let usage = selfUsage()
        #if canImport(Darwin)
        return Int(usage.ru_maxrss)
        #else
        return Int(usage.ru_maxrss) * 1024
        #endif
    }

    /// Returns freed heap memory to the system (glibc's `malloc_trim`), then resets the high-water mark
    /// to the current resident size (Linux: writes 5 to /proc/self/clear_refs), so that each model's peak
    /// is its own. Returns false where this is not possible.
    @discardableResult
    static func resetPeak() -> Bool {
        #if os(Linux)
        // malloc_trim is glibc's (malloc.h, not in the Glibc module): looked up at run time, skipped if absent.
        if let symbol = dlsym(nil, "malloc_trim") {
            typealias MallocTrim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
        #else
        return false
        #endif
    }
}

/// The fixed input pattern both this tool and `Benchmarks/litert_bench.py` write once into every input:
/// element i (C order) = ((i * 37) mod 255) / 127.5 - 1, a deterministic ramp in [-1, 1).
@inline(__always)
func patternValue(_ i: Int) -> Float {
    Float((i &* 37) % 255) / 127.5 - 1
}

/// The resource usage of this process so far (every thread): `getrusage(RUSAGE_SELF)`.
func selfUsage() -> rusage {
    var usage = rusage()
    #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return usage
}
