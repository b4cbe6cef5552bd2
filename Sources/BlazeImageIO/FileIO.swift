#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BlazeFiles

/// Whole-file reads (through BlazeFiles' `RegularFile`) and writes with POSIX calls, reporting the system's reason
/// on failure.
enum FileIO {
    /// The whole file at `path`, which must be a regular file of at most `limit` bytes (`RegularFile`: opened
    /// non-blocking, so a FIFO or a device cannot stall the call; anything but a regular file refused before a byte
    /// is read; the size checked against `limit` before the buffer is allocated).
    /// - Throws: `ImageIOError.cannotRead`, `.notARegularFile`, `.fileTooLarge`.
    static func readAll(_ path: String, limit: Int) throws(ImageIOError) -> [UInt8] {
        do { return try RegularFile.bytes(of: path, limit: limit) } catch {
            switch error {
            case let .notRegular(kind): throw .notARegularFile(path: path, kind: kind)
            case let .tooLarge(size, limit): throw .fileTooLarge(path: path, bytes: size, limit: limit)
            case .system, .shortRead: throw .cannotRead(path: path, reason: error.reason)
            }
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(ImageIOError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: lastErrorReason()) }
        var written = 0
        let failure: String? = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = posixWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return lastErrorReason()
                }
                written += count
            }
            return nil
        }
        let closed = close(descriptor) == 0 ? nil : lastErrorReason()
        if let reason = failure ?? closed { throw .cannotWrite(path: path, reason: reason) }
    }

    private static func lastErrorReason() -> String {
        String(cString: strerror(errno))
    }
}

/// POSIX write(2) under a name that does not clash with `FileIO.write`.
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
