import BlazeRuntime
import BlazeTFLite
import BlazeTestSupport
import Testing

/// What the documentation of `Model` and `Interpreter` promises about threads: a model is shared, an
/// interpreter is not; interpreters of their own on one model run side by side, each with its worker pool.
/// Run under ThreadSanitizer by Tests/Sanitizers/tsan.sh.
@Suite("Concurrency: interpreter")
struct InterpreterConcurrencyTests {
    @Test("an interpreter per thread on one shared model, one to three threads each: the outputs agree")
    func perThreadInterpreters() throws {
        let model = try Model(path: try TestResources.modelPath("face_landmark_with_attention.tflite"))
        @Sendable func run(_ interpreter: Interpreter, seed: Int) throws -> [[Float]] {
            let count = interpreter.inputs[0].elementCount
            try interpreter.copy((0..<count).map { Float(($0 * 37 + seed) % 255) / 255 }, toInputAt: 0)
            interpreter.invoke()
            return try (0..<interpreter.outputs.count).map { try interpreter.outputArray(at: $0) }
        }
        let sequential = try (0..<2).map { seed in try run(try Interpreter(model: model), seed: seed) }
        let outcome = Hammer.run(threads: 4, rounds: 1) { thread, _ in
            let interpreter = try Interpreter(model: model, options: .init(threadCount: 1 + thread % 3))
            return try (0..<3).map { call in (seed: (thread + call) % 2, outputs: try run(interpreter, seed: (thread + call) % 2)) }
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.all.count == 4)
        for (seed, outputs) in outcome.all.joined() {
            #expect(outputs == sequential[seed], "seed \(seed)")
        }
    }
}
