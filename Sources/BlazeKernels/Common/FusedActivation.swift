/// An activation applied to a kernel's output as part of the same pass (TFLite's fused activation).
package enum FusedActivation: Hashable, Sendable {
    case none
    case relu
    case relu6
    /// Clamp to [-1, 1] (TFLite's RELU_N1_TO_1).
    case reluN1To1

    /// The clamp bounds this activation applies: `min(max(x, lower), upper)`.
    @inlinable
    package var bounds: (lower: Float, upper: Float) {
        switch self {
        case .none: return (-.infinity, .infinity)
        case .relu: return (0, .infinity)
        case .relu6: return (0, 6)
        case .reluN1To1: return (-1, 1)
        }
    }
}
