import BlazeImaging
import BlazeModels
import BlazeRuntime
import BlazeTestSupport
import Testing

/// `ModelLimits`, the interpreter limits every pipeline's options carry: the defaults are the interpreter's, and
/// a model session loading past a lowered one fails with the `InterpreterError` that names it.
@Suite("Model limits")
struct ModelLimitsTests {
    /// The short-range detector: 164 operators, ~3·10^7 multiply-accumulates, a few hundred KiB of weights and
    /// activations.
    static var path: String { get throws { try TestResources.modelPath(.shortRange) } }

    static func session(_ limits: ModelLimits) throws -> ModelSession {
        try ModelSession(modelPath: try path, conversion: .init(range: -1...1), limits: limits)
    }

    /// The limit an interpreter error reports, by case; nil for an error that is not a limit.
    static func limit(of error: InterpreterError) -> (name: String, limit: Int)? {
        switch error {
        case let .arenaTooLarge(_, limit): return ("arena", limit)
        case let .tooMuchWork(_, limit): return ("work", limit)
        case let .constantsTooLarge(_, limit): return ("constants", limit)
        case let .tooManyOperators(_, limit): return ("operators", limit)
        default: return nil
        }
    }

    @Test("the defaults are the interpreter's, for any thread count")
    func defaults() {
        #expect(ModelLimits().interpreterOptions(threadCount: 1) == Interpreter.Options())
        #expect(ModelLimits().interpreterOptions(threadCount: 3) == Interpreter.Options(threadCount: 3))
        let lowered = ModelLimits(maximumArenaBytes: 1, maximumMultiplyAccumulates: 2, maximumConstantBytes: 3,
                                  maximumOperatorCount: 4).interpreterOptions(threadCount: 2)
        #expect(lowered == Interpreter.Options(threadCount: 2, maximumArenaBytes: 1, maximumMultiplyAccumulates: 2,
                                               maximumConstantBytes: 3, maximumOperatorCount: 4))
    }

    @Test("a session past each lowered limit fails with .invalidModel naming that limit", arguments: [
        ("arena", 1 << 16, ModelLimits(maximumArenaBytes: 1 << 16)),
        ("work", 1_000_000, ModelLimits(maximumMultiplyAccumulates: 1_000_000)),
        ("constants", 1_000, ModelLimits(maximumConstantBytes: 1_000)),
        ("operators", 100, ModelLimits(maximumOperatorCount: 100)),
    ])
    func lowered(_ expected: String, _ given: Int, _ limits: ModelLimits) throws {
        let path = try Self.path
        do throws(ModelSessionError) {
            _ = try ModelSession(modelPath: path, conversion: .init(range: -1...1), limits: limits)
            Issue.record("the session loaded under \(limits)")
        } catch {
            guard case let .invalidModel(failedPath, interpreterError) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(failedPath == path)
            let reported = Self.limit(of: interpreterError)
            #expect(reported?.name == expected, "\(interpreterError)")
            #expect(reported?.limit == given)
            #expect(error.description.contains("limit of \(given)"), "\(error.description)")
        }
    }

    @Test("a limit exactly at the model's need loads, one below fails")
    func boundary() throws {
        #expect(try Self.session(ModelLimits(maximumOperatorCount: 164)).outputs.count == 2)
        #expect(throws: ModelSessionError.invalidModel(path: try Self.path,
                                                       error: .tooManyOperators(count: 164, limit: 163))) {
            try Self.session(ModelLimits(maximumOperatorCount: 163))
        }
    }
}
