import ArgumentParser
import BlazeImageIO
import BlazeSegmentation
import Foundation

/// `segment --background`: what goes behind the person, as the command line names it.
///
/// - `white`, `black`, or `#RRGGBB` (six hexadecimal digits, either case): one colour.
/// - `blur`: the image itself blurred with a radius of 2% of its shorter side (at least 1 pixel); `blur:N` with a
///   radius of N pixels (`Background.blur(radius:)`).
/// - anything else: the path of a JPEG or PNG picture. The keywords win over a file of that name (write
///   `./white` for such a file).
enum BackgroundChoice: Equatable, Sendable {
    case color(red: UInt8, green: UInt8, blue: UInt8)
    /// nil: 2% of the image's shorter side.
    case blur(radius: Int?)
    case image(path: String)

    /// The choice `text` names; `ValidationError` for a malformed colour or blur, or a picture that does not exist.
    init(parsing text: String) throws {
        let lower = text.lowercased()
        if lower == "white" {
            self = .color(red: 255, green: 255, blue: 255)
        } else if lower == "black" {
            self = .color(red: 0, green: 0, blue: 0)
        } else if text.hasPrefix("#") {
            let digits = text.dropFirst()
            guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
                throw ValidationError("--background '\(text)' is not a colour: use #RRGGBB with six hexadecimal digits")
            }
            self = .color(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
        } else if lower == "blur" {
            self = .blur(radius: nil)
        } else if lower.hasPrefix("blur:") {
            guard let radius = Int(text.dropFirst(5)), (0...1000).contains(radius) else {
                throw ValidationError("--background '\(text)': the blur radius must be a whole number of pixels, 0...1000")
            }
            self = .blur(radius: radius)
        } else {
            guard FileManager.default.fileExists(atPath: text) else {
                throw ValidationError("--background '\(text)' is neither white, black, #RRGGBB, blur, blur:RADIUS "
                                      + "nor an existing image file")
            }
            self = .image(path: text)
        }
    }

    /// The blur radius for an upright image of this size: the given one, else 2% of the shorter side (≥ 1).
    static func defaultBlurRadius(width: Int, height: Int) -> Int {
        max(1, Int((Double(min(width, height)) * 0.02).rounded()))
    }
}

/// A `BackgroundChoice` ready for one worker: the picture decoded once (upright RGB), then fitted to each image.
struct LoadedBackground: Sendable {
    let choice: BackgroundChoice
    /// The picture of `.image`, upright rgb8.
    let picture: ImageBuffer?

    /// Decodes the picture of `.image` within the batch's limits.
    /// - Throws: `CommandFailure` naming the file when it cannot be decoded.
    init(_ choice: BackgroundChoice, limits: ImageDecodingOptions) throws {
        self.choice = choice
        if case let .image(path) = choice {
            do {
                picture = try ImageDecoder.decode(contentsOf: path, options: limits).uprightRGB()
            } catch {
                throw CommandFailure("--background \(about(path, SegmentCommand.message(for: error)))")
            }
        } else {
            picture = nil
        }
    }

    /// Calls `body` with the library's `Background` for an upright image of `width x height`: a picture is
    /// scaled to cover the image (`ImageBuffer.coverResized`), because `BackgroundReplacer` takes only a picture
    /// of the image's own size.
    func withBackground<R>(width: Int, height: Int, _ body: (Background) throws -> R) throws -> R {
        switch choice {
        case let .color(red, green, blue):
            return try body(.color(red: red, green: green, blue: blue))
        case let .blur(radius):
            return try body(.blur(radius: radius ?? BackgroundChoice.defaultBlurRadius(width: width, height: height)))
        case .image:
            guard let picture else { throw CommandFailure("the background picture was not loaded") }
            return try picture.coverResized(width: width, height: height).withView { try body(.image($0)) }
        }
    }
}
