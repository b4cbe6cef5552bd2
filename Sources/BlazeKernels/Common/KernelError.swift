#if canImport(FoundationEssentials)
import FoundationEssentials
#elseif canImport(Foundation)
import Foundation
#endif

/// Why a kernel could not be created from the given shapes and parameters.
///
/// Kernels validate everything at creation time and throw one of these; `run` never fails.
package enum KernelError: Error, Equatable, Sendable {
    /// A tensor shape is unusable (a dimension not positive, an empty output, an unsupported rank, ...).
    case invalidShape(String)
    /// A scalar parameter is out of range (a stride or dilation not positive, a negative padding, ...).
    case invalidParameter(String)
    /// The channel counts of two tensors disagree.
    case channelMismatch(expected: Int, actual: Int)
    /// A weight array (`name`: "filter", "bias", "alpha", ...) has the wrong number of elements.
    case weightCountMismatch(name: String, expected: Int, actual: Int)
    /// Two shapes cannot be broadcast together (NumPy rules: each dimension equal, or one of them 1).
    case notBroadcastable(Shape4, Shape4)
}

extension KernelError: LocalizedError, CustomStringConvertible {
    package var description: String {
        switch self {
        case .invalidShape(let message): return "Invalid shape: \(message)"
        case .invalidParameter(let message): return "Invalid parameter: \(message)"
        case let .channelMismatch(expected, actual):
            return "Channel mismatch: expected \(expected) channels, got \(actual)"
        case let .weightCountMismatch(name, expected, actual):
            return "The \(name) has \(actual) elements, expected \(expected)"
        case let .notBroadcastable(a, b):
            return "Shapes \(a) and \(b) cannot be broadcast together"
        }
    }

    package var errorDescription: String? { description }
}
