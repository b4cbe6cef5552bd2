// MediaPipe's Convolution2DTransposeBias when the filter equals the stride and there is no padding (the selfie
// segmentation models' last layer: 2x2, stride 2, 16 channels to 1): every output pixel (oy, ox) receives the
// products of exactly one input pixel (oy / kh, ox / kw) and one filter tap (oy mod kh, ox mod kw), so it is
// `bias + x[0]·w[0] + x[1]·w[1] + …` over the input channels in order, one multiplication and one addition each
// (no fused multiply-add): MediaPipe's scatter loop adds the same products in the same order, hence the same bits.
//
// Vectors of 8 input pixels of a row: their channels are gathered once into vectors of one channel (a transpose
// through a stack scratch), then every tap of the filter and every output channel reads them, and each lane is
// stored to its output pixel. The input columns past the last full block run one by one.

import BlazeKernelParameters

extension Microkernels {
    /// The largest input channel count `transposeConvUpsample` takes: its scratch holds 8 pixels of them, 1 KiB,
    /// which `withUnsafeTemporaryAllocation` keeps on the stack (larger, it may allocate on the heap).
    package static let transposeConvUpsampleMaxChannels = 32

    /// Output rows `outputRows` (a subrange of `0..<inH·kh`) of one NHWC image: output `(oy, ox, oc)` is
    /// `bias[oc] + Σ_ic input(oy / kh, ox / kw, ic) · filter(oc, oy mod kh, ox mod kw, ic)`, the channels summed
    /// in order with separate multiplications and additions. `filter` is OHWI (`[outC][kh][kw][inC]`); the
    /// output is `inH·kh` rows of `inW·kw` pixels of `outC` channels. Requires `1 ≤ inC ≤
    /// transposeConvUpsampleMaxChannels`.
    package static func transposeConvUpsample(_ a: TransposeConvUpsampleArguments) {
        let input = a.input, inH = a.inputExtent.height, inW = a.inputExtent.width, inC = a.inputExtent.channels
        let output = a.output, outC = a.outputChannels, kh = a.kernelHeight, kw = a.kernelWidth
        let filter = a.filter, bias = a.bias, outputRows = a.outputRows
        let outW = inW * kw
        let outRow = outW * outC
        let firstRow = max(outputRows.lowerBound, 0), endRow = min(outputRows.upperBound, inH * kh)
        guard firstRow < endRow, inC >= 1, inC <= transposeConvUpsampleMaxChannels else { return }
        let blocks = inW / 8
        withUnsafeTemporaryAllocation(of: Vec8.self, capacity: transposeConvUpsampleMaxChannels) { scratch in
            let columns = scratch.baseAddress!
            var iy = firstRow / kh
            while iy * kh < endRow {
                // The output rows of this input row that were asked for.
                let rows = max(iy * kh, firstRow)..<min((iy + 1) * kh, endRow)
                let inputRow = input + iy * inW * inC
                for block in 0..<blocks {
                    let x = inputRow + block * 8 * inC
                    for ic in 0..<inC {
                        var v = Vec8()
                        for k in 0..<8 { v[k] = x[k &* inC &+ ic] }
                        columns[ic] = v
                    }
                    for oy in rows {
                        let fy = oy - iy * kh
                        let out = output + oy * outRow + block * 8 * kw * outC
                        for fx in 0..<kw {
                            for oc in 0..<outC {
                                let w = filter + ((oc * kh + fy) * kw + fx) * inC
                                var acc = Vec8(repeating: bias[oc])
                                for ic in 0..<inC {
                                    acc = acc + columns[ic] * Vec8(repeating: w[ic])
                                }
                                let lane = out + fx * outC + oc
                                for k in 0..<8 { lane[k &* kw &* outC] = acc[k] }
                            }
                        }
                    }
                }
                // The last input columns, one output pixel at a time, in the same order.
                for ix in (blocks * 8)..<inW {
                    let x = inputRow + ix * inC
                    for oy in rows {
                        let fy = oy - iy * kh
                        for fx in 0..<kw {
                            let out = output + oy * outRow + (ix * kw + fx) * outC
                            for oc in 0..<outC {
                                let w = filter + ((oc * kh + fy) * kw + fx) * inC
                                var acc = bias[oc]
                                for ic in 0..<inC { acc = acc + x[ic] * w[ic] }
                                out[oc] = acc
                            }
                        }
                    }
                }
                iy += 1
            }
        }
    }
}
