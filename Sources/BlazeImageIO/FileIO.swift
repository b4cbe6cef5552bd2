#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and writes with POSIX calls, reporting the system's reason on failure.
enum FileIO {
    static func readAll(_ path: String) throws(ImageIOError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: lastErrorReason()) }
        defer { close(descriptor) }
        var info = stat()
        var bytes: [UInt8] = []
        if fstat(descriptor, &info) == 0, info.st_size > 0 { bytes.reserveCapacity(Int(info.st_size)) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = read(descriptor, chunk.baseAddress, chunk.count)
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, reason: lastErrorReason())
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<count]))
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
