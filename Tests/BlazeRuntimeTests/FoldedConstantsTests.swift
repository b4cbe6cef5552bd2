import BlazeModels
import BlazeRuntime
import BlazeTFLite
import BlazeTestSupport
import Testing

@Suite("Interpreter.foldedConstants: the tensors computed once at load time")
struct FoldedConstantsTests {
    /// The operators whose every output the rule reports folded are exactly those the interpreter neither runs as
    /// a step nor fuses into one.
    @Test("the rule agrees with the interpreter's plan", arguments: [
        ModelName.shortRange, .fullRange, .fullRangeSparse, .back, .faceMeshAttention, .iris, .selfieSegmentation,
    ])
    func agreesWithPlan(_ name: ModelName) throws {
        let model = try Model(path: try TestResources.modelPath(name))
        let folded = Interpreter.foldedConstants(in: model)
        let foldedOperators = model.mainSubgraph.operators.indices.filter { index in
            let outputs = model.mainSubgraph.operators[index].outputs
            return !outputs.isEmpty && outputs.allSatisfy(folded.contains)
        }
        let interpreter = try Interpreter(model: model)
        var planned = Set<Int>()
        for step in interpreter.plan {
            planned.insert(step.operatorIndex)
            planned.formUnion(step.fusedOperators)
        }
        let notPlanned = model.mainSubgraph.operators.indices.filter { !planned.contains($0) }
        #expect(foldedOperators == notPlanned)
        if name != .iris { #expect(!folded.isEmpty, "the float16 and sparse models fold their weights") }
    }
}
