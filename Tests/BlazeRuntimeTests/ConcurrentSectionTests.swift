import BlazeRuntime
import BlazeTestSupport
import Foundation
import Testing

/// Independent chains of steps run side by side (`runBranchesConcurrently`): the lanes partition their
/// stretch and never read each other's tensors, and the outputs are the sequential ones to the bit.
@Suite("Concurrent sections")
struct ConcurrentSectionTests {
    /// Steps of each lane, per stretch of consecutive lane-marked steps.
    static func sections(_ plan: [Interpreter.StepDescription]) -> [[Int: [Int]]] {
        var result: [[Int: [Int]]] = []
        var current: [Int: [Int]] = [:]
        for (s, step) in plan.enumerated() {
            if let lane = step.lane {
                current[lane, default: []].append(s)
            } else if !current.isEmpty {
                result.append(current)
                current = [:]
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    @Test("lanes never read what another lane writes; outputs bit-identical to the sequential run",
          arguments: GoldenManifest.modelKeys)
    func lanesAreIndependent(model: String) throws {
        let golden = try #require(try GoldenCase.all().first { $0.model == model })
        let path = try TestResources.modelPath(golden.modelFile)
        var outputs: [[[Float]]] = []
        for (threads, concurrent) in [(1, false), (2, true), (3, true), (2, false)] {
            let interpreter = try Interpreter(
                modelPath: path, options: .init(threadCount: threads, runBranchesConcurrently: concurrent))
            let plan = interpreter.plan
            if !concurrent || threads == 1 { #expect(plan.allSatisfy { $0.lane == nil }) }
            for section in Self.sections(plan) {
                #expect(section.count >= 2 && section.count <= threads, "\(model): lanes \(section.keys.sorted())")
                for (lane, steps) in section {
                    let written = Set(steps.map { plan[$0].output })
                    for (other, otherSteps) in section where other != lane {
                        for s in otherSteps {
                            #expect(written.isDisjoint(with: plan[s].inputs),
                                    "\(model): step \(s) of lane \(other) reads lane \(lane)'s output")
                        }
                    }
                }
            }
            for _ in 0..<2 {
                try interpreter.copy(golden.input, toInputAt: 0)
                interpreter.invoke()
            }
            outputs.append(try interpreter.outputs.indices.map { try interpreter.outputArray(at: $0) })
        }
        for run in outputs.dropFirst() {
            for k in run.indices {
                let differing = zip(outputs[0][k], run[k]).filter { $0.0.bitPattern != $0.1.bitPattern }.count
                #expect(differing == 0, "\(model) output \(k): \(differing) values differ")
            }
        }
    }

    /// Iris's eye-contour and iris branches are the stretch this exists for: it must be found, as two
    /// lanes of equal length.
    @Test("iris's two branches run side by side at two threads")
    func irisBranches() throws {
        let path = try TestResources.modelPath("iris_landmark.tflite")
        let plan = try Interpreter(modelPath: path, options: .init(threadCount: 2)).plan
        let sections = Self.sections(plan)
        #expect(sections.count == 1)
        let lanes = try #require(sections.first)
        #expect(lanes.count == 2 && lanes[0]?.count == lanes[1]?.count && (lanes[0]?.count ?? 0) >= 20)
    }
}
