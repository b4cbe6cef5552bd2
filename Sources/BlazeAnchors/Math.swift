#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(ucrt)
import ucrt
#endif

/// The logistic function in single precision, as MediaPipe computes it: `1 / (1 + expf(-x))`.
@inline(__always)
func logistic(_ x: Float) -> Float {
    1 / (1 + expf(-x))
}
