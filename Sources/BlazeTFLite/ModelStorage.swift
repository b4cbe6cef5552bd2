import BlazeFiles

/// The bytes of a model file, owned, immutable and 64-byte aligned, so weights can be used in place.
final class ModelStorage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    /// Copies `source` into new aligned storage.
    init(copying source: UnsafeRawBufferPointer) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 64)
        if source.count > 0 { memory.copyMemory(from: source) }
        bytes = UnsafeRawBufferPointer(rebasing: memory[0..<source.count])
    }

    /// Reads a whole file (`RegularFile`: a regular file only, opened non-blocking, its size checked against
    /// `maximumSize` before allocating).
    init(path: String, maximumSize: Int) throws(TFLiteError) {
        do { bytes = UnsafeRawBufferPointer(try RegularFile.contents(of: path, limit: maximumSize)) } catch {
            throw .cannotOpen(path: path, reason: error.reason)
        }
    }

    deinit {
        UnsafeMutableRawPointer(mutating: bytes.baseAddress!).deallocate()
    }
}
