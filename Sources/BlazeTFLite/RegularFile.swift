#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file whose name came from a user (a model here, a `.npy` array in BlazeNPY): it may be a
/// FIFO, a link to `/dev/zero`, or larger than the caller allows.
///
/// The file is opened non-blocking, so a FIFO cannot stall the call; anything but a regular file (after links
/// are followed: a link to a device is a device) is refused before a byte is read, and the size is checked
/// against the limit before the memory is allocated. Exactly that many bytes are read.
package enum RegularFile {
    package enum Failure: Error, Equatable {
        /// A system call failed; the system's reason.
        case system(String)
        case notRegular
        case tooLarge(size: Int, limit: Int)
        /// The file ended (shrank) after `read` of its `size` bytes.
        case shortRead(read: Int, size: Int)

        /// The reason, for an error message.
        package var reason: String {
            switch self {
            case let .system(reason): return reason
            case .notRegular: return "not a regular file"
            case let .tooLarge(size, limit): return "file has \(size) bytes, more than the limit of \(limit)"
            case let .shortRead(read, size): return "read \(read) of \(size) bytes"
            }
        }
    }

    /// The file's bytes in new memory aligned to `alignment` (at least one byte is allocated; the buffer's
    /// count is the file's size). The caller deallocates it.
    package static func contents(of path: String, limit: Int, alignment: Int = 64) throws(Failure) -> UnsafeMutableRawBufferPointer {
        func systemFailure() -> Failure { .system(String(cString: strerror(errno))) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw systemFailure() }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw systemFailure() }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notRegular }
        let size = Int(info.st_size)
        guard size <= limit else { throw .tooLarge(size: size, limit: limit) }
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: alignment)
        var done = 0
        while done < size {
            let count = read(descriptor, memory.baseAddress! + done, size - done)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let failure = count < 0 ? systemFailure() : .shortRead(read: done, size: size)
                memory.deallocate()
                throw failure
            }
            done += count
        }
        return UnsafeMutableRawBufferPointer(rebasing: memory[0..<size])
    }
}
