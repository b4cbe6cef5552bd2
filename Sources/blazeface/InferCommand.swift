import ArgumentParser
import BlazeModels
import BlazeNPY
import BlazeRuntime
import Foundation

/// `blazeface infer MODEL.tflite --input IN.npy ... --output-dir DIR`: one inference, `.npy` in and out.
struct InferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "infer",
        abstract: "Run one inference on .npy inputs and write the outputs as .npy files.",
        discussion: """
            Each --input is a float32 .npy file with exactly the shape of the model input at the same \
            position. The outputs are written as DIR/output_0.npy, DIR/output_1.npy, ... in the model's \
            output order (float32, C order, the output's exact shape).
            """
    )

    @Argument(help: "The .tflite model file.")
    var model: String

    @Option(name: .customLong("input"), help: ArgumentHelp(
        "A float32 .npy file for the next model input; repeat once per input, in the model's input order.",
        valueName: "npy"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("Directory for output_<k>.npy (created if missing).", valueName: "dir"))
    var outputDir: String

    @Option(help: "Number of threads the interpreter may use (at least 1).")
    var threads: Int = 1

    @OptionGroup var modelLimits: ModelLimitOptions

    @Flag(help: "Do not print the summary of each output.")
    var quiet = false

    func validate() throws {
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1, got \(threads)") }
        guard !inputs.isEmpty else { throw ValidationError("give at least one --input file") }
    }

    func run() throws {
        try reportingFailures {
            let interpreter: Interpreter
            do {
                interpreter = try Interpreter(modelPath: model,
                                              options: modelLimits.limits.interpreterOptions(threadCount: threads))
            } catch {
                throw CommandFailure(about(model, Self.message(for: error)))
            }
            guard inputs.count == interpreter.inputs.count else {
                let expected = interpreter.inputs.map { "'\($0.name)' \(Format.shape($0.shape))" }.joined(separator: ", ")
                throw CommandFailure("""
                    wrong number of inputs: the model has \(interpreter.inputs.count) input(s) (\(expected)) \
                    but \(inputs.count) --input file(s) were given
                    """)
            }
            for (index, path) in inputs.enumerated() {
                let values = try Self.readInput(path, for: interpreter.inputs[index], at: index)
                try interpreter.copy(values, toInputAt: index)
            }
            interpreter.invoke()
            try writeOutputs(of: interpreter)
        }
    }

    /// Reads `path` and checks that it is a float32 array with exactly the shape of input `index`.
    static func readInput(_ path: String, for input: Interpreter.TensorInfo, at index: Int) throws -> [Float] {
        let expected = "input \(index) '\(input.name)' needs float32 \(Format.shape(input.shape))"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("\(path): no such file (\(expected))")
        }
        guard !isDirectory.boolValue else { throw CommandFailure("\(path): is a directory (\(expected))") }
        let array: NPYArray
        do { array = try NPYArray(path: path) } catch {
            if case .cannotRead? = error as? NPYError { throw error }
            throw CommandFailure("\(path): \(message(for: error))")
        }
        guard array.dtype == .float32 else {
            throw CommandFailure("\(path): dtype mismatch: the file holds \(array.dtype) ('\(array.dtype.rawValue)'), \(expected) ('<f4')")
        }
        guard array.shape == input.shape else {
            throw CommandFailure("\(path): shape mismatch: the file holds \(Format.shape(array.shape)), \(expected)")
        }
        return array.floats()
    }

    /// Writes every output as `output_<k>.npy` and prints one summary line per output unless quiet.
    private func writeOutputs(of interpreter: Interpreter) throws {
        let directory = URL(fileURLWithPath: outputDir, isDirectory: true)
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            throw CommandFailure("cannot create output directory '\(outputDir)': \(error.localizedDescription)")
        }
        for (index, info) in interpreter.outputs.enumerated() {
            let values = try interpreter.outputArray(at: index)
            let file = "output_\(index).npy"
            try NPYArray(shape: info.shape, floats: values).write(to: directory.appendingPathComponent(file).path)
            if !quiet {
                let low = values.min() ?? .nan, high = values.max() ?? .nan
                print("\(file)  \(info.name)  \(Format.shape(info.shape))  min \(Format.value(low))  max \(Format.value(high))")
            }
        }
    }
}
