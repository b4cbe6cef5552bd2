import ArgumentParser
import BlazeRuntime
import BlazeTFLite
import Foundation

/// `blazeface inspect MODEL.tflite`: the model's structure, operators, weights, work and execution plan.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a model's inputs, outputs, operators, weights and execution plan.",
        discussion: """
            Exits with status 1 if the file is not a valid model, or if the interpreter cannot run it \
            (after printing the model's structure; the reason goes to standard error).
            """
    )

    @Argument(help: "The .tflite model file.")
    var model: String

    @Flag(help: "Print the report as JSON instead of text.")
    var json = false

    func run() throws {
        try reportingFailures {
            let loaded: Model
            do { loaded = try Model(path: model) } catch {
                throw CommandFailure(about(model, Self.message(for: error)))
            }
            let interpreter = Result { () throws(InterpreterError) in try Interpreter(model: loaded) }
            let report = ModelReport(fileName: URL(fileURLWithPath: model).lastPathComponent, model: loaded,
                                     interpreter: interpreter)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.text)
            }
            if let error = report.error {
                throw CommandFailure("\(model) cannot run: \(error)")
            }
        }
    }
}
