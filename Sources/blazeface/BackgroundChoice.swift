import ArgumentParser
import BlazeImageIO
import BlazeSegmentation
import Foundation

/// `segment --background`: what goes behind the person, as the command line names it.
///
/// - `white`, `black`, or `#RRGGBB` (six hexadecimal digits, either case): one colour.
/// - `blur`: the image itself blurred with a radius of 2% of its shorter side (at least 1 pixel); `blur:N` with a
///   radius of N pixels (`Background.blur(radius:)`).
/// - anything else: the path of a picture in a format BlazeImageIO reads. The keywords win over a file of that name (write
///   `./white` for such a file).
enum BackgroundChoice: Equatable, Sendable {
    /// A colour or a blur (`BackgroundFill`'s words).
    case fill(BackgroundFill)
    case image(path: String)

    /// The choice `text` names; `ValidationError` for a malformed colour or blur, or a picture that does not exist.
    init(parsing text: String) throws {
        let fill: BackgroundFill?
        do {
            fill = try BackgroundFill(parsing: text)
        } catch {
            throw ValidationError("--background \(error)")
        }
        if let fill {
            self = .fill(fill)
        } else {
            guard FileManager.default.fileExists(atPath: text) else {
                throw ValidationError("--background '\(text)' is neither white, black, #RRGGBB, blur, blur:RADIUS "
                                      + "nor an existing image file")
            }
            self = .image(path: text)
        }
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
        case let .fill(fill):
            return try body(fill.background(width: width, height: height))
        case .image:
            guard let picture else { throw CommandFailure("the background picture was not loaded") }
            return try picture.coverResized(width: width, height: height).withView { try body(.image($0)) }
        }
    }
}
