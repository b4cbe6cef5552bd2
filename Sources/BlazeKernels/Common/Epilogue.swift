/// What a kernel does to each output value after its sum (bias included), in this order:
/// 1. adds the residual: another tensor laid out like the output (`.add`), or a shortcut of fewer channels,
///    zero-padded in channels (`.shortcut(channels:)`);
/// 2. clamps with `activation`;
/// 3. multiplies a negative value by its channel's slope (`slopes`, TFLite's PRELU: `v < 0 ? v · slope : v`);
/// 4. applies `function` (TFLite's HARD_SWISH, or SiLU `x · logistic(x)`).
///
/// Each stage performs the operations of the standalone operator it replaces, so a kernel with an epilogue
/// writes the same bits as the kernel without it followed by those operators, without their intermediate
/// tensors. The runtime's fusion passes build these values from the graph; each kernel says which stages its
/// implementation runs (`Capabilities`) and refuses an epilogue it cannot run.
package struct Epilogue: Hashable, Sendable {
    /// The tensor added to the sum before the clamp.
    package enum Residual: Hashable, Sendable {
        /// Nothing is added.
        case none
        /// A tensor of the output's shape (an ADD after the kernel).
        case add
        /// A tensor of the output's batch, height and width but `channels` channels (1 up to the output's),
        /// added to the first channels; 0 is added to the others (a BlazeBlock shortcut: PAD of channels and
        /// ADD).
        case shortcut(channels: Int)
    }

    /// The nonlinearity applied last.
    package enum Function: Hashable, Sendable {
        /// Nothing.
        case none
        /// TFLite's HARD_SWISH: `x · min(max(x + 3, 0), 6) / 6`.
        case hardSwish
        /// `x · logistic(x)`: TFLite's LOGISTIC and the MUL of its input by it.
        case silu
    }

    /// Stages an implementation can run (`Conv2D.capabilities`, `DepthwiseConv2D.capabilities`, ...); the
    /// clamp always.
    package struct Capabilities: OptionSet, Hashable, Sendable {
        /// The stages' bits.
        package let rawValue: Int
        /// The stages whose bits `rawValue` sets.
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// Per-channel PReLU slopes.
        package static let slopes = Capabilities(rawValue: 1 << 0)
        /// A residual of the output's shape or a channel-padded shortcut.
        package static let residual = Capabilities(rawValue: 1 << 1)
        /// HARD_SWISH last.
        package static let hardSwish = Capabilities(rawValue: 1 << 2)
        /// SiLU last.
        package static let silu = Capabilities(rawValue: 1 << 3)
        /// Explicit spatial padding (`Padding.explicit`): a PAD of height and width folded into a window
        /// kernel.
        package static let explicitPadding = Capabilities(rawValue: 1 << 4)

        /// Whether every stage `epilogue` uses is among these.
        package func allow(_ epilogue: Epilogue) -> Bool {
            (epilogue.slopes == nil || contains(.slopes)) && (epilogue.residual == .none || contains(.residual))
                && (epilogue.function != .hardSwish || contains(.hardSwish))
                && (epilogue.function != .silu || contains(.silu))
        }
    }

    /// Added before the clamp.
    package var residual: Residual
    /// The clamp (TFLite's fused activation).
    package var activation: FusedActivation
    /// One slope per output channel for negative values after the clamp, or nil.
    package var slopes: [Float]?
    /// Applied last.
    package var function: Function

    /// - Parameters:
    ///   - activation: The clamp.
    ///   - residual: What is added before the clamp.
    ///   - slopes: One PReLU slope per output channel, or nil.
    ///   - function: The nonlinearity applied last.
    package init(
        activation: FusedActivation = .none, residual: Residual = .none, slopes: [Float]? = nil,
        function: Function = .none
    ) {
        (self.activation, self.residual, self.slopes, self.function) = (activation, residual, slopes, function)
    }

    /// Nothing after the sum.
    package static let none = Epilogue()

    /// Only the clamp of `activation`.
    package static func clamp(_ activation: FusedActivation) -> Epilogue { Epilogue(activation: activation) }

    /// This epilogue followed by the clamp of `activation`, or nil when a stage after the clamp (or a clamp)
    /// is set already.
    package func followed(by activation: FusedActivation) -> Epilogue? {
        guard self.activation == .none, slopes == nil, function == .none else { return nil }
        var copy = self
        copy.activation = activation
        return copy
    }

    /// This epilogue followed by a PRELU of `slopes`, or nil when slopes or a function are set already.
    package func followed(bySlopes slopes: [Float]) -> Epilogue? {
        guard self.slopes == nil, function == .none else { return nil }
        var copy = self
        copy.slopes = slopes
        return copy
    }

    /// This epilogue followed by `function`, or nil when a function is set already.
    package func followed(by function: Function) -> Epilogue? {
        guard self.function == .none else { return nil }
        var copy = self
        copy.function = function
        return copy
    }

    /// `then` (an ADD's epilogue, say) run after adding `residual` to this kernel's sums, or nil unless this
    /// epilogue is empty (the sum must reach the addition unchanged) and `then` adds nothing itself.
    package func adding(_ residual: Residual, then: Epilogue) -> Epilogue? {
        guard self == .none, then.residual == .none else { return nil }
        var copy = then
        copy.residual = residual
        return copy
    }

    /// Checks the epilogue against an implementation's stages and the output's channels.
    /// - Throws: `KernelError.invalidParameter` naming `kernel` when a stage is not among `capabilities`;
    ///   `.weightCountMismatch` unless there is one slope per channel; `.invalidParameter` for a shortcut of
    ///   no channels or more than the output's.
    package func validate(_ capabilities: Capabilities, channels: Int, kernel: String) throws(KernelError) {
        guard capabilities.allow(self) else {
            throw .invalidParameter("\(kernel) cannot run the epilogue \(self)")
        }
        if let slopes, slopes.count != channels {
            throw .weightCountMismatch(name: "slopes", expected: channels, actual: slopes.count)
        }
        if case .shortcut(let c) = residual, !(1...max(channels, 1)).contains(c) {
            throw .invalidParameter("a shortcut of \(c) channels does not fit an output of \(channels)")
        }
    }

    /// Channels per pixel of the residual input (0 without one).
    package func residualChannels(output channels: Int) -> Int {
        switch residual {
        case .none: return 0
        case .add: return channels
        case .shortcut(let c): return c
        }
    }
}
