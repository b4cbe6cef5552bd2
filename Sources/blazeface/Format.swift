import Foundation

/// Text formatting shared by the subcommands.
enum Format {
    /// A shape as `[1, 128, 128, 3]`.
    static func shape(_ dims: [Int]) -> String {
        "[" + dims.map(String.init).joined(separator: ", ") + "]"
    }

    /// An integer with thousands separators: `30,812,160`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, character) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }

    /// A count with a decimal prefix: `950`, `12.3 k`, `30.8 M`, `1.25 G`.
    static func scaled(_ value: Int) -> String {
        let v = Double(value)
        switch abs(v) {
        case ..<1e3: return String(value)
        case ..<1e6: return String(format: "%.1f k", v / 1e3)
        case ..<1e9: return String(format: "%.1f M", v / 1e6)
        default: return String(format: "%.2f G", v / 1e9)
        }
    }

    /// A byte count: `229,032 bytes (223.7 KiB)`.
    static func bytes(_ count: Int) -> String {
        let v = Double(count)
        let unit: String
        switch v {
        case ..<1024: return "\(count) bytes"
        case ..<(1024 * 1024): unit = String(format: "%.1f KiB", v / 1024)
        case ..<(1024 * 1024 * 1024): unit = String(format: "%.1f MiB", v / 1024 / 1024)
        default: unit = String(format: "%.2f GiB", v / 1024 / 1024 / 1024)
        }
        return "\(grouped(count)) bytes (\(unit))"
    }

    /// A float with six significant digits (`nan` and `inf` as Swift prints them).
    static func value(_ x: Float) -> String {
        x.isFinite ? String(format: "%.6g", Double(x)) : "\(x)"
    }
}
