import BlazeKernels
import BlazeTFLite

/// Load-time fusions over the graph's nodes, before any kernel is built: each pass rewrites a node's
/// operation (most often its `Epilogue`) to take over the operator after or before it, removing a step and an
/// intermediate tensor while keeping the numbers (`Interpreter.Options.fusions` turns them off one by one).
/// A node is taken over only when its output is read by the one node that takes it, and is not a graph
/// output.
extension GraphBuilder {
    /// Runs the passes `options.fusions` selects, in the order in which they find their patterns: an
    /// activation joins its producer before a shortcut forms around that producer's ADD, and a shortcut
    /// forms before a convolution's epilogue takes it over.
    mutating func fuse() {
        let fusions = options.fusions
        if fusions.contains(.activations) { fuseActivations() }
        if fusions.contains(.residuals) { fuseResiduals() }
        if fusions.contains(.padding) { foldPadding() }
        if fusions.contains(.prelu) { fusePReLU() }
        if fusions.contains(.adds) { fuseAdds() }
        if fusions.contains(.hardSwish) { fuseFunction(.hardSwish) }
        if fusions.contains(.silu) {
            fuseSiLU()
            fuseFunction(.silu)
        }
    }

    /// How many nodes (and graph outputs) read each tensor, and which node writes it.
    func nodeGraph() -> (readers: [Int: Int], producer: [Int: Int]) {
        var readers: [Int: Int] = [:]
        for node in nodes { for input in Set(node.inputs) { readers[input, default: 0] += 1 } }
        for output in graph.outputs { readers[output, default: 0] += 1 }
        var producer: [Int: Int] = [:]
        for (n, node) in nodes.enumerated() { producer[node.output] = n }
        return (readers, producer)
    }

    /// Runs `rewrite` on every node with the reader counts and producers of the graph as it was before the
    /// pass, then drops the nodes it marked as taken over.
    private mutating func rewriteNodes(
        _ rewrite: (inout GraphBuilder, _ n: Int, _ readers: [Int: Int], _ producer: [Int: Int], _ removed: inout Set<Int>) -> Void
    ) {
        let (readers, producer) = nodeGraph()
        var removed = Set<Int>()
        for n in nodes.indices where !removed.contains(n) { rewrite(&self, n, readers, producer, &removed) }
        nodes = nodes.indices.filter { !removed.contains($0) }.map { nodes[$0] }
    }

    /// The node that alone writes `tensor` for one reader, not taken over yet.
    private func soleProducer(of tensor: Int, _ readers: [Int: Int], _ producer: [Int: Int], _ removed: Set<Int>) -> Int? {
        guard readers[tensor] == 1, let p = producer[tensor], !removed.contains(p) else { return nil }
        return p
    }

    /// Node `p` takes over node `n`, which reads only its output: `p` runs `operation` and writes `n`'s output.
    private mutating func absorbFollowing(_ n: Int, into p: Int, running operation: GraphNode.Operation, note: String) {
        nodes[p].operation = operation
        nodes[p].output = nodes[n].output
        nodes[p].summary += note
        nodes[p].fusedOperators += [nodes[n].operatorIndex] + nodes[n].fusedOperators
    }

    /// Node `n` takes over node `p`, which only it reads (a PAD, a pool, a LOGISTIC before it).
    private mutating func absorbPreceding(_ p: Int, into n: Int, note: String) {
        nodes[n].summary += note
        nodes[n].fusedOperators += [nodes[p].operatorIndex] + nodes[p].fusedOperators
    }

    private func name(_ n: Int) -> String { "\(nodes[n].operatorName) #\(nodes[n].operatorIndex)" }

    /// A RELU, RELU6 or RELU_N1_TO_1 that alone reads a convolution's or ADD's output (rank ≤ 4) whose own
    /// activation is NONE becomes that operator's clamp (any kernel variant).
    mutating func fuseActivations() {
        rewriteNodes { b, n, readers, producer, removed in
            guard case .activation(let relu) = b.nodes[n].operation, b.nodes[n].inputs.count == 1,
                  let p = b.soleProducer(of: b.nodes[n].inputs[0], readers, producer, removed),
                  b.nodes[p].outputCount == relu.count else { return }
            let operation: GraphNode.Operation
            switch b.nodes[p].operation {
            case .convolution(let r):
                guard let e = r.epilogue.followed(by: relu.function), let fused = r.with(e) else { return }
                operation = .convolution(fused)
            case .add(let add):
                guard let e = add.epilogue.followed(by: relu.function), let fused = add.with(e) else { return }
                operation = .add(fused)
            default: return
            }
            b.absorbFollowing(n, into: p, running: operation,
                              note: " + \(relu.function) from operator \(b.nodes[n].operatorIndex)")
            removed.insert(n)
        }
    }

    /// Replaces each BlazeBlock shortcut — `ADD(PAD(x), main)` or `ADD(PAD(MAX_POOL_2D(x)), main)`, in either
    /// operand order, where PAD adds zeros after the channels only and the pool is 2x2 with stride 2 over an
    /// even-sized input — by one `ResidualAdd` node. Only SIMD nodes (the reference variant keeps the plain
    /// operators as the oracle).
    mutating func fuseResiduals() {
        rewriteNodes { b, n, readers, producer, removed in
            guard case .add(let add) = b.nodes[n].operation, add.variant == .simd, b.nodes[n].inputs.count == 2,
                  add.lhsShape == add.rhsShape else { return }
            for operand in 0..<2 {
                let padded = b.nodes[n].inputs[operand], main = b.nodes[n].inputs[1 - operand]
                guard padded != main, let p = b.soleProducer(of: padded, readers, producer, removed),
                      case .pad(let pad) = b.nodes[p].operation, pad.variant == .simd, pad.constantValue == 0,
                      pad.paddingBefore == Shape4(n: 0, h: 0, w: 0, c: 0),
                      pad.outputShape.n == pad.inputShape.n, pad.outputShape.h == pad.inputShape.h,
                      pad.outputShape.w == pad.inputShape.w, pad.outputShape == add.outputShape else { continue }
                var shortcut = b.nodes[p].inputs[0], shortcutShape = pad.inputShape
                var pool: (node: Int, activation: FusedActivation)?
                if let q = b.soleProducer(of: shortcut, readers, producer, removed),
                   case .maxPool(let m) = b.nodes[q].operation, m.variant == .simd,
                   m.geometry.kernelH == 2, m.geometry.kernelW == 2, m.geometry.strideH == 2, m.geometry.strideW == 2,
                   m.geometry.padTop == 0, m.geometry.padLeft == 0,
                   m.inputShape.h == 2 * m.outputShape.h, m.inputShape.w == 2 * m.outputShape.w {
                    shortcut = b.nodes[q].inputs[0]
                    shortcutShape = m.inputShape
                    pool = (q, m.activation)
                }
                guard let kernel = try? ResidualAdd(
                    shortcutShape: shortcutShape, outputShape: add.outputShape, pooled: pool != nil,
                    poolActivation: pool?.activation ?? .none, shortcutFirst: operand == 0, epilogue: add.epilogue,
                    instructionSet: add.instructionSet) else { continue }
                let taken = [pool?.node, p].compactMap { $0 }
                b.nodes[n].operation = .shortcut(kernel)
                b.nodes[n].inputs = [shortcut, main]
                b.nodes[n].summary += " with " + taken.map(b.name).joined(separator: " and ") + " fused"
                for t in taken.reversed() { b.absorbPreceding(t, into: n, note: "") }
                removed.formUnion(taken)
                return
            }
        }
    }

    /// Folds each PAD of height and width (zeros; batch and channels untouched) into the VALID convolution
    /// that alone reads it, as explicit padding (`Padding.explicit`): the kernel skips the padding taps
    /// instead of reading a padded copy. SIMD PADs only.
    mutating func foldPadding() {
        rewriteNodes { b, n, readers, producer, removed in
            guard case .convolution(let r) = b.nodes[n].operation, let padded = b.nodes[n].inputs.first,
                  let p = b.soleProducer(of: padded, readers, producer, removed),
                  case .pad(let pad) = b.nodes[p].operation, pad.variant == .simd, pad.constantValue == 0 else { return }
            let before = pad.paddingBefore, i = pad.inputShape, o = pad.outputShape
            guard before.n == 0, before.c == 0, o.n == i.n, o.c == i.c,
                  let folded = r.with(paddingOf: i, top: before.h, bottom: o.h - i.h - before.h, left: before.w,
                                      right: o.w - i.w - before.w) else { return }
            b.nodes[n].operation = .convolution(folded)
            b.nodes[n].inputs[0] = b.nodes[p].inputs[0]
            b.absorbPreceding(p, into: n, note: " with \(b.name(p)) folded")
            removed.insert(p)
        }
    }

    /// Runs each SIMD PRELU with per-channel slopes in the epilogue of the convolution, same-shape ADD or
    /// BlazeBlock shortcut that alone feeds it.
    mutating func fusePReLU() {
        rewriteNodes { b, n, readers, producer, removed in
            guard case .prelu(let prelu) = b.nodes[n].operation, prelu.variant == .simd,
                  let slopes = prelu.perChannelSlopes, let input = b.nodes[n].inputs.first,
                  let p = b.soleProducer(of: input, readers, producer, removed) else { return }
            let operation: GraphNode.Operation
            switch b.nodes[p].operation {
            case .convolution(let r):
                guard let e = r.epilogue.followed(bySlopes: slopes), let fused = r.with(e) else { return }
                operation = .convolution(fused)
            case .add(let add):
                guard let e = add.epilogue.followed(bySlopes: slopes), let fused = add.with(e) else { return }
                operation = .add(fused)
            case .shortcut(let k):
                guard let e = k.epilogue.followed(bySlopes: slopes), let fused = k.with(e) else { return }
                operation = .shortcut(fused)
            default: return
            }
            b.absorbFollowing(n, into: p, running: operation, note: " with \(b.name(n)) fused")
            removed.insert(n)
        }
    }

    /// Runs each same-shape SIMD ADD (with its activation and PRELU) in the epilogue of the convolution that
    /// writes one of its operands, when that operand is read by nothing else and the other one is written
    /// before the convolution runs: a BlazeBlock's last 1x1 convolution then writes the block's output. When
    /// both operands come from such convolutions, the later one takes the ADD. An unpooled BlazeBlock shortcut
    /// goes the same way, zero-padded in channels in the epilogue.
    mutating func fuseAdds() {
        rewriteNodes { b, n, readers, producer, removed in
            let residual: Epilogue.Residual, then: Epilogue, outputShape: Shape4, operands: [Int]
            switch b.nodes[n].operation {
            case .add(let add) where add.variant == .simd && add.lhsShape == add.rhsShape:
                (residual, then, outputShape, operands) = (.add, add.epilogue, add.outputShape, [0, 1])
            case .shortcut(let k) where !k.pooled:
                let s = k.shortcutShape, o = k.outputShape
                guard s.n == o.n, s.h == o.h, s.w == o.w else { return }
                (residual, then, outputShape, operands) = (.shortcut(channels: s.c), k.epilogue, o, [1])
            default: return
            }
            guard b.nodes[n].inputs.count == 2, b.nodes[n].inputs[0] != b.nodes[n].inputs[1] else { return }
            let candidates = operands.compactMap { operand -> (operand: Int, node: Int)? in
                guard let p = b.soleProducer(of: b.nodes[n].inputs[operand], readers, producer, removed),
                      case .convolution = b.nodes[p].operation else { return nil }
                return (operand, p)
            }.sorted { $0.node > $1.node }
            for (operand, p) in candidates {
                let other = b.nodes[n].inputs[1 - operand]
                if let q = producer[other], q >= p { continue }  // written after the convolution runs
                guard case .convolution(let r) = b.nodes[p].operation, r.outputShape == outputShape,
                      let e = r.epilogue.adding(residual, then: then), let fused = r.with(e) else { continue }
                b.absorbFollowing(n, into: p, running: .convolution(fused), note: " with \(b.name(n)) fused")
                b.nodes[p].inputs.append(other)
                removed.insert(n)
                return
            }
        }
    }

    /// Runs each LOGISTIC whose output only a same-shape SIMD MUL reads, the MUL's other operand being the
    /// LOGISTIC's own input (`x · logistic(x)`, SiLU: every activation of EfficientNet and YOLO), as one
    /// `Nonlinearity(.silu)` node at the MUL's place: the LOGISTIC's value and the MUL's one multiplication per
    /// element, the same bits without the intermediate tensor.
    mutating func fuseSiLU() {
        rewriteNodes { b, n, readers, producer, removed in
            guard case .mul(let mul) = b.nodes[n].operation, mul.variant == .simd, mul.activation == .none,
                  mul.lhsShape == mul.rhsShape, b.nodes[n].inputs.count == 2 else { return }
            for operand in 0..<2 {
                let sigmoid = b.nodes[n].inputs[operand], x = b.nodes[n].inputs[1 - operand]
                guard sigmoid != x, let p = b.soleProducer(of: sigmoid, readers, producer, removed),
                      case .nonlinearity(let logistic) = b.nodes[p].operation, logistic.function == .logistic,
                      logistic.variant == .simd, b.nodes[p].inputs == [x], logistic.count == mul.outputShape.count,
                      let silu = try? Nonlinearity(shape: mul.outputShape, function: .silu, variant: .simd,
                                                   instructionSet: logistic.instructionSet) else { continue }
                b.nodes[n].operation = .nonlinearity(silu)
                b.nodes[n].inputs = [x]
                b.absorbPreceding(p, into: n, note: " with \(b.name(p)) fused (SiLU)")
                removed.insert(p)
                return
            }
        }
    }

    /// Runs each SIMD HARD_SWISH or SiLU node (`function`) that alone reads a convolution's output last in that
    /// convolution's epilogue, where its kernel runs it (`Epilogue.Capabilities`): MobileNetV3's and the selfie
    /// models' HARD_SWISH, YOLO's and EfficientNet's SiLU.
    mutating func fuseFunction(_ function: Epilogue.Function) {
        rewriteNodes { b, n, readers, producer, removed in
            guard case .nonlinearity(let k) = b.nodes[n].operation, k.variant == .simd,
                  k.function == (function == .silu ? .silu : .hardSwish), let input = b.nodes[n].inputs.first,
                  let p = b.soleProducer(of: input, readers, producer, removed),
                  case .convolution(let r) = b.nodes[p].operation, r.outputShape.count == k.count,
                  let e = r.epilogue.followed(by: function), let fused = r.with(e) else { return }
            b.absorbFollowing(n, into: p, running: .convolution(fused), note: " with \(b.name(n)) fused")
            removed.insert(n)
        }
    }
}
