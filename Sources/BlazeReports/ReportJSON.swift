import Foundation

/// The two JSON layouts of the reports, the same bytes wherever they are written: keys sorted, `/` not escaped.
///
/// - `pretty`: `blazeface ... --json`: indented, with every array of numbers on one line
///   (`[201.5, 104.9, -20.1]`), which keeps a 478-point mesh readable.
/// - `compact`: one line with no spaces: the server's answers and JSON lines.
public enum ReportJSON {
    /// The value as the CLI prints it (no final line break).
    /// - Parameter value: a report, an entry or a batch document.
    /// - Returns: indented JSON with sorted keys and one-line number arrays.
    /// - Throws: `EncodingError` for a value JSON cannot hold (not raised by the report types).
    public static func pretty(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return compactNumberArrays(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// The value on one line, keys sorted.
    /// - Parameter value: a report, an entry or a batch document.
    /// - Returns: UTF-8 JSON with no line break.
    /// - Throws: `EncodingError` for a value JSON cannot hold (not raised by the report types).
    public static func compact(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Pretty-printed JSON with every array of numbers alone on one line (`[201.5, 104.9, -20.1]` instead of
    /// five lines). Only arrays laid out over several lines are joined: a JSON string never holds a raw line
    /// break, so text inside strings is left as it is.
    /// - Parameter json: `JSONEncoder`'s `.prettyPrinted` output.
    /// - Returns: the same JSON with its number arrays joined.
    public static func compactNumberArrays(_ json: String) -> String {
        let number = #"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"#
        let pattern = #"\[\n\s*"# + number + #"(?:,\n\s*"# + number + #")*\n\s*\]"#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return json }
        let text = json as NSString
        var out = ""
        var end = 0
        for match in expression.matches(in: json, range: NSRange(location: 0, length: text.length)) {
            out += text.substring(with: NSRange(location: end, length: match.range.location - end))
            let numbers = text.substring(with: match.range).dropFirst().dropLast()
                .split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            out += "[" + numbers.joined(separator: ", ") + "]"
            end = match.range.location + match.range.length
        }
        return out + text.substring(from: end)
    }
}
