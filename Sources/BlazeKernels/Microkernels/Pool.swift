// Max and average pooling of one image (NHWC), vectorized over channels: 8 at a time, a partial vector at the
// end (never touching memory outside).

import BlazeKernelParameters

extension Microkernels {
    /// Max pooling of one image: the maximum over each window's in-bounds taps, starting from
    /// `-greatestFiniteMagnitude` as TFLite does, then the clamp. Output rows `outputRows` only.
    package static func maxPool(_ a: WindowOperands) {
        let input = a.input, inH = a.inputExtent.height, inW = a.inputExtent.width, channels = a.inputExtent.channels
        let output = a.output, outH = a.outputExtent.height, outW = a.outputExtent.width
        let kh = a.window.kernelHeight, kw = a.window.kernelWidth, sh = a.window.strideHeight
        let sw = a.window.strideWidth, padTop = a.window.padTop, padLeft = a.window.padLeft
        let outputRows = a.outputRows
        let lower = Vec8(repeating: a.bounds.lower), upper = Vec8(repeating: a.bounds.upper)
        let start = Vec8(repeating: -Float.greatestFiniteMagnitude)
        let firstRow = max(outputRows.lowerBound, 0), endRow = max(min(outputRows.upperBound, outH), firstRow)
        var out = output + firstRow * outW * channels
        for oy in firstRow..<endRow {
            let iy0 = max(oy * sh - padTop, 0), iy1 = min(oy * sh - padTop + kh, inH)
            for ox in 0..<outW {
                let ix0 = max(ox * sw - padLeft, 0), ix1 = min(ox * sw - padLeft + kw, inW)
                var c = 0
                if iy1 - iy0 == 2 && ix1 - ix0 == 2 {
                    // The common 2x2 window.
                    let p00 = input + (iy0 * inW + ix0) * channels
                    let p01 = p00 + channels, p10 = p00 + inW * channels, p11 = p10 + channels
                    // The maximum of the four taps at channels c ..< c + 8, in TFLite's order.
                    @inline(__always) func window(_ c: Int) {
                        var m = start
                        m = maximum(m, load8(p00 + c))
                        m = maximum(m, load8(p01 + c))
                        m = maximum(m, load8(p10 + c))
                        m = maximum(m, load8(p11 + c))
                        store8(clamp(m, lower, upper), out + c)
                    }
                    while c + 8 <= channels {
                        window(c)
                        c += 8
                    }
                    if c < channels && channels >= 8 {
                        // The last channels as a full vector ending at the last channel (max is idempotent:
                        // the overlapped channels get the same values again).
                        window(channels - 8)
                        c = channels
                    }
                }
                while c < channels {
                    let count = min(8, channels - c)
                    var m = start
                    for iy in iy0..<max(iy0, iy1) {
                        for ix in ix0..<max(ix0, ix1) {
                            let v = Microkernels.loadChannels(input + (iy * inW + ix) * channels + c, count)
                            m = maximum(m, v)
                        }
                    }
                    Microkernels.storeChannels(clamp(m, lower, upper), out + c, count)
                    c += 8
                }
                out += channels
            }
        }
    }

    /// Average pooling of one image: the mean of each window's in-bounds taps (their sum, row by row, divided by
    /// their count, at least 1), then the clamp. Output rows `a.outputRows` only.
    package static func averagePool(_ a: WindowOperands) {
        let inH = a.inputExtent.height, inW = a.inputExtent.width, channels = a.inputExtent.channels
        let outH = a.outputExtent.height, outW = a.outputExtent.width, w = a.window
        let lower = Vec8(repeating: a.bounds.lower), upper = Vec8(repeating: a.bounds.upper)
        for oy in max(a.outputRows.lowerBound, 0)..<max(min(a.outputRows.upperBound, outH), 0) {
            let originY = oy * w.strideHeight - w.padTop
            let iy0 = max(originY, 0), iy1 = max(min(originY + w.kernelHeight, inH), iy0)
            for ox in 0..<outW {
                let originX = ox * w.strideWidth - w.padLeft
                let ix0 = max(originX, 0), ix1 = max(min(originX + w.kernelWidth, inW), ix0)
                let divisor = Vec8(repeating: Float(max((iy1 - iy0) * (ix1 - ix0), 1)))
                let out = a.output + (oy * outW + ox) * channels
                var c = 0
                while c < channels {
                    let count = min(8, channels - c)
                    var total = Vec8()
                    for iy in iy0..<iy1 {
                        for ix in ix0..<ix1 {
                            total += loadChannels(a.input + (iy * inW + ix) * channels + c, count)
                        }
                    }
                    storeChannels(clamp(total / divisor, lower, upper), out + c, count)
                    c += 8
                }
            }
        }
    }
}
