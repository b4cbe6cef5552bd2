import BlazeSegmentation
import BlazeTestSupport
import Testing

/// MediaPipe's SegmentationSmoothingCalculator formula and the segmenter's use of it for video.
@Suite("Mask smoothing")
struct SmoothingTests {
    @Test("confident pixels follow the new mask; at 0.5 the previous one keeps `ratio` of the weight")
    func formula() {
        // At p = 0.5 the uncertainty is 1: p + (q − p) · ratio.
        #expect(abs(MaskSmoothing.blend(current: 0.5, previous: 1, ratio: 0.7) - 0.85) < 1e-6)
        // At p = 0 or 1 the polynomial reaches 1 (uncertainty 0, up to rounding): the new value.
        #expect(abs(MaskSmoothing.blend(current: 0, previous: 1, ratio: 0.7)) < 1e-3)
        #expect(abs(MaskSmoothing.blend(current: 1, previous: 0, ratio: 0.7) - 1) < 1e-3)
        // In between, MediaPipe's polynomial in x = (p − 0.5)², here in Double: at p = 0.92 the uncertainty is 0.16.
        let x = 0.42 * 0.42
        let uncertainty = 1 - min(1, x * (5.68842 + x * (-0.748699 + x * (-57.8051 + x * (291.309 + x * -624.717)))))
        #expect(abs(uncertainty - 0.1617) < 1e-3)
        #expect(abs(Double(MaskSmoothing.blend(current: 0.92, previous: 0, ratio: 1)) - 0.92 * (1 - uncertainty)) < 1e-5)
        // Ratio 0 turns it off; equal values stay.
        #expect(MaskSmoothing.blend(current: 0.6, previous: 0.1, ratio: 0) == 0.6)
        #expect(MaskSmoothing.blend(current: 0.55, previous: 0.55, ratio: 0.9) == 0.55)
        // In between: monotone in the uncertainty (closer to 0.5, more of the previous value).
        let near = MaskSmoothing.blend(current: 0.45, previous: 1, ratio: 0.7)
        let far = MaskSmoothing.blend(current: 0.2, previous: 1, ratio: 0.7)
        #expect(near - 0.45 > far - 0.2 && far - 0.2 > 0)
    }

    @Test("video: the first frame passes through, the next is mixed with it, reset() starts over")
    func segmenter() throws {
        let segmenter = try PersonSegmenter(model: .general, modelsDirectory: SegmentationSamples.modelsDirectory,
                                            options: .init(smoothing: 0.7))
        let plain = try SegmentationSamples.segmenter(.general)
        let first = SegmentationSamples.buffer(try SegmentationGoldens.picture("astronaut"))
        let second = SegmentationSamples.buffer(try SegmentationGoldens.picture("astronaut_mirror"))
        let rawFirst = try first.withView { try plain.segment($0) }
        let rawSecond = try second.withView { try plain.segment($0) }

        var mask = SegmentationMask()
        try first.withView { try segmenter.segment($0, into: &mask) }
        #expect(mask == rawFirst)
        try second.withView { try segmenter.segment($0, into: &mask) }
        let expected = zip(rawSecond.values, rawFirst.values).map {
            MaskSmoothing.blend(current: $0, previous: $1, ratio: 0.7)
        }
        #expect(mask.values == expected)
        #expect(mask != rawSecond, "some pixels are uncertain, so smoothing changes them")

        segmenter.reset()
        try second.withView { try segmenter.segment($0, into: &mask) }
        #expect(mask == rawSecond)
        // A frame of another size starts over too.
        let small = SegmentationSamples.buffer(try SegmentationGoldens.picture("astronaut_small_100x75"))
        try small.withView { try segmenter.segment($0, into: &mask) }
        #expect(mask == (try small.withView { try plain.segment($0) }))
    }

    @Test("parity with MediaPipe's SegmentationSmoothingCalculator over three frames (the parity bounds)")
    func mediaPipeVideo() throws {
        let video = try SegmentationGoldens.load().video
        let segmenter = try PersonSegmenter(model: .general, modelsDirectory: SegmentationSamples.modelsDirectory,
                                            options: .init(smoothing: video.combineWithPreviousRatio))
        var mask = SegmentationMask()
        for (index, name) in video.frames.enumerated() {
            try SegmentationSamples.buffer(try SegmentationGoldens.picture(name)).withView {
                try segmenter.segment($0, into: &mask)
            }
            guard let result = video.smoothed[index] else { continue }
            let reference = try SegmentationGoldens.mask(result)
            let (meanError, iou) = SegmentationSamples.compare(mask, reference)
            let worst = zip(mask.values, reference.values).map { abs($0 - $1) }.max() ?? 0
            #expect(meanError <= 0.01 && iou >= 0.98 && worst <= 0.004,
                    "frame \(index): mean |Δ| \(meanError), IoU \(iou), max |Δ| \(worst)")
            for probe in result.probes {
                let value = mask[x: Int(probe[0]), y: Int(probe[1])]
                #expect(abs(Double(value) - probe[2]) <= 1e-4, "frame \(index) at \(probe[0]), \(probe[1]): \(value)")
            }
            // Without smoothing the frame would miss: the golden is not the raw mask.
            let raw = try SegmentationGoldens.mask(.general, name)
            #expect(SegmentationSamples.compare(raw, reference).meanError > 0.005)
            print("smoothing parity frame \(index): mean |Δ| \(meanError), max |Δ| \(worst), IoU \(iou)")
        }
    }
}
