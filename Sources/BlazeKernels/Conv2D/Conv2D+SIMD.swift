extension Conv2D {
    /// Floats per packed 8-output-channel tile: `[bias ×8][kh][kw][inC][×8]`.
    static func simdTileSize(filterShape: Shape4) -> Int {
        8 + filterShape.h * filterShape.w * filterShape.c * 8
    }

    /// Packs an OHWI filter per 8-output-channel tile; channels past `outC` in the last tile are zero.
    static func packSIMD(filterShape: Shape4, filter: [Float], bias: [Float]) -> PackedBuffer<Float> {
        let outC = filterShape.n
        let taps = filterShape.h * filterShape.w * filterShape.c
        let tiles = (outC + 7) / 8
        let tileSize = simdTileSize(filterShape: filterShape)
        let packed = PackedBuffer<Float>(count: tiles * tileSize, repeating: 0)
        for oc in 0..<outC {
            let tile = packed.pointer + (oc / 8) * tileSize
            let lane = oc % 8
            tile[lane] = bias[oc]
            for t in 0..<taps {
                tile[8 + t * 8 + lane] = filter[oc * taps + t]
            }
        }
        return packed
    }

    /// Vectorized over output channels: for each output pixel and each 8-channel tile, accumulates the
    /// in-bounds taps in one `SIMD8<Float>`. Borders are handled by skipping out-of-range taps.
    func runSIMD(_ packed: UnsafePointer<Float>, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let inH = inputShape.h, inW = inputShape.w, inC = inputShape.c
        let outC = outputShape.c
        let tiles = (outC + 7) / 8
        let tileSize = 8 + g.kernelH * g.kernelW * inC * 8
        let (lo, hi) = activation.bounds
        let lower = Vec8(repeating: lo), upper = Vec8(repeating: hi)
        for b in 0..<inputShape.n {
            let image = input + b * inH * inW * inC
            for oy in 0..<g.outH {
                let originY = oy * g.strideH - g.padTop
                for ox in 0..<g.outW {
                    let originX = ox * g.strideW - g.padLeft
                    let out = output + ((b * g.outH + oy) * g.outW + ox) * outC
                    for t in 0..<tiles {
                        let tile = packed + t * tileSize
                        var acc = load8(tile)
                        for ky in 0..<g.kernelH {
                            let iy = originY + ky * g.dilationH
                            if iy < 0 || iy >= inH { continue }
                            for kx in 0..<g.kernelW {
                                let ix = originX + kx * g.dilationW
                                if ix < 0 || ix >= inW { continue }
                                let pixel = image + (iy * inW + ix) * inC
                                var w = tile + 8 + (ky * g.kernelW + kx) * inC * 8
                                for ic in 0..<inC {
                                    acc += Vec8(repeating: pixel[ic]) * load8(w)
                                    w += 8
                                }
                            }
                        }
                        acc = clamp(acc, lower, upper)
                        let remaining = outC - t * 8
                        if remaining >= 8 {
                            store8(acc, out + t * 8)
                        } else {
                            storePartial(acc, out + t * 8, remaining)
                        }
                    }
                }
            }
        }
    }

    /// The implicit GEMM (dilation 1), one image at a time, on the chosen instruction set.
    func runGEMM(
        _ packed: UnsafePointer<Float>, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        pieces: Range<Int>
    ) {
        let g = geometry
        let i = inputShape, o = outputShape
        let (lo, hi) = activation.bounds
        let alpha = slopes.map { UnsafePointer($0.pointer) }
        let rowPieces = o.n * o.h
        let convolution = instructionSet.microkernels.convolution
        let clamped = max(pieces.lowerBound, 0)..<max(min(pieces.upperBound, rowPieces * columnGroups), 0)
        // Pieces are column groups of output rows (group-major), each group a range of column panels.
        Pieces.forEachImage(clamped, rowsPerImage: rowPieces) { group, groupRows in
            let panels = Pieces.panels(group: group, of: columnGroups, panelCount: panelCount)
            Pieces.forEachImage(groupRows, input: input, i, output: output, o) { image, result, rows in
                convolution(
                    image, i.h, i.w, i.c, result, o.h, o.w, o.c, g.kernelH, g.kernelW, g.strideH, g.strideW,
                    g.padTop, g.padLeft, packed, lo, hi, rows, alpha, panels, hardSwish)
            }
        }
    }
}
