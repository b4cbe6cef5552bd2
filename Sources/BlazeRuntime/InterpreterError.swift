import BlazeKernels
import BlazeTFLite
import Foundation

/// Why a model cannot be run, or an interpreter call was wrong.
///
/// Load-time cases name the operator (index in execution order and type) and the tensors involved.
public enum InterpreterError: Error, Equatable, Sendable {
    /// The model file is malformed.
    case invalidModel(TFLiteError)
    /// The model uses an operator this interpreter does not implement.
    case unsupportedOperator(index: Int, name: String, version: Int)
    /// An operator uses an option value (or combination) this interpreter does not implement.
    case unsupportedOption(index: Int, operator: String, option: String)
    /// A tensor's element type is not supported where it is used.
    case unsupportedTensorType(index: Int, operator: String, tensor: Int, name: String, type: String)
    /// An operator has the wrong number of inputs or outputs, a missing constant, or bad parameters.
    case invalidOperator(index: Int, operator: String, reason: String)
    /// A tensor's declared shape differs from the shape the operator produces or requires.
    case shapeMismatch(index: Int, operator: String, tensor: Int, name: String, expected: [Int], actual: [Int])
    /// An operator reads a tensor that no earlier operator writes (the graph is cyclic or out of order).
    case notTopologicallySorted(index: Int, operator: String, tensor: Int, name: String)
    /// A constant tensor's buffer does not hold as many bytes as its shape and type need.
    case invalidConstant(tensor: Int, name: String, reason: String)
    /// A sparse constant's sparsity parameters are inconsistent.
    case invalidSparsity(tensor: Int, name: String, reason: String)
    /// The activations would need more memory than allowed.
    case arenaTooLarge(bytes: Int, limit: Int)
    /// Running the model once would take more multiply-accumulates than allowed.
    case tooMuchWork(multiplyAccumulates: Int, limit: Int)
    /// The constants derived from the file while loading would take more bytes than allowed
    /// (`Options.maximumConstantBytes`); `bytes` is the total when the limit was crossed.
    case constantsTooLarge(bytes: Int, limit: Int)
    /// The main subgraph has more operators than allowed (`Options.maximumOperatorCount`).
    case tooManyOperators(count: Int, limit: Int)
    /// An input or output index passed to the interpreter is out of range.
    case invalidTensorIndex(index: Int, maxIndex: Int)
    /// Data copied into input `index` has the wrong size (bytes).
    case invalidDataCount(index: Int, expected: Int, actual: Int)
    /// The destination output `index` is copied into has the wrong size (bytes).
    case invalidOutputDataCount(index: Int, expected: Int, actual: Int)
    /// No input tensor has this name; `available` lists the inputs' names, in order.
    case unknownInputName(String, available: [String])
    /// No output tensor has this name; `available` lists the outputs' names, in order.
    case unknownOutputName(String, available: [String])
    /// The model has no operators or no inputs/outputs in its main subgraph.
    case emptyGraph(reason: String)
    /// Options are out of range (for example a thread count below 1).
    case invalidOptions(String)
}

extension InterpreterError: CustomStringConvertible, LocalizedError {
    /// A one-line message for people, with the operator, tensor or limit concerned.
    public var description: String {
        switch self {
        case let .invalidModel(error):
            return error.description
        case let .unsupportedOperator(index, name, version):
            return "operator \(index): \(name) (version \(version)) is not supported by this interpreter"
        case let .unsupportedOption(index, op, option):
            return "operator \(index) (\(op)): unsupported option \(option)"
        case let .unsupportedTensorType(index, op, tensor, name, type):
            return "operator \(index) (\(op)): tensor \(tensor) '\(name)' has unsupported type \(type)"
        case let .invalidOperator(index, op, reason):
            return "operator \(index) (\(op)): \(reason)"
        case let .shapeMismatch(index, op, tensor, name, expected, actual):
            return "operator \(index) (\(op)): tensor \(tensor) '\(name)' has shape \(actual), expected \(expected)"
        case let .notTopologicallySorted(index, op, tensor, name):
            return "operator \(index) (\(op)) reads tensor \(tensor) '\(name)' before any operator writes it"
        case let .invalidConstant(tensor, name, reason):
            return "constant tensor \(tensor) '\(name)': \(reason)"
        case let .invalidSparsity(tensor, name, reason):
            return "sparse tensor \(tensor) '\(name)': \(reason)"
        case let .arenaTooLarge(bytes, limit):
            return "the model's activations need \(bytes) bytes, more than the limit of \(limit)"
        case let .tooMuchWork(macs, limit):
            return "one inference would take \(macs) multiply-accumulates, more than the limit of \(limit)"
        case let .constantsTooLarge(bytes, limit):
            return "loading the model would derive \(bytes) bytes of constants, more than the limit of \(limit)"
        case let .tooManyOperators(count, limit):
            return "the main subgraph has \(count) operators, more than the limit of \(limit)"
        case let .invalidTensorIndex(index, maxIndex):
            return "tensor index \(index) is out of range (maximum \(maxIndex))"
        case let .invalidDataCount(index, expected, actual):
            return "input \(index) needs \(expected) bytes, got \(actual)"
        case let .invalidOutputDataCount(index, expected, actual):
            return "output \(index) has \(expected) bytes, the destination holds \(actual)"
        case let .unknownInputName(name, available):
            return "the model has no input named '\(name)'; its inputs are \(Self.list(available))"
        case let .unknownOutputName(name, available):
            return "the model has no output named '\(name)'; its outputs are \(Self.list(available))"
        case let .emptyGraph(reason):
            return "the model cannot run: \(reason)"
        case let .invalidOptions(reason):
            return "invalid interpreter options: \(reason)"
        }
    }

    /// The same message as `description`.
    public var errorDescription: String? { description }

    /// Names quoted and separated by commas.
    private static func list(_ names: [String]) -> String {
        names.map { "'\($0)'" }.joined(separator: ", ")
    }
}
