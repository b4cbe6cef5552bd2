/// A background named in words, as `blazeface segment --background` and `POST /v1/segment?background=` take
/// it: `white`, `black`, `#RRGGBB` (six hexadecimal digits, either case), `blur` (a radius of 2 % of the
/// picture's shorter side, at least 1 pixel) or `blur:N` (N pixels, 0...1000). Keywords are case-insensitive.
public enum BackgroundFill: Hashable, Sendable {
    /// One colour.
    case color(red: UInt8, green: UInt8, blue: UInt8)
    /// The picture itself blurred; nil: 2 % of its shorter side.
    case blur(radius: Int?)

    /// Why a background name was refused.
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// `#` followed by something other than six hexadecimal digits.
        case malformedColor(String)
        /// `blur:` followed by something other than a whole number in 0...1000.
        case malformedBlurRadius(String)

        /// What was wrong, quoting the text.
        public var description: String {
            switch self {
            case .malformedColor(let text): return "'\(text)' is not a colour: use #RRGGBB with six hexadecimal digits"
            case .malformedBlurRadius(let text):
                return "'\(text)': the blur radius must be a whole number of pixels, 0...1000"
            }
        }
    }

    /// The fill `text` names, or nil when it names none (neither a keyword, nor `#...`, nor `blur:...`).
    /// - Parameter text: the name.
    /// - Throws: `ParseError` for a malformed colour or blur radius.
    public init?(parsing text: String) throws(ParseError) {
        let lower = text.lowercased()
        if lower == "white" {
            self = .color(red: 255, green: 255, blue: 255)
        } else if lower == "black" {
            self = .color(red: 0, green: 0, blue: 0)
        } else if text.hasPrefix("#") {
            let digits = text.dropFirst()
            guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
                throw .malformedColor(text)
            }
            self = .color(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
        } else if lower == "blur" {
            self = .blur(radius: nil)
        } else if lower.hasPrefix("blur:") {
            guard let radius = Int(text.dropFirst(5)), (0...1000).contains(radius) else { throw .malformedBlurRadius(text) }
            self = .blur(radius: radius)
        } else {
            return nil
        }
    }

    /// The `Background` for an upright picture of this size.
    /// - Parameters:
    ///   - width: the upright picture's width.
    ///   - height: the upright picture's height.
    /// - Returns: the colour, or the blur with its radius resolved.
    public func background(width: Int, height: Int) -> Background {
        switch self {
        case let .color(red, green, blue): return .color(red: red, green: green, blue: blue)
        case let .blur(radius): return .blur(radius: radius ?? Self.defaultBlurRadius(width: width, height: height))
        }
    }

    /// The default blur radius for an upright picture of this size: 2 % of the shorter side, at least 1.
    /// - Parameters:
    ///   - width: the upright picture's width.
    ///   - height: the upright picture's height.
    /// - Returns: the radius in pixels.
    public static func defaultBlurRadius(width: Int, height: Int) -> Int {
        max(1, Int((Double(min(width, height)) * 0.02).rounded()))
    }
}
