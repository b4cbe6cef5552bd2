/// Immutable, 64-byte-aligned storage for a kernel's packed weights or lookup tables.
///
/// Written only during the owning kernel's initialization, read-only afterwards, so sharing it across
/// threads is safe. Kernels read it through `pointer` in `run`, which costs no allocation.
final class PackedBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Element>
    let count: Int

    /// Allocates `count` elements, all set to `value`.
    init(count: Int, repeating value: Element) {
        let capacity = max(count, 1)
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: capacity * MemoryLayout<Element>.stride,
            alignment: max(64, MemoryLayout<Element>.alignment))
        pointer = raw.bindMemory(to: Element.self, capacity: capacity)
        pointer.initialize(repeating: value, count: capacity)
        self.count = count
    }

    /// Copies `elements`.
    convenience init(_ elements: [Element], padding value: Element) {
        self.init(count: elements.count, repeating: value)
        for (i, element) in elements.enumerated() { pointer[i] = element }
    }

    deinit {
        UnsafeMutableRawPointer(pointer).deallocate()
    }
}

extension PackedBuffer where Element == Float {
    /// A fused PRELU's slopes: one per channel, checked, then `zeroPadding` zeros (the GEMM epilogues read
    /// whole 16-wide panels).
    /// - Throws: `KernelError.weightCountMismatch` unless there are `channels` slopes.
    static func slopes(_ values: [Float], channels: Int, zeroPadding: Int = 0) throws(KernelError) -> PackedBuffer<Float> {
        guard values.count == channels else {
            throw .weightCountMismatch(name: "slopes", expected: channels, actual: values.count)
        }
        return PackedBuffer(values + Array(repeating: 0, count: zeroPadding), padding: 0)
    }

    /// The stored values, padding included.
    var values: [Float] { Array(UnsafeBufferPointer(start: pointer, count: count)) }
}
