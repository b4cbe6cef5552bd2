import BlazeReports
import Foundation

/// `--json-lines` (with `--files-from` or the usual inputs): one compact JSON line per picture on standard
/// output, written and flushed as soon as the picture is done, in input order (or in completion order with
/// `--unordered`). The line is the picture's entry of the `--json` document (`path` and the report, or `path`
/// and `error`). At most `window` pictures are in flight or waiting for an earlier one to be written, so memory
/// stays bounded however long the input.
final class StreamingBatch<Outcome: ImageOutcome>: @unchecked Sendable {
    /// Guards `pending`, `nextToWrite`, `finished`, `outputClosed`, `failures` and the output.
    private let condition = NSCondition()
    /// Guards the source and `nextIndex`: a read may block for as long as the input stays silent, and must not
    /// hold up the writing of finished lines.
    private let readLock = NSLock()
    private let source: () -> LineSource.Line?
    private let ordered: Bool
    private let window: Int
    private var nextIndex = 0
    private var nextToWrite = 0
    private var finished = false
    private var pending: [Int: [UInt8]] = [:]
    /// Whether writing failed (the reader went away): the workers stop.
    private(set) var outputClosed = false
    /// How many pictures failed.
    private(set) var failures = 0

    init(source: @escaping () -> LineSource.Line?, ordered: Bool, window: Int) {
        self.source = source
        self.ordered = ordered
        self.window = window
    }

    /// Runs `process` on every line with `workers` threads, writing each result's line.
    func run(workers: Int, process: @escaping @Sendable (_ worker: Int, _ path: String) -> Outcome) {
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            while let (index, line) = take() {
                let outcome: Outcome
                switch line {
                case .path(let path): outcome = process(worker, path)
                case .tooLong(let prefix):
                    outcome = Outcome(path: prefix + "...", error: "the line is longer than 16384 bytes")
                }
                put(index, outcome)
            }
        }
    }

    /// The next line and its index, waiting while the ordered window is full; nil at the end.
    private func take() -> (Int, LineSource.Line)? {
        readLock.lock()
        defer { readLock.unlock() }
        condition.lock()
        while ordered && nextIndex - nextToWrite >= window && !outputClosed { condition.wait() }
        let stop = finished || outputClosed
        condition.unlock()
        guard !stop, let line = source() else {
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
            return nil
        }
        nextIndex += 1
        return (nextIndex - 1, line)
    }

    /// Writes the outcome's line now (unordered) or once every earlier one is written.
    private func put(_ index: Int, _ outcome: Outcome) {
        let line = ((try? ReportJSON.compact(outcome)).map { [UInt8]($0) } ?? Array(#"{"error":"unencodable"}"#.utf8)) + [0x0A]
        condition.lock()
        defer { condition.unlock() }
        if outcome.summary == nil { failures += 1 }
        if !ordered {
            write(line)
            return
        }
        pending[index] = line
        while let next = pending.removeValue(forKey: nextToWrite) {
            write(next)
            nextToWrite += 1
        }
        condition.broadcast()
    }

    /// One `write(2)` loop per line, so each line leaves the process whole and at once.
    private func write(_ line: [UInt8]) {
        guard !outputClosed else { return }
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    outputClosed = true
                    return
                }
                offset += written
            }
        }
    }
}
