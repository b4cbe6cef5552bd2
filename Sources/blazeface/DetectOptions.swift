import ArgumentParser
import BlazeAnchors
import BlazeFace

/// `--model`: a named BlazeFace model, or the path of a .tflite file.
enum ModelChoice: ExpressibleByArgument, Equatable {
    case named(FaceDetector.Model)
    case path(String)

    static let names: [(String, FaceDetector.Model)] = [
        ("short-range", .shortRange), ("full-range", .fullRange),
        ("full-range-sparse", .fullRangeSparse), ("back", .backCamera),
    ]

    init?(argument: String) {
        if let match = Self.names.first(where: { $0.0 == argument }) { self = .named(match.1) }
        else if argument.hasSuffix(".tflite") || argument.contains("/") { self = .path(argument) }
        else { return nil }
    }

    static var allValueStrings: [String] { names.map(\.0) + ["PATH.tflite"] }

    var defaultValueDescription: String {
        switch self {
        case .named(let model): return Self.names.first { $0.1 == model }?.0 ?? model.rawValue
        case .path(let path): return path
        }
    }
}

extension NMSAlgorithm: ExpressibleByArgument {}

/// `--crop`: how the image is fitted into the model's square input.
enum CropChoice: String, ExpressibleByArgument, CaseIterable {
    case letterbox
    case center

    var preprocessing: FaceDetector.Preprocessing { self == .letterbox ? .letterbox : .centerCrop }
}

import BlazeTFLite

/// Reads the square input size of a detector model file.
enum ModelInputSize {
    static func read(_ path: String) throws -> Int {
        let model = try Model(path: path)
        let graph = model.mainSubgraph
        guard graph.inputs.count == 1 else { throw CommandFailure("\(path): a detector has one input, this model has \(graph.inputs.count)") }
        let shape = graph.tensors[graph.inputs[0]].shape
        guard shape.count == 4, shape[1] == shape[2] else {
            throw CommandFailure("\(path): a detector's input is 1xSxSx3, this model's is \(shape)")
        }
        return shape[1]
    }
}
