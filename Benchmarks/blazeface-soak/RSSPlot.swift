import Foundation

/// A plain SVG line chart of resident memory against frames: the y axis starts at 0 (a flat curve looks
/// flat, a growing one grows), a dashed line marks the end of warm-up. More than `maximumPoints` samples are
/// reduced to the largest of each group, so a spike is never drawn away.
enum RSSPlot {
    static let maximumPoints = 1_000

    static func svg(_ samples: [RSSSample], warmupFrame: Int, title: String) -> String {
        let width = 800.0, height = 420.0
        let left = 70.0, right = 20.0, top = 40.0, bottom = 50.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let points = reduced(samples)
        let lastFrame = Double(max(samples.last?.frame ?? 1, 1))
        let peak = Double(samples.map(\.bytes).max() ?? 1) / 1_048_576
        let yTop = niceCeiling(peak * 1.15)
        func x(_ frame: Int) -> Double { left + plotWidth * Double(frame) / lastFrame }
        func y(_ bytes: Int) -> Double { top + plotHeight * (1 - Double(bytes) / 1_048_576 / yTop) }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(f(width / 2))" y="22" text-anchor="middle" font-size="14">\(escape(title))</text>

            """
        for tick in 0...5 {
            let value = yTop * Double(tick) / 5, py = top + plotHeight * (1 - Double(tick) / 5)
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(py))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(py))\" stroke=\"#ddd\"/>\n"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(py + 4))\" text-anchor=\"end\">\(String(format: "%.0f", value))</text>\n"
            let frame = Int(lastFrame * Double(tick) / 5)
            svg += "<text x=\"\(f(x(frame)))\" y=\"\(f(top + plotHeight + 18))\" text-anchor=\"middle\">\(frame)</text>\n"
        }
        svg += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(height - 10))\" text-anchor=\"middle\">frames</text>\n"
        svg += "<text x=\"16\" y=\"\(f(top + plotHeight / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(f(top + plotHeight / 2)))\">resident memory (MiB)</text>\n"
        svg += "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(plotWidth))\" height=\"\(f(plotHeight))\" fill=\"none\" stroke=\"#444\"/>\n"
        svg += "<line x1=\"\(f(x(warmupFrame)))\" y1=\"\(f(top))\" x2=\"\(f(x(warmupFrame)))\" y2=\"\(f(top + plotHeight))\" stroke=\"#888\" stroke-dasharray=\"4 4\"/>\n"
        svg += "<text x=\"\(f(x(warmupFrame) + 4))\" y=\"\(f(top + 14))\" fill=\"#666\">warm-up</text>\n"
        let line = points.map { "\(f(x($0.frame))),\(f(y($0.bytes)))" }.joined(separator: " ")
        svg += "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"\(line)\"/>\n</svg>\n"
        return svg
    }

    /// At most `maximumPoints` samples: the largest of each run of consecutive samples, plus the last.
    static func reduced(_ samples: [RSSSample]) -> [RSSSample] {
        guard samples.count > maximumPoints else { return samples }
        let group = (samples.count + maximumPoints - 1) / maximumPoints
        var result = stride(from: 0, to: samples.count, by: group).map { start in
            samples[start..<min(start + group, samples.count)].max { $0.bytes < $1.bytes }!
        }
        result.append(samples[samples.count - 1])
        return result
    }

    /// 1, 2 or 5 times a power of ten, at least `value`.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0 else { return 1 }
        let power = pow(10, floor(log10(value)))
        for step in [1.0, 2, 5, 10] where step * power >= value { return step * power }
        return 10 * power
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
