#if canImport(FoundationEssentials)
import FoundationEssentials
#elseif canImport(Foundation)
import Foundation
#endif

/// Why anchors could not be generated, a decoder could not be created, or a decode call was refused.
///
/// Options are validated once (by `AnchorOptions.generateAnchors()` and `DetectionDecoder.init`); after
/// that, decoding fails only when the buffers handed to it have the wrong sizes.
public enum AnchorError: Error, Equatable, Sendable {
    /// The model input size is not positive.
    case invalidInputSize(width: Int, height: Int)
    /// `numLayers` is not positive.
    case invalidLayerCount(Int)
    /// An array option (`field`: "strides", "featureMapWidths", "featureMapHeights") does not have one
    /// entry per layer.
    case countMismatch(field: String, expected: Int, actual: Int)
    /// A stride is not positive.
    case invalidStride(layer: Int, stride: Int)
    /// An explicit feature-map size is not positive.
    case invalidFeatureMapSize(layer: Int, width: Int, height: Int)
    /// A floating-point option is out of range (not finite, negative where it must be positive, ...).
    case invalidParameter(String)
    /// The options would generate more than `limit` anchors.
    case tooManyAnchors(limit: Int)
    /// The options generate no anchor at all (no aspect ratio and no interpolated anchor), or a decoder was
    /// given an empty anchor list.
    case noAnchors
    /// Anchor `index` has a coordinate that is not finite.
    case invalidAnchor(index: Int)
    /// The decoding options do not describe a valid regressor layout or score transform.
    case invalidDecodingOptions(String)
    /// A buffer handed to `decode` (`buffer`: "regressors" or "scores") has the wrong number of floats.
    case bufferSizeMismatch(buffer: String, expected: Int, actual: Int)
}

extension AnchorError: LocalizedError, CustomStringConvertible {
    /// A one-line message for people, with the file, value or limit concerned.
    public var description: String {
        switch self {
        case let .invalidInputSize(width, height):
            return "Invalid input size \(width)x\(height): both sides must be positive"
        case .invalidLayerCount(let count):
            return "Invalid layer count \(count): must be positive"
        case let .countMismatch(field, expected, actual):
            return "\(field) has \(actual) entries, expected \(expected) (one per layer)"
        case let .invalidStride(layer, stride):
            return "Invalid stride \(stride) for layer \(layer): must be positive"
        case let .invalidFeatureMapSize(layer, width, height):
            return "Invalid feature map size \(width)x\(height) for layer \(layer): both sides must be positive"
        case .invalidParameter(let message):
            return "Invalid parameter: \(message)"
        case .tooManyAnchors(let limit):
            return "The options would generate more than \(limit) anchors"
        case .noAnchors:
            return "No anchors: the options generate none, or an empty anchor list was given"
        case .invalidAnchor(let index):
            return "Anchor \(index) has a coordinate that is not finite"
        case .invalidDecodingOptions(let message):
            return "Invalid decoding options: \(message)"
        case let .bufferSizeMismatch(buffer, expected, actual):
            return "The \(buffer) buffer has \(actual) floats, expected \(expected)"
        }
    }

    /// The same message as `description`.
    public var errorDescription: String? { description }
}
