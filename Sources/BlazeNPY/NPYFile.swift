#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a `.npy` file whose name came from a user: it may be a FIFO, a link to `/dev/zero`, or larger
/// than the memory the caller allows.
enum NPYFile {
    /// The bytes of the regular file at `path`. The file is opened non-blocking (a FIFO cannot stall the
    /// call) and refused unless it is a regular file after links are followed (a device is not); its size is
    /// checked against `maximumBytes` before the buffer is allocated, and a file that grows while it is read
    /// is refused once it passes the limit.
    static func contents(of path: String, maximumBytes: Int) throws(NPYError) -> [UInt8] {
        func failure(_ reason: String) -> NPYError { .cannotRead(path: path, reason: reason) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw failure("not a regular file") }
        let size = Int(info.st_size)
        guard size <= maximumBytes else { throw failure("file has \(size) bytes, more than the limit of \(maximumBytes)") }
        // One byte more than the size: a file that grew since fstat is seen, not cut.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var done = 0
        while true {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, $0.count - done) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw failure(String(cString: strerror(errno))) }
            if count == 0 { break }
            done += count
            guard done <= size else { throw failure("the file grew past \(size) bytes while being read") }
        }
        bytes.removeLast(bytes.count - done)
        return bytes
    }
}
