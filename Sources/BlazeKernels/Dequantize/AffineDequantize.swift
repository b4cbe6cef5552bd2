// Affine (asymmetric) dequantization of int8/uint8 tensors, TFLite's `DEQUANTIZE` for quantized
// constants: `real = (q − zeroPoint) · scale`, per tensor or per channel along one axis.

/// Dequantizes `count` values with one scale and zero point: `destination[i] = Float(source[i] − zeroPoint) · scale`
/// (one rounding, as TFLite's double-precision product rounded to float).
///
/// - Parameters:
///   - source: `count` quantized values (`Int8` or `UInt8`).
///   - count: At least 0.
///   - scale: The quantization scale.
///   - zeroPoint: The quantized value of real 0.
///   - destination: `count` floats.
package func dequantize<Q: FixedWidthInteger & BitwiseCopyable>(
    _ source: UnsafePointer<Q>, count: Int, scale: Float, zeroPoint: Int,
    into destination: UnsafeMutablePointer<Float>
) {
    for i in 0..<count {
        destination[i] = Float(Int(source[i]) - zeroPoint) * scale
    }
}

/// Dequantizes a tensor with one scale and zero point per index along `axis` (TFLite's per-channel
/// quantization; `quantized_dimension`).
///
/// - Parameters:
///   - source: The quantized values, dense row-major in `shape`.
///   - shape: The tensor's dimensions (any rank ≥ 1), each positive.
///   - axis: The quantized dimension, `0 ..< shape.count`.
///   - scales: `shape[axis]` scales.
///   - zeroPoints: `shape[axis]` zero points, or a single one shared by all channels.
///   - destination: As many floats as `shape` holds.
/// - Throws: `KernelError` when the shape, axis or parameter counts do not fit.
package func dequantizePerChannel<Q: FixedWidthInteger & BitwiseCopyable>(
    _ source: UnsafePointer<Q>, shape: [Int], axis: Int, scales: [Float], zeroPoints: [Int],
    into destination: UnsafeMutablePointer<Float>
) throws(KernelError) {
    guard !shape.isEmpty, shape.allSatisfy({ $0 > 0 }) else {
        throw .invalidShape("per-channel dequantization of shape \(shape)")
    }
    guard axis >= 0 && axis < shape.count else {
        throw .invalidParameter("quantized dimension \(axis) out of range for rank \(shape.count)")
    }
    let channels = shape[axis]
    guard scales.count == channels else {
        throw .weightCountMismatch(name: "scales", expected: channels, actual: scales.count)
    }
    guard zeroPoints.count == channels || zeroPoints.count == 1 else {
        throw .weightCountMismatch(name: "zero points", expected: channels, actual: zeroPoints.count)
    }
    let inner = shape[(axis + 1)...].reduce(1, *)
    let outer = shape[..<axis].reduce(1, *)
    var index = 0
    for _ in 0..<outer {
        for c in 0..<channels {
            let scale = scales[c]
            let zeroPoint = zeroPoints.count == 1 ? zeroPoints[0] : zeroPoints[c]
            for _ in 0..<inner {
                destination[index] = Float(Int(source[index]) - zeroPoint) * scale
                index += 1
            }
        }
    }
}
