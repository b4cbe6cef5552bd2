import Foundation

/// The paths of `--files-from FILE|-`: one per line, read as they come (a pipe may stay open for hours), each at
/// most `maximumLength` bytes. Blank lines are skipped; a trailing `\r` is dropped (files written on Windows).
/// A longer line is discarded up to its end and reported as `.tooLong`, so that no line can make the reader
/// allocate without bound. Not thread-safe: the batch reads it under its lock.
final class LineSource {
    /// One line of the input.
    enum Line: Equatable {
        case path(String)
        /// A line longer than the limit: its first bytes, for the error row.
        case tooLong(prefix: String)
    }

    private let file: UnsafeMutablePointer<FILE>
    private let closesFile: Bool
    private let maximumLength: Int
    private var buffer: [UInt8] = []

    /// Reads standard input for `-`, else the named file.
    /// - Throws: `CommandFailure` when the file cannot be opened or is not a regular file or FIFO.
    init(_ name: String, maximumLength: Int = 16_384) throws {
        self.maximumLength = maximumLength
        if name == "-" {
            guard let input = fdopen(dup(STDIN_FILENO), "r") else { throw CommandFailure("cannot read standard input") }
            file = input
            closesFile = true
        } else {
            var info = stat()
            guard stat(name, &info) == 0 else { throw CommandFailure("--files-from \(name): no such file") }
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFREG || kind == S_IFIFO else {
                throw CommandFailure("--files-from \(name): not a regular file or a pipe")
            }
            guard let opened = fopen(name, "r") else { throw CommandFailure("--files-from \(name): cannot open it") }
            file = opened
            closesFile = true
        }
        buffer.reserveCapacity(256)
    }

    deinit {
        if closesFile { fclose(file) }
    }

    /// The next non-blank line, or nil at the end of the input.
    func next() -> Line? {
        while true {
            buffer.removeAll(keepingCapacity: true)
            var overflow = false, sawAny = false
            while true {
                let character = getc(file)
                if character == EOF { break }
                sawAny = true
                if character == 0x0A { break }
                if buffer.count < maximumLength { buffer.append(UInt8(character)) } else { overflow = true }
            }
            if !sawAny { return nil }
            if buffer.last == 0x0D { buffer.removeLast() }
            if overflow { return .tooLong(prefix: String(decoding: buffer.prefix(64), as: UTF8.self)) }
            if buffer.isEmpty { continue }
            return .path(String(decoding: buffer, as: UTF8.self))
        }
    }
}
