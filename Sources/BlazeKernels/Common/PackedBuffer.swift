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
    /// An epilogue's PReLU slopes: one per channel, checked, then `zeroPadding` zeros (the GEMM epilogues read
    /// whole 16-wide panels); nil for none.
    /// - Throws: `KernelError.weightCountMismatch` unless there are `channels` slopes.
    static func slopes(_ values: [Float]?, channels: Int, zeroPadding: Int = 0) throws(KernelError) -> PackedBuffer<Float>? {
        guard let values else { return nil }
        guard values.count == channels else {
            throw .weightCountMismatch(name: "slopes", expected: channels, actual: values.count)
        }
        return PackedBuffer(values + Array(repeating: 0, count: zeroPadding), padding: 0)
    }

    /// The stored values, padding included.
    var values: [Float] { Array(UnsafeBufferPointer(start: pointer, count: count)) }
}

extension PackedBuffer where Element == Float {
    /// Weights packed per tile of 8 output channels as `[bias ×8][taps][×8]`: tile `g` holds channels from
    /// `tileStart(g)` (by default `8·g`, each channel in tile `oc / 8`, lane `oc % 8`), the lanes past the last
    /// channel zero. `weight(oc, t)` is output channel `oc`'s weight for tap `t`.
    static func channelTiles(
        channels: Int, taps: Int, bias: [Float], tileStart: (Int) -> Int = { 8 * $0 },
        weight: (_ channel: Int, _ tap: Int) -> Float
    ) -> PackedBuffer<Float> {
        let tiles = (channels + 7) / 8, tileSize = 8 * (taps + 1)
        let packed = PackedBuffer<Float>(count: tiles * tileSize, repeating: 0)
        for g in 0..<tiles {
            let tile = packed.pointer + g * tileSize, start = tileStart(g)
            for lane in 0..<min(8, channels - start) {
                tile[lane] = bias[start + lane]
                for t in 0..<taps { tile[8 * (t + 1) + lane] = weight(start + lane, t) }
            }
        }
        return packed
    }
}
