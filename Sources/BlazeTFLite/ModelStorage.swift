#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a model file, owned, immutable and 64-byte aligned, so weights can be used in place.
final class ModelStorage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    /// Copies `source` into new aligned storage.
    init(copying source: UnsafeRawBufferPointer) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 64)
        if source.count > 0 { memory.copyMemory(from: source) }
        bytes = UnsafeRawBufferPointer(rebasing: memory[0..<source.count])
    }

    /// Reads a whole file. Opens it non-blocking (a FIFO cannot stall the call), refuses anything but a
    /// regular file (a link to `/dev/zero` is a device) and files larger than `maximumSize` before allocating.
    init(path: String, maximumSize: Int) throws(TFLiteError) {
        func failure(_ reason: String) -> TFLiteError { .cannotOpen(path: path, reason: reason) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw failure("not a regular file") }
        let size = Int(info.st_size)
        guard size <= maximumSize else {
            throw failure("file has \(size) bytes, more than the limit of \(maximumSize)")
        }
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 64)
        var done = 0
        while done < size {
            let count = read(descriptor, memory.baseAddress! + done, size - done)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                memory.deallocate()
                throw failure(count < 0 ? String(cString: strerror(errno)) : "read \(done) of \(size) bytes")
            }
            done += count
        }
        bytes = UnsafeRawBufferPointer(rebasing: memory[0..<size])
    }

    deinit {
        UnsafeMutableRawPointer(mutating: bytes.baseAddress!).deallocate()
    }
}
