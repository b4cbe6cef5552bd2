import BlazeKernels
import BlazeTFLite

/// Load-time fusions over the planned steps. Each one keeps the numbers (see the options that turn them
/// off) and removes a step and an intermediate tensor.
extension GraphBuilder {
    /// How many steps (and graph outputs) read each tensor, and which step writes it.
    func stepGraph() -> (readers: [Int: Int], producer: [Int: Int]) {
        var readers: [Int: Int] = [:]
        for step in steps { for input in Set(step.inputs) { readers[input, default: 0] += 1 } }
        for output in graph.outputs { readers[output, default: 0] += 1 }
        var producer: [Int: Int] = [:]
        for (s, step) in steps.enumerated() { producer[step.output] = s }
        return (readers, producer)
    }

    /// Drops the steps at `indices` (taken over by others).
    mutating func removeSteps(_ indices: Set<Int>) {
        steps = steps.indices.filter { !indices.contains($0) }.map { steps[$0] }
    }

    /// Replaces each BlazeBlock shortcut — `ADD(PAD(x), main)` or `ADD(PAD(MAX_POOL_2D(x)), main)`, in either
    /// operand order, where PAD adds zeros after the channels only and the pool is 2x2 with stride 2 over
    /// an even-sized input — by one `ResidualAdd` step, when the padded (and pooled) tensors are read by
    /// nothing else and are not graph outputs. Only SIMD steps are fused (the reference variant keeps the
    /// plain operators as the oracle).
    mutating func fuseResiduals() {
        let (readers, producer) = stepGraph()

        var removed = Set<Int>()
        for s in steps.indices {
            guard let add = steps[s].kernel as? Add, add.variant == .simd, steps[s].inputs.count == 2,
                  add.lhsShape == add.rhsShape else { continue }
            for operand in 0..<2 {
                let padded = steps[s].inputs[operand], main = steps[s].inputs[1 - operand]
                guard padded != main, readers[padded] == 1, let p = producer[padded], !removed.contains(p),
                      let pad = steps[p].kernel as? Pad, pad.variant == .simd, pad.constantValue == 0,
                      pad.paddingBefore == Shape4(n: 0, h: 0, w: 0, c: 0),
                      pad.outputShape.n == pad.inputShape.n, pad.outputShape.h == pad.inputShape.h,
                      pad.outputShape.w == pad.inputShape.w, pad.outputShape == add.outputShape else { continue }
                var shortcut = steps[p].inputs[0]
                var shortcutShape = pad.inputShape
                var pooled = false, poolActivation = FusedActivation.none
                var fused = [p]
                if readers[shortcut] == 1, let q = producer[shortcut], !removed.contains(q),
                   let pool = steps[q].kernel as? MaxPool2D, pool.variant == .simd,
                   pool.geometry.kernelH == 2, pool.geometry.kernelW == 2, pool.geometry.strideH == 2,
                   pool.geometry.strideW == 2, pool.geometry.padTop == 0, pool.geometry.padLeft == 0,
                   pool.inputShape.h == 2 * pool.outputShape.h, pool.inputShape.w == 2 * pool.outputShape.w {
                    shortcut = steps[q].inputs[0]
                    shortcutShape = pool.inputShape
                    pooled = true
                    poolActivation = pool.activation
                    fused.append(q)
                }
                guard let kernel = try? ResidualAdd(
                    shortcutShape: shortcutShape, outputShape: add.outputShape, pooled: pooled,
                    poolActivation: poolActivation, shortcutFirst: operand == 0, activation: add.activation,
                    instructionSet: add.instructionSet) else { continue }
                let names = fused.reversed().map { "\(steps[$0].operatorName) #\(steps[$0].operatorIndex)" }
                steps[s].kernel = kernel
                steps[s].inputs = [shortcut, main]
                steps[s].summary += " with " + names.joined(separator: " and ") + " fused"
                for f in fused { steps[s].fusedOperators += [steps[f].operatorIndex] + steps[f].fusedOperators }
                removed.formUnion(fused)
                break
            }
        }
        removeSteps(removed)
    }

    /// Runs each LOGISTIC whose output only a same-shape SIMD MUL reads, the MUL's other operand being the
    /// LOGISTIC's own input (`x · logistic(x)`, SiLU: every activation of EfficientNet and YOLO), as one step at
    /// the MUL's place: `Nonlinearity(.silu)` computes the LOGISTIC's value and the MUL's one multiplication per
    /// element, so the outputs are the same to the bit without the intermediate tensor.
    mutating func fuseSiLU() {
        let (readers, producer) = stepGraph()

        var removed = Set<Int>()
        for s in steps.indices {
            guard let mul = steps[s].kernel as? Mul, mul.variant == .simd, mul.activation == .none,
                  mul.lhsShape == mul.rhsShape, steps[s].inputs.count == 2 else { continue }
            for operand in 0..<2 {
                let sigmoid = steps[s].inputs[operand], x = steps[s].inputs[1 - operand]
                guard sigmoid != x, readers[sigmoid] == 1, let p = producer[sigmoid], !removed.contains(p),
                      let logistic = steps[p].kernel as? Nonlinearity, logistic.function == .logistic,
                      logistic.variant == .simd, steps[p].inputs == [x], logistic.count == mul.outputShape.count,
                      let silu = try? Nonlinearity(shape: mul.outputShape, function: .silu, variant: .simd,
                                                   instructionSet: logistic.instructionSet) else { continue }
                steps[s].kernel = silu
                steps[s].inputs = [x]
                steps[s].summary += " with \(steps[p].operatorName) #\(steps[p].operatorIndex) fused (SiLU)"
                steps[s].fusedOperators += [steps[p].operatorIndex] + steps[p].fusedOperators
                removed.insert(p)
                break
            }
        }
        removeSteps(removed)
    }

    /// Runs each SiLU step (`fuseSiLU`) that alone reads a SIMD GEMM convolution's output (1x1 with 8 or more
    /// output channels, or implicit GEMM) in that convolution's epilogue (`fusingSiLU`): the convolution writes
    /// the SiLU's output directly, the same bits. YOLO's and EfficientNet's convolutions end so.
    mutating func fuseSiLUIntoConvolutions() {
        fuseIntoProducers { follower, producer in
            guard let silu = follower as? Nonlinearity, silu.function == .silu, silu.variant == .simd,
                  let k = producer as? Conv2D, k.variant == .simd, k.outputShape.count == silu.count else { return nil }
            return try? k.fusingSiLU()
        }
    }

    /// Folds each PAD of height and width (zeros; batch and channels untouched) into the VALID, unpadded
    /// SIMD depthwise or implicit-GEMM convolution that is its only reader (`foldingPadding`).
    mutating func foldPadding() {
        let (readers, producer) = stepGraph()

        var removed = Set<Int>()
        for s in steps.indices {
            guard let padded = steps[s].inputs.first, readers[padded] == 1, let p = producer[padded],
                  !removed.contains(p), let pad = steps[p].kernel as? Pad, pad.variant == .simd,
                  pad.constantValue == 0 else { continue }
            let before = pad.paddingBefore, i = pad.inputShape, o = pad.outputShape
            guard before.n == 0, before.c == 0, o.n == i.n, o.c == i.c else { continue }
            let (top, bottom) = (before.h, o.h - i.h - before.h), (left, right) = (before.w, o.w - i.w - before.w)
            let folded: any StepKernel
            if let k = steps[s].kernel as? DepthwiseConv2D, k.variant == .simd {
                guard let kernel = try? k.foldingPadding(inputShape: i, padTop: top, padBottom: bottom,
                                                         padLeft: left, padRight: right) else { continue }
                folded = kernel
            } else if let k = steps[s].kernel as? Conv2D, k.variant == .simd {
                guard let kernel = try? k.foldingPadding(inputShape: i, padTop: top, padBottom: bottom,
                                                         padLeft: left, padRight: right) else { continue }
                folded = kernel
            } else {
                continue
            }
            steps[s].kernel = folded
            steps[s].inputs[0] = steps[p].inputs[0]
            steps[s].summary += " with \(steps[p].operatorName) #\(steps[p].operatorIndex) folded"
            steps[s].fusedOperators += [steps[p].operatorIndex] + steps[p].fusedOperators
            removed.insert(p)
        }
        removeSteps(removed)
    }

    /// Runs each PRELU with per-channel slopes inside the SIMD GEMM convolution, same-shape ADD or BlazeBlock
    /// shortcut (`ResidualAdd`) that is the only writer and reader of its input (`fusingPReLU(slopes:)`): the producing step writes the
    /// PRELU's output directly.
    mutating func fusePReLU() {
        fuseIntoProducers { follower, producer in
            guard let prelu = follower as? PReLU, prelu.variant == .simd, let slopes = prelu.perChannelSlopes
            else { return nil }
            if let k = producer as? Conv2D, k.variant == .simd { return try? k.fusingPReLU(slopes: slopes) }
            if let k = producer as? Add, k.variant == .simd { return try? k.fusingPReLU(slopes: slopes) }
            if let k = producer as? ResidualAdd { return try? k.fusingPReLU(slopes: slopes) }
            return nil
        }
    }

    /// Runs each SIMD HARD_SWISH in the epilogue of the SIMD convolution (GEMM or register-blocked depthwise,
    /// `fusingHardSwish`) that is the only writer and reader of its input: the convolution writes the
    /// HARD_SWISH's output directly (MobileNetV3-style blocks, the selfie segmentation models).
    mutating func fuseHardSwish() {
        fuseIntoProducers { follower, producer in
            guard let swish = follower as? Nonlinearity, swish.function == .hardSwish, swish.variant == .simd
            else { return nil }
            if let k = producer as? Conv2D, k.variant == .simd, k.outputShape.count == swish.count {
                return try? k.fusingHardSwish()
            }
            if let k = producer as? DepthwiseConv2D, k.variant == .simd, k.outputShape.count == swish.count {
                return try? k.fusingHardSwish()
            }
            return nil
        }
    }

    /// Runs each same-shape SIMD ADD (with the activation and PRELU fused into it) in the epilogue of the
    /// 1x1 convolution that writes one of its operands, when that operand is read by nothing else and the
    /// other one is ready before the convolution runs (`fusingResidualAdd`): a BlazeBlock's last
    /// convolution then writes the block's output directly, without a pass over the intermediate tensor.
    /// When both operands come from such convolutions, the later one takes the ADD.
    mutating func fuseAdds() {
        let (readers, producer) = stepGraph()

        var removed = Set<Int>()
        for s in steps.indices {
            if let shortcut = steps[s].kernel as? ResidualAdd {
                fuseShortcut(shortcut, at: s, readers: readers, producer: producer, removed: &removed)
                continue
            }
            guard let add = steps[s].kernel as? Add, steps[s].inputs.count == 2,
                  steps[s].inputs[0] != steps[s].inputs[1] else { continue }
            let candidates = (0..<2).compactMap { operand -> (operand: Int, step: Int)? in
                let main = steps[s].inputs[operand]
                guard readers[main] == 1, let p = producer[main], !removed.contains(p),
                      steps[p].kernel is Conv2D else { return nil }
                return (operand, p)
            }.sorted { $0.step > $1.step }
            for (operand, p) in candidates {
                let other = steps[s].inputs[1 - operand]
                if let q = producer[other], q >= p { continue }  // written after the convolution runs
                guard let k = steps[p].kernel as? Conv2D, let kernel = try? k.fusingResidualAdd(add) else { continue }
                absorb(s, into: p, running: kernel, alsoReading: other, removed: &removed)
                break
            }
        }
        removeSteps(removed)
    }

    /// `fuseAdds` for an unpooled BlazeBlock shortcut step (`ResidualAdd`, inputs `[shortcut, main]`): the
    /// 1x1 convolution that writes `main` adds the zero-padded shortcut in its epilogue, when `main` is read
    /// by nothing else and the shortcut is written before the convolution runs.
    private mutating func fuseShortcut(
        _ shortcut: ResidualAdd, at s: Int, readers: [Int: Int], producer: [Int: Int], removed: inout Set<Int>
    ) {
        guard !shortcut.pooled, steps[s].inputs.count == 2, steps[s].inputs[0] != steps[s].inputs[1] else { return }
        let (other, main) = (steps[s].inputs[0], steps[s].inputs[1])
        guard readers[main] == 1, let p = producer[main], !removed.contains(p), let k = steps[p].kernel as? Conv2D
        else { return }
        if let q = producer[other], q >= p { return }  // written after the convolution runs
        guard let kernel = try? k.fusingResidualAdd(shortcut) else { return }
        absorb(s, into: p, running: kernel, alsoReading: other, removed: &removed)
    }

    /// Lets a step's producer take it over: for each step `s` whose first input is written by step `p` and read
    /// by nothing else, `fusion(s's kernel, p's kernel)` is the kernel `p` runs instead, writing `s`'s output
    /// (nil: no fusion). A step that has taken another over is not taken over itself in the same pass.
    mutating func fuseIntoProducers(
        _ fusion: (_ follower: any StepKernel, _ producer: any StepKernel) -> (any StepKernel)?
    ) {
        let (readers, producer) = stepGraph()

        var removed = Set<Int>()
        for s in steps.indices {
            guard let input = steps[s].inputs.first, readers[input] == 1, let p = producer[input],
                  !removed.contains(p), let fused = fusion(steps[s].kernel, steps[p].kernel) else { continue }
            absorbFollowing(s, into: p, running: fused, removed: &removed)
        }
        removeSteps(removed)
    }

    /// Step `p` takes over the elementwise step `s` that reads only its output: it runs `kernel` and writes
    /// `s`'s output.
    private mutating func absorbFollowing(
        _ s: Int, into p: Int, running kernel: any StepKernel, removed: inout Set<Int>
    ) {
        steps[p].kernel = kernel
        steps[p].output = steps[s].output
        steps[p].summary += " with \(steps[s].operatorName) #\(steps[s].operatorIndex) fused"
        steps[p].fusedOperators += [steps[s].operatorIndex] + steps[s].fusedOperators
        removed.insert(s)
    }

    /// Convolution step `p` takes over the ADD step `s`: it runs `kernel`, reads `operand` as well, and
    /// writes `s`'s output.
    private mutating func absorb(
        _ s: Int, into p: Int, running kernel: Conv2D, alsoReading operand: Int, removed: inout Set<Int>
    ) {
        absorbFollowing(s, into: p, running: kernel, removed: &removed)
        steps[p].inputs.append(operand)
    }
}
