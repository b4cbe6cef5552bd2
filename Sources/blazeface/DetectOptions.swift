import ArgumentParser
import BlazeAnchors
import BlazeFace
import BlazeJobs
import BlazeModels
import Foundation

/// `--model` (`detect`) and `--detector` (`landmarks`, `analyze`, `serve`): a detector by name (`photo`, the
/// still-picture detector; a catalog detector such as `short-range`; aliases such as `front` are accepted but not
/// listed), or the path of a .tflite detector.
struct DetectorChoice: ExpressibleByArgument, Equatable {
    var source: FaceJobOptions.DetectorSource

    init(_ source: FaceJobOptions.DetectorSource) { self.source = source }

    init?(argument: String) {
        if let source = FaceJobOptions.DetectorSource(name: argument) {
            self.source = source
        } else if argument.hasSuffix(".tflite") || argument.contains("/") {
            source = .file(argument)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { FaceJobOptions.DetectorSource.names + ["PATH.tflite"] }

    var defaultValueDescription: String { source.name }

    /// The help of the option, the same for every command.
    static let help = """
        photo (the default: full-range, short-range and full-range-sparse together, for pictures from close-ups \
        to group photos), short-range (faces within ~2 m, the fastest), full-range (faces within ~5 m), \
        full-range-sparse, back, or the path of a .tflite detector.
        """
}

extension NMSAlgorithm: ExpressibleByArgument {}

/// `--crop`: how the image is fitted into the model's square input.
enum CropChoice: String, ExpressibleByArgument, CaseIterable {
    case letterbox
    case center

    var preprocessing: FaceDetector.Preprocessing { self == .letterbox ? .letterbox : .centerCrop }
}
