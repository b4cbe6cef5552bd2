import BlazeKernels
import BlazeRuntime
import BlazeTestSupport
import Foundation
import Testing

/// Load-time fusion changes the plan, never the numbers.
@Suite("Fusion")
struct FusionTests {
    /// The model's first golden input run with a fusion on and off (`options(true)`, `options(false)`):
    /// the outputs and plans of both, and how many of their output values differ (bit for bit, or by value).
    static func onAndOff(
        _ model: String, bitwise: Bool = true, _ options: (Bool) -> Interpreter.Options
    ) throws -> (plans: [[Interpreter.StepDescription]], differing: [Int]) {
        let golden = try #require(try GoldenCase.all().first { $0.model == model })
        let path = try TestResources.modelPath(golden.modelFile)
        var results: [[[Float]]] = []
        var plans: [[Interpreter.StepDescription]] = []
        for on in [true, false] {
            let interpreter = try Interpreter(modelPath: path, options: options(on))
            try interpreter.copy(golden.input, toInputAt: 0)
            interpreter.invoke()
            results.append(try interpreter.outputs.indices.map { try interpreter.outputArray(at: $0) })
            plans.append(interpreter.plan)
        }
        let differing = results[0].indices.map { k in
            zip(results[0][k], results[1][k]).filter { bitwise ? $0.0.bitPattern != $0.1.bitPattern : $0.0 != $0.1 }.count
        }
        return (plans, differing)
    }

    /// All fusions but `without`, with `fusion` on or off.
    static func options(_ fusion: Interpreter.Options.Fusions, on: Bool, without: Interpreter.Options.Fusions = [])
        -> Interpreter.Options {
        let all = Interpreter.Options.Fusions.all.subtracting(without)
        return Interpreter.Options(fusions: on ? all.union(fusion) : all.subtracting(fusion))
    }

    @Test("RELUs run as the clamp of the convolution or ADD before them give the unfused outputs bit for bit",
          arguments: GoldenManifest.modelKeys)
    func activationFusionIsExact(model: String) throws {
        let (plans, differing) = try Self.onAndOff(model) { Self.options(.activations, on: $0) }
        #expect(differing.allSatisfy { $0 == 0 }, "\(model): values differ per output: \(differing)")
        let relus = plans.map { $0.filter { ["RELU", "RELU6", "RELU_N1_TO_1"].contains($0.operatorName) }.count }
        #expect(plans[1].count - plans[0].count == relus[1] - relus[0])
        #expect(relus[0] == 0, "\(model): \(relus[0]) RELU steps left unfused")
        if model == "short_range" { #expect(relus[1] > 0) }
    }

    @Test("every fusion at once gives the unfused outputs, in fewer steps", arguments: GoldenManifest.modelKeys)
    func allFusionsKeepTheValues(model: String) throws {
        let (plans, differing) = try Self.onAndOff(model, bitwise: false) { Interpreter.Options(fusions: $0 ? .all : []) }
        #expect(differing.allSatisfy { $0 == 0 }, "\(model): values differ per output: \(differing)")
        #expect(plans[0].count < plans[1].count, "\(model): \(plans[0].count) steps fused, \(plans[1].count) unfused")
    }

    @Test("fused BlazeBlock shortcuts give the unfused outputs bit for bit", arguments: GoldenManifest.modelKeys)
    func residualFusionIsExact(model: String) throws {
        // Without PRELU fusion, which an unfused shortcut's ADD could take over, changing the count, and
        // without ADD fusion, which takes over unpooled shortcuts.
        let (plans, differing) = try Self.onAndOff(model) {
            Self.options(.residuals, on: $0, without: [.prelu, .adds])
        }
        #expect(differing.allSatisfy { $0 == 0 }, "\(model): values differ per output: \(differing)")
        let fused = plans[0].filter { $0.kernel.hasPrefix("ResidualAdd") }
        #expect(plans[1].allSatisfy { !$0.kernel.hasPrefix("ResidualAdd") })
        // Each fused step replaces a PAD (and a MAX_POOL_2D when pooled).
        let pooled = fused.filter { $0.kernel == "ResidualAdd.pooled" }.count
        #expect(plans[1].count - plans[0].count == fused.count + pooled)
        if ["short_range", "full_range", "back"].contains(model) {  // full_range_sparse pads space, not channels
            #expect(fused.count > 0, "\(model): no shortcut was fused")
        }
    }

    /// Equal values: a folded kernel skips the padding taps instead of adding 0 · w, so an exact zero sum
    /// could change sign.
    @Test("padding folded into convolutions gives the unfolded outputs", arguments: GoldenManifest.modelKeys)
    func paddingFoldingIsExact(model: String) throws {
        let (plans, differing) = try Self.onAndOff(model, bitwise: false) { Self.options(.padding, on: $0) }
        #expect(differing.allSatisfy { $0 == 0 }, "\(model): values differ per output: \(differing)")
        let pads = plans.map { $0.filter { $0.operatorName == "PAD" }.count }
        #expect(plans[1].count - plans[0].count == pads[1] - pads[0])
        if model == "full_range_sparse" {
            #expect(pads[0] == 0 && pads[1] == 43, "PAD steps folded / unfolded: \(pads)")
        }
    }

    @Test("PRELU fused into convolutions and adds gives the unfused outputs bit for bit",
          arguments: GoldenManifest.modelKeys)
    func preluFusionIsExact(model: String) throws {
        let (plans, differing) = try Self.onAndOff(model) { Self.options(.prelu, on: $0) }
        #expect(differing.allSatisfy { $0 == 0 }, "\(model): values differ per output: \(differing)")
        let prelus = plans.map { $0.filter { $0.operatorName == "PRELU" }.count }
        #expect(plans[1].count - plans[0].count == prelus[1] - prelus[0])
        if model == "face_landmark" || model == "iris_landmark" {
            // Every PRELU has a convolution, ADD or BlazeBlock shortcut before it to run in.
            #expect(prelus[0] == 0, "PRELU steps fused / unfused: \(prelus)")
        }
    }

    @Test("ADDs fused into 1x1 convolutions give the unfused outputs bit for bit", arguments: GoldenManifest.modelKeys)
    func addFusionIsExact(model: String) throws {
        let (plans, differing) = try Self.onAndOff(model) { Self.options(.adds, on: $0) }
        #expect(differing.allSatisfy { $0 == 0 }, "\(model): values differ per output: \(differing)")
        let adds = plans.map { $0.filter { $0.operatorName == "ADD" }.count }
        #expect(plans[1].count - plans[0].count == adds[1] - adds[0])
        let fused = plans[0].filter { $0.operatorName == "CONV_2D" && $0.summary.contains("ADD #") }.count
        #expect(fused > 0 && fused == adds[1] - adds[0], "\(model): ADD steps fused / unfused: \(adds), \(fused)")
        // Unpooled BlazeBlock shortcuts (PAD of channels + ADD) go into the convolution before them too.
        let shortcuts = plans.map { $0.filter { $0.kernel == "ResidualAdd" }.count }
        #expect(shortcuts[0] == 0, "\(model): \(shortcuts[0]) unpooled shortcuts left unfused")
        if model == "short_range" { #expect(shortcuts[1] == 8) }
    }
}
