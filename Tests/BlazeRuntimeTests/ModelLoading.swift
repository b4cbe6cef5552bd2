import BlazeRuntime
import BlazeTestSupport
import Foundation
import Testing

/// Loading helpers shared by the suites that build small models at test time.
enum ModelLoading {
    /// The error loading `data` throws; records an issue (and returns nil) if the model loads.
    static func loadError(_ data: Data) -> InterpreterError? {
        do {
            _ = try Interpreter(modelData: data)
            Issue.record("the model loaded")
            return nil
        } catch {
            return error
        }
    }

    /// Interpreter options every one-operator model is checked under: fast kernels, the scalar references,
    /// two threads, and without repeated rows.
    static let optionSets: [Interpreter.Options] = [
        .init(), .init(kernelVariant: .reference), .init(threadCount: 2), .init(reuseRepeatedRows: false),
    ]
}
