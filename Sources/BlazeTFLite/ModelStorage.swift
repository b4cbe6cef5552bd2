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

    /// Reads a whole file. Refuses files larger than `maximumSize` before allocating.
    init(path: String, maximumSize: Int) throws(TFLiteError) {
        guard let file = fopen(path, "rb") else {
            throw TFLiteError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        var info = stat()
        guard fstat(fileno(file), &info) == 0 else {
            throw TFLiteError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw TFLiteError.cannotOpen(path: path, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= maximumSize else {
            throw TFLiteError.cannotOpen(path: path, reason: "file has \(size) bytes, more than the limit of \(maximumSize)")
        }
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 64)
        let read = size > 0 ? fread(memory.baseAddress!, 1, size, file) : 0
        guard read == size else {
            memory.deallocate()
            throw TFLiteError.cannotOpen(path: path, reason: "read \(read) of \(size) bytes")
        }
        bytes = UnsafeRawBufferPointer(rebasing: memory[0..<size])
    }

    deinit {
        UnsafeMutableRawPointer(mutating: bytes.baseAddress!).deallocate()
    }
}
