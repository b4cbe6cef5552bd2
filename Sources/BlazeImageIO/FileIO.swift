#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and writes with POSIX calls, reporting the system's reason on failure.
enum FileIO {
    /// The whole file at `path`, which must be a regular file of at most `limit` bytes.
    ///
    /// The file is opened non-blocking, so a FIFO or a device cannot stall the call; anything but a regular
    /// file (after following links: a link to `/dev/zero` is a device) is refused before a byte is read. The
    /// size is checked against `limit` before the buffer is allocated, and reading stops past `limit` bytes
    /// even if the file grows meanwhile.
    /// - Throws: `ImageIOError.cannotRead`, `.notARegularFile`, `.fileTooLarge`.
    static func readAll(_ path: String, limit: Int) throws(ImageIOError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: lastErrorReason()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .cannotRead(path: path, reason: lastErrorReason()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notARegularFile(path: path, kind: fileKind(info.st_mode)) }
        let size = Int(info.st_size)
        guard size <= limit else { throw .fileTooLarge(path: path, bytes: size, limit: limit) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = read(descriptor, chunk.baseAddress, chunk.count)
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, reason: lastErrorReason())
            }
            guard bytes.count + count <= limit else {
                throw .fileTooLarge(path: path, bytes: bytes.count + count, limit: limit)
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
    }

    /// What a file that is not a regular file is, for the error message.
    private static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
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
