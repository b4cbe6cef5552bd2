// TFLite's RESIZE_BILINEAR (float) over NHWC images with the coordinate tables built at creation
// (`ResizeBilinear`): vectors of 8 channels, the last ones one at a time, the reference's operations in its order
// (`((v00·(1−dy))·(1−dx) + (v10·dy)·(1−dx)) + ((v01·(1−dy))·dx + … )` as written below: separate multiplications
// and additions, no fused multiply-add), so the same bits.

import BlazeKernelParameters

extension Microkernels {
    /// Output rows `outputRows` (a subrange of `0..<outH`) of one image of `channels` channels: row `y` reads
    /// input rows `table[2y]` and `table[2y + 1]` with weight `lerp[y]` for the second, column `x` input columns
    /// `table[2(outH + x)]` and `table[2(outH + x) + 1]` with weight `lerp[outH + x]`.
    package static func resizeBilinear(_ a: ResizeBilinearArguments) {
        let input = a.input, inW = a.inputWidth, channels = a.channels, output = a.output
        let outH = a.outputHeight, outW = a.outputWidth, table = a.table, lerp = a.lerp, outputRows = a.outputRows
        for y in max(outputRows.lowerBound, 0)..<max(min(outputRows.upperBound, outH), 0) {
            let row0 = input + table[2 * y] * inW * channels
            let row1 = input + table[2 * y + 1] * inW * channels
            let dy = lerp[y]
            var out = output + y * outW * channels
            for x in 0..<outW {
                let x0 = table[2 * (outH + x)] * channels, x1 = table[2 * (outH + x) + 1] * channels
                let dx = lerp[outH + x]
                let w00 = Vec8(repeating: 1 - dy), w01 = Vec8(repeating: 1 - dx)
                let vdy = Vec8(repeating: dy), vdx = Vec8(repeating: dx)
                var c = 0
                while c + 8 <= channels {
                    let top = load8(row0 + x0 + c) * w00 * w01 + load8(row1 + x0 + c) * vdy * w01
                    store8(top + load8(row0 + x1 + c) * w00 * vdx + load8(row1 + x1 + c) * vdy * vdx, out + c)
                    c += 8
                }
                while c < channels {
                    let top = row0[x0 + c] * (1 - dy) * (1 - dx) + row1[x0 + c] * dy * (1 - dx)
                    out[c] = top + row0[x1 + c] * (1 - dy) * dx + row1[x1 + c] * dy * dx
                    c += 1
                }
                out += channels
            }
        }
    }
}
