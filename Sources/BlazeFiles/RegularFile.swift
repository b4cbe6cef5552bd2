#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file whose name came from a user (a model in BlazeTFLite, a `.npy` array in BlazeNPY, a picture
/// in BlazeImageIO): it may be a FIFO, a link to `/dev/zero`, a directory, or larger than the caller allows.
///
/// The file is opened non-blocking, so a FIFO cannot stall the call; anything but a regular file (after links
/// are followed: a link to a device is a device) is refused before a byte is read, and the size is checked
/// against the limit before the memory is allocated. Exactly that many bytes are read: a file that grows
/// meanwhile is read as it was, one that shrinks is `.shortRead`.
///
/// Package-level API (not in any product). Thread-safe: each call opens, reads and closes its own descriptor.
package enum RegularFile {
    /// Why a file could not be read.
    package enum Failure: Error, Equatable {
        /// A system call failed; the system's reason.
        case system(String)
        /// The path is not a regular file; `kind` says what it is ("a directory", "a FIFO (named pipe)", ...).
        case notRegular(kind: String)
        /// The file has `size` bytes, more than `limit`.
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
    /// - Parameters:
    ///   - path: the file's path; links are followed.
    ///   - limit: the largest size accepted, in bytes.
    ///   - alignment: the memory's alignment, in bytes (a power of two; default 64).
    /// - Returns: the bytes, owned by the caller, who deallocates the buffer (`deallocate()`).
    /// - Throws: `Failure.system`, `.notRegular`, `.tooLarge` or `.shortRead`; nothing is left allocated then.
    package static func contents(of path: String, limit: Int, alignment: Int = 64) throws(Failure) -> UnsafeMutableRawBufferPointer {
        try withRegularFile(path, limit: limit) { descriptor, size throws(Failure) in
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: alignment)
            do throws(Failure) { try read(descriptor, into: memory.baseAddress!, size: size) } catch {
                memory.deallocate()
                throw error
            }
            return UnsafeMutableRawBufferPointer(rebasing: memory[0..<size])
        }
    }

    /// The file's bytes as an array.
    /// - Parameters:
    ///   - path: the file's path; links are followed.
    ///   - limit: the largest size accepted, in bytes.
    /// - Returns: the whole file; empty for an empty file.
    /// - Throws: `Failure.system`, `.notRegular`, `.tooLarge` or `.shortRead`.
    package static func bytes(of path: String, limit: Int) throws(Failure) -> [UInt8] {
        try withRegularFile(path, limit: limit) { descriptor, size throws(Failure) in
            guard size > 0 else { return [] }
            var failure: Failure?
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                do throws(Failure) { try read(descriptor, into: buffer.baseAddress!, size: size) } catch { failure = error }
                count = failure == nil ? size : 0
            }
            if let failure { throw failure }
            return bytes
        }
    }

    /// Opens `path` non-blocking, checks that it is a regular file of at most `limit` bytes, and calls `body`
    /// with the descriptor and the size; closes it afterwards.
    private static func withRegularFile<R>(_ path: String, limit: Int,
                                           _ body: (Int32, Int) throws(Failure) -> R) throws(Failure) -> R {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw systemFailure() }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw systemFailure() }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notRegular(kind: kind(info.st_mode)) }
        let size = Int(info.st_size)
        guard size <= limit else { throw .tooLarge(size: size, limit: limit) }
        return try body(descriptor, size)
    }

    /// Reads exactly `size` bytes into `destination`.
    private static func read(_ descriptor: Int32, into destination: UnsafeMutableRawPointer, size: Int) throws(Failure) {
        var done = 0
        while done < size {
            let count = systemRead(descriptor, destination + done, size - done)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw count < 0 ? systemFailure() : .shortRead(read: done, size: size) }
            done += count
        }
    }

    private static func systemFailure() -> Failure { .system(String(cString: strerror(errno))) }

    /// What a file that is not a regular file is, for an error message.
    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }
}

/// POSIX read(2) under a name that does not clash with `RegularFile.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
