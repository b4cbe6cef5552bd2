/// The sampling loops of `ImageToTensor`: integer bilinear taps on 8-bit pixels, as OpenCV's `remap` computes
/// them for `INTER_LINEAR` (weights in 1/32 pixel per axis, products in 1/1024, rounded to 8 bits).
extension ImageToTensor {
    /// Byte offset of upright pixel (0, 0) in the stored image and the byte steps for one upright pixel right
    /// (`du`) and down (`dv`) (`ImageView.uprightStrides`).
    @inline(__always)
    static func addressing(_ image: ImageView) -> (origin: Int, du: Int, dv: Int) { image.uprightStrides }

    /// A position in 1/32 pixel: rounded half up (`.detector`) or half to even (`.warp`, `cvRound`).
    @inline(__always)
    static func fixedPoint(_ position: Double, roundHalfEven: Bool) -> Int {
        roundHalfEven ? Self.roundHalfEven(position * 32) : Int((position * 32 + 0.5).rounded(.down))
    }

    /// The two taps along one axis of position `fixed` (1/32 pixel): byte offsets (`index · stride`, clamped
    /// into the image so that nothing outside is read) and weights. A tap outside the image weighs 0 with
    /// `.zero` border and reads the edge with `.replicate`.
    @inline(__always)
    static func taps(_ fixed: Int, extent: Int, stride: Int, replicate: Bool) -> (Int, Int, Int, Int) {
        let first = fixed >> 5, fraction = fixed & 31, second = first + 1
        let offset0 = min(max(first, 0), extent - 1) * stride
        let offset1 = min(max(second, 0), extent - 1) * stride
        if replicate { return (offset0, offset1, 32 - fraction, fraction) }
        return (offset0, offset1, (0..<extent).contains(first) ? 32 - fraction : 0,
                (0..<extent).contains(second) ? fraction : 0)
    }

    /// Unturned regions: tensor column `i` reads image x `origin.x + i · step.x` and row `j` reads
    /// `origin.y + j · step.y`, so the taps are tabulated once per column and per row.
    func fillSeparable(_ output: UnsafeMutablePointer<Float>, image: ImageView, origin: (Double, Double),
                       step: (Double, Double), roundHalfEven: Bool) {
        let (pixelOrigin, du, dv) = Self.addressing(image)
        let replicate = options.border == .replicate
        func table(_ t: UnsafeMutablePointer<Int>, count: Int, start: Double, step: Double, extent: Int, stride: Int) {
            for i in 0..<count {
                let fixed = Self.fixedPoint(start + Double(i) * step, roundHalfEven: roundHalfEven)
                let (o0, o1, w0, w1) = Self.taps(fixed, extent: extent, stride: stride, replicate: replicate)
                t[4 * i] = o0
                t[4 * i + 1] = o1
                t[4 * i + 2] = w0
                t[4 * i + 3] = w1
            }
        }
        table(columns, count: options.width, start: origin.0, step: step.0, extent: image.uprightWidth, stride: du)
        table(rows, count: options.height, start: origin.1, step: step.1, extent: image.uprightHeight, stride: dv)
        let start = image.baseAddress.assumingMemoryBound(to: UInt8.self) + pixelOrigin
        let (scale, offset) = valueTransform
        let (w, h) = (options.width, options.height)
        switch image.pixelFormat.channelOffsets {
        case (0, 1, 2): Self.sample(output, width: w, height: h, start: start, columns: columns, rows: rows,
                                    scale: scale, offset: offset, channels: (0, 1, 2))
        case (2, 1, 0): Self.sample(output, width: w, height: h, start: start, columns: columns, rows: rows,
                                    scale: scale, offset: offset, channels: (2, 1, 0))
        case let c: Self.sample(output, width: w, height: h, start: start, columns: columns, rows: rows,
                                scale: scale, offset: offset, channels: c)
        }
    }

    /// `value · scale + offset` maps 0...255 onto the range (MediaPipe's `GetValueRangeTransformation`).
    var valueTransform: (scale: Float, offset: Float) {
        ((options.range.upperBound - options.range.lowerBound) / 255, options.range.lowerBound)
    }

    /// Writes one tensor pixel: the three channels of the four taps `t` (top-left, top-right, bottom-left,
    /// bottom-right) weighted by `w` (summing to 1024), rounded to 8 bits, then `value · scale + offset`.
    @inline(__always)
    static func blend(_ out: UnsafeMutablePointer<Float>,
                      _ t: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>),
                      _ w: (Int32, Int32, Int32, Int32), scale: Float, offset: Float, channels c: (Int, Int, Int)) {
        @inline(__always)
        func channel(_ k: Int) -> Float {
            let sum = Int32(t.0[k]) &* w.0 &+ Int32(t.1[k]) &* w.1 &+ Int32(t.2[k]) &* w.2 &+ Int32(t.3[k]) &* w.3
            return Float((sum &+ 512) &>> 10) * scale + offset
        }
        out[0] = channel(c.0)
        out[1] = channel(c.1)
        out[2] = channel(c.2)
    }

    /// The separable sampling loop, inlined per pixel layout so that the channel offsets are constants. A
    /// tensor row whose two taps both weigh 0 (a letterbox band with `.zero` border) is the range's value
    /// for 0 throughout, written without sampling.
    @inline(__always)
    static func sample(_ output: UnsafeMutablePointer<Float>, width: Int, height: Int, start: UnsafePointer<UInt8>,
                       columns: UnsafeMutablePointer<Int>, rows: UnsafeMutablePointer<Int>, scale: Float,
                       offset: Float, channels c: (Int, Int, Int)) {
        var out = output
        for j in 0..<height {
            let row = rows + 4 * j
            let wy0 = Int32(truncatingIfNeeded: row[2]), wy1 = Int32(truncatingIfNeeded: row[3])
            if wy0 == 0 && wy1 == 0 {
                out.update(repeating: offset, count: 3 * width)
                out += 3 * width
                continue
            }
            let top = start + row[0], bottom = start + row[1]
            for i in 0..<width {
                let column = columns + 4 * i
                let wx0 = Int32(truncatingIfNeeded: column[2]), wx1 = Int32(truncatingIfNeeded: column[3])
                let w00 = wx0 &* wy0, w01 = wx1 &* wy0, w10 = wx0 &* wy1, w11 = wx1 &* wy1
                blend(out, (top + column[0], top + column[1], bottom + column[0], bottom + column[1]),
                      (w00, w01, w10, w11), scale: scale, offset: offset, channels: c)
                out += 3
            }
        }
    }

    /// `value` rounded half to even (`cvRound`), for |value| < 2^51: adding and removing 1.5 · 2^52 leaves
    /// the nearest integer under the default rounding mode, without a libm call.
    @inline(__always)
    static func roundHalfEven(_ value: Double) -> Int {
        let magic = 6_755_399_441_055_744.0
        return Int((value + magic) - magic)
    }

    /// The `.warp` sampling: every tensor pixel's position is computed from the frame (no table can express a
    /// rotation), then sampled like the separable path. Color formats take the vector loop (`warpVector`), which
    /// reproduces the per-pixel reference (`fillWarpedReference`) bit for bit, turned or not; gray takes the
    /// tabulated loop when the frame is unturned (the same result) and the reference otherwise.
    func fillWarped(_ output: UnsafeMutablePointer<Float>, image: ImageView, frame: WarpFrame) {
        let geometry = warpGeometry(image)
        let (scale, offset) = valueTransform
        let (w, h) = (options.width, options.height)
        let c = image.pixelFormat.channelOffsets
        func run<L: TapLayout>(_ layout: L.Type) {
            if frame.isAxisAligned {
                Self.warpSeparable(output, width: w, height: h, frame: frame, geometry: geometry, scratch: warpScratch,
                                   columns: columns, scale: scale, offset: offset, channels: c, layout: layout)
            } else {
                Self.warpVector(output, width: w, height: h, frame: frame, geometry: geometry, scratch: warpScratch,
                                scale: scale, offset: offset, channels: c, layout: layout)
            }
        }
        switch image.pixelFormat {
        case .nv12, .nv21, .i420:
            guard let chroma = image.chroma else { preconditionFailure("a YUV view always has its chroma planes") }
            fillYUVWarped(output, image: image, chroma: chroma, frame: frame)
        case .rgb8: run(RGB3Taps.self)
        case .rgba8: run(RGBATaps.self)
        case .bgra8: run(BGRATaps.self)
        case .argb8: run(ARGBTaps.self)
        case .gray8 where frame.isAxisAligned:
            fillSeparable(output, image: image, origin: frame.origin, step: (frame.xStep.x, frame.yStep.y),
                          roundHalfEven: true)
        case .gray8: fillWarpedReference(output, image: image, frame: frame)
        }
    }

    /// The per-pixel reference of `fillWarped`: pixels whose four taps lie inside the image take a branch-free
    /// path; the others go through `taps` for the border. Kept for gray and as the tests' reference.
    func fillWarpedReference(_ output: UnsafeMutablePointer<Float>, image: ImageView, frame: WarpFrame) {
        let geometry = warpGeometry(image)
        let (scale, offset) = valueTransform
        let (w, h) = (options.width, options.height)
        switch image.pixelFormat.channelOffsets {
        case (0, 1, 2): Self.warpReference(output, width: w, height: h, frame: frame, geometry: geometry, scale: scale,
                                           offset: offset, channels: (0, 1, 2))
        case (2, 1, 0): Self.warpReference(output, width: w, height: h, frame: frame, geometry: geometry, scale: scale,
                                           offset: offset, channels: (2, 1, 0))
        case let c: Self.warpReference(output, width: w, height: h, frame: frame, geometry: geometry, scale: scale,
                                       offset: offset, channels: c)
        }
    }

    /// The `.warp` loops' view of a packed image: where its upright pixels are and how its border reads.
    func warpGeometry(_ image: ImageView) -> WarpGeometry {
        let (pixelOrigin, du, dv) = Self.addressing(image)
        let start = image.baseAddress.assumingMemoryBound(to: UInt8.self) + pixelOrigin
        return WarpGeometry(start: start, du: du, dv: dv, extentX: image.uprightWidth, extentY: image.uprightHeight,
                            replicate: options.border == .replicate)
    }

    /// Where the upright image's pixels are (see `addressing`) and how its border reads.
    struct WarpGeometry {
        var start: UnsafePointer<UInt8>
        var du: Int, dv: Int
        var extentX: Int, extentY: Int
        var replicate: Bool
    }

    /// The per-pixel loop of `fillWarpedReference`, inlined per pixel layout so that the channel offsets are
    /// constants.
    @inline(__always)
    static func warpReference(_ output: UnsafeMutablePointer<Float>, width: Int, height: Int, frame: WarpFrame,
                     geometry g: WarpGeometry, scale: Float, offset: Float, channels c: (Int, Int, Int)) {
        let lastX = UInt(g.extentX - 1), lastY = UInt(g.extentY - 1)
        var out = output
        for j in 0..<height {
            let rowX = frame.origin.0 + Double(j) * frame.yStep.x
            let rowY = frame.origin.1 + Double(j) * frame.yStep.y
            for i in 0..<width {
                let fx = roundHalfEven((rowX + Double(i) * frame.xStep.x) * 32)
                let fy = roundHalfEven((rowY + Double(i) * frame.xStep.y) * 32)
                let ax = Int32(truncatingIfNeeded: fx & 31), ay = Int32(truncatingIfNeeded: fy & 31)
                let a: UnsafePointer<UInt8>, b: UnsafePointer<UInt8>, d: UnsafePointer<UInt8>, e: UnsafePointer<UInt8>
                let w00: Int32, w01: Int32, w10: Int32, w11: Int32
                let x0 = fx >> 5, y0 = fy >> 5
                if UInt(bitPattern: x0) < lastX && UInt(bitPattern: y0) < lastY {
                    a = g.start + y0 * g.dv + x0 * g.du
                    b = a + g.du
                    d = a + g.dv
                    e = d + g.du
                    w00 = (32 - ax) &* (32 - ay); w01 = ax &* (32 - ay); w10 = (32 - ax) &* ay; w11 = ax &* ay
                } else {
                    let (x0, x1, wx0, wx1) = taps(fx, extent: g.extentX, stride: g.du, replicate: g.replicate)
                    let (y0, y1, wy0, wy1) = taps(fy, extent: g.extentY, stride: g.dv, replicate: g.replicate)
                    w00 = Int32(wx0 * wy0); w01 = Int32(wx1 * wy0); w10 = Int32(wx0 * wy1); w11 = Int32(wx1 * wy1)
                    a = g.start + y0 + x0; b = g.start + y0 + x1; d = g.start + y1 + x0; e = g.start + y1 + x1
                }
                blend(out, (a, b, d, e), (w00, w01, w10, w11), scale: scale, offset: offset, channels: c)
                out += 3
            }
        }
    }
}
