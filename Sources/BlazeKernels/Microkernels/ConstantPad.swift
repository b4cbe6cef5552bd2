// TFLite's PAD with a constant: output rows outside the input filled, rows inside filled, copied and filled per
// pixel; and the vector fill and copy it is made of.

import BlazeKernelParameters

extension Microkernels {
    /// Constant padding of a 4-D tensor, row at a time: the output rows outside the input are filled; rows
    /// inside are fill, copy, fill per pixel. `before` and the shapes as `(n, h, w, c)`. Writes the output
    /// rows `outputRows` of the `n·h` rows only.
    package static func pad(_ a: PadArguments) {
        let input = a.input, i = a.inputShape, output = a.output, o = a.outputShape, before = a.before
        let value = a.value, outputRows = a.outputRows
        let after = o.c - i.c - before.c
        let firstRow = max(outputRows.lowerBound, 0), endRow = max(min(outputRows.upperBound, o.n * o.h), firstRow)
        var out = output + firstRow * o.w * o.c
        for row in firstRow..<endRow {
            let b = row / o.h, y = row % o.h
            let ib = b - before.n
            do {
                let iy = y - before.h
                if !(ib >= 0 && ib < i.n && iy >= 0 && iy < i.h) {
                    fill(out, count: o.w * o.c, value)
                    out += o.w * o.c
                    continue
                }
                for x in 0..<o.w {
                    let ix = x - before.w
                    if ix < 0 || ix >= i.w {
                        fill(out, count: o.c, value)
                    } else if before.c == 0 && i.c >= 8 {
                        // Channel padding after the data (BlazeBlock shortcuts): full vectors only. The constant
                        // first, the last vector ending at the pixel's end (it may reach back into the data
                        // channels, which the copy then rewrites), then the data, its last vector ending at i.c.
                        if after > 0 {
                            let v = Vec8(repeating: value)
                            var j = i.c
                            while j + 8 <= o.c {
                                store8(v, out + j)
                                j += 8
                            }
                            if j < o.c { store8(v, out + o.c - 8) }
                        }
                        let source = input + ((ib * i.h + iy) * i.w + ix) * i.c
                        var j = 0
                        while j + 8 <= i.c {
                            store8(load8(source + j), out + j)
                            j += 8
                        }
                        if j < i.c { store8(load8(source + i.c - 8), out + i.c - 8) }
                    } else {
                        fill(out, count: before.c, value)
                        copy(input + ((ib * i.h + iy) * i.w + ix) * i.c, to: out + before.c, count: i.c)
                        fill(out + before.c + i.c, count: after, value)
                    }
                    out += o.c
                }
            }
        }
    }

    @inline(__always)
    static func fill(_ p: UnsafeMutablePointer<Float>, count: Int, _ value: Float) {
        let v = Vec8(repeating: value)
        var i = 0
        while i + 8 <= count {
            store8(v, p + i)
            i += 8
        }
        if i < count { storePartial(v, p + i, count - i) }
    }

    @inline(__always)
    static func copy(_ source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        while i + 8 <= count {
            store8(load8(source + i), destination + i)
            i += 8
        }
        if i < count { storePartial(loadPartial(source + i, count - i), destination + i, count - i) }
    }
}
