// The BlazeBlock shortcut in one pass: output = clamp(shortcut' + main), where shortcut' is the shortcut
// zero-padded in channels (PAD after the data) and, for a stride-2 block, 2x2-max-pooled first. It repeats
// what MAX_POOL_2D, PAD and ADD compute, operation for operation, so the result is the same to the bit
// without the two intermediate tensors.

import BlazeKernelParameters

extension Microkernels {
    /// Rows `rows` of one image: `output[y, x, j] = clamp(s(y, x, j) + main[y, x, j])` (or `main + s` when
    /// `shortcutFirst` is false, as the ADD's operand order was) for `j < channels`, where `s` is the shortcut
    /// (`shortcutChannels` channels, `shortcutWidth` pixels per row) at (y, x), or the running maximum of its
    /// 2x2 window at (2y, 2x) clamped to the pool's bounds when `pooled`, and 0 in channels beyond
    /// `shortcutChannels`; then PReLU with the slopes `alpha` (one per channel) when given.
    package static func residualAdd(_ a: ResidualAddArguments) {
        let shortcut = a.shortcut, sw = a.shortcutWidth, cin = a.shortcutChannels, pooled = a.pooled
        let poolLower = a.poolBounds.lower, poolUpper = a.poolBounds.upper, shortcutFirst = a.shortcutFirst
        let main = a.main, output = a.output, w = a.width, c = a.channels, rows = a.rows
        let lo = a.bounds.lower, hi = a.bounds.upper, alpha = a.alpha
        // The PRELU after the clamp (slopes of channels j..<j+8), or nothing.
        @inline(__always) func finish(_ v: Vec8, _ j: Int) -> Vec8 {
            guard let alpha else { return v }
            return preluLanes(v, load8(alpha + j))
        }
        let lower = Vec8(repeating: lo), upper = Vec8(repeating: hi)
        let pl = Vec8(repeating: poolLower), pu = Vec8(repeating: poolUpper)
        let start = Vec8(repeating: -Float.greatestFiniteMagnitude)
        let zero = Vec8()
        if cin >= 8 {
            // Full vectors only: first the padded channels (0 + main), the last vector ending at channel c
            // (it may reach back into the shortcut's channels), then the shortcut's channels, the last vector
            // ending at cin; they rewrite any lane the padded vectors covered. Everything is read from the
            // inputs, so the overlaps compute each lane the same way every time.
            for y in rows {
                for x in 0..<w {
                    let m = main + (y * w + x) * c, o = output + (y * w + x) * c
                    let p00 = pooled ? shortcut + (2 * y * sw + 2 * x) * cin : shortcut + (y * sw + x) * cin
                    let p01 = p00 + cin, p10 = p00 + sw * cin, p11 = p10 + cin
                    if cin < c {
                        var j = cin
                        while j + 8 < c {
                            let mv = load8(m + j)
                            store8(finish(clamp(shortcutFirst ? zero + mv : mv + zero, lower, upper), j), o + j)
                            j += 8
                        }
                        let mv = load8(m + c - 8)
                        store8(finish(clamp(shortcutFirst ? zero + mv : mv + zero, lower, upper), c - 8), o + c - 8)
                    }
                    var j = 0
                    while true {
                        let k = min(j, cin - 8)
                        var s: Vec8
                        if pooled {
                            s = start
                            s = maximum(s, load8(p00 + k))
                            s = maximum(s, load8(p01 + k))
                            s = maximum(s, load8(p10 + k))
                            s = maximum(s, load8(p11 + k))
                            s = clamp(s, pl, pu)
                        } else {
                            s = load8(p00 + k)
                        }
                        let mv = load8(m + k)
                        store8(finish(clamp(shortcutFirst ? s + mv : mv + s, lower, upper), k), o + k)
                        if k == cin - 8 { break }
                        j += 8
                    }
                }
            }
            return
        }
        // Fewer than 8 shortcut channels: partial vectors.
        for y in rows {
            for x in 0..<w {
                let m = main + (y * w + x) * c, o = output + (y * w + x) * c
                let p00 = pooled ? shortcut + (2 * y * sw + 2 * x) * cin : shortcut + (y * sw + x) * cin
                let p01 = p00 + cin, p10 = p00 + sw * cin, p11 = p10 + cin
                var j = 0
                while j < c {
                    let count = min(8, c - j)
                    let sc = min(max(cin - j, 0), 8)
                    var s = Vec8()
                    if sc > 0 {
                        if pooled {
                            var v = start
                            v = maximum(v, loadPartial(p00 + j, sc))
                            v = maximum(v, loadPartial(p01 + j, sc))
                            v = maximum(v, loadPartial(p10 + j, sc))
                            v = maximum(v, loadPartial(p11 + j, sc))
                            // Lanes past the shortcut's channels are max(start, 0) = 0: the padding value.
                            s = clamp(v, pl, pu)
                        } else {
                            s = loadPartial(p00 + j, sc)
                        }
                    }
                    let mv = loadPartial(m + j, count)
                    var r = clamp(shortcutFirst ? s + mv : mv + s, lower, upper)
                    if let alpha { r = preluLanes(r, loadPartial(alpha + j, count)) }
                    if count == 8 { store8(r, o + j) } else { storePartial(r, o + j, count) }
                    j += 8
                }
            }
        }
    }
}

extension Microkernels {
    /// A same-shape ADD followed by a per-channel PRELU, over `pixels` pixels of `channels` channels:
    /// `output = prelu(clamp(lhs + rhs), alpha[channel])`, lane for lane what the two kernels compute.
    package static func addPReLU(_ a: AddPReLUArguments) {
        let pixels = a.pixels, c = a.channels, lhs = a.lhs, rhs = a.rhs, alpha = a.alpha, output = a.output
        let lower = Vec8(repeating: a.bounds.lower), upper = Vec8(repeating: a.bounds.upper)
        var offset = 0
        for _ in 0..<pixels {
            let a = lhs + offset, b = rhs + offset, o = output + offset
            var j = 0
            while j + 8 <= c {
                store8(preluLanes(clamp(load8(a + j) + load8(b + j), lower, upper), load8(alpha + j)), o + j)
                j += 8
            }
            if j < c {
                let n = c - j
                let v = clamp(loadPartial(a + j, n) + loadPartial(b + j, n), lower, upper)
                storePartial(preluLanes(v, loadPartial(alpha + j, n)), o + j, n)
            }
            offset += c
        }
    }
}
