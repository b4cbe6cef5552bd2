import BlazeSegmentation
import BlazeTestSupport
import CAllocationCounter
import Testing

/// Once warmed up with frames of the same size, segmentation and background replacement allocate nothing on the
/// calling thread (CAllocationCounter, Linux/glibc only).
@Suite("Segmentation allocations")
struct SegmentationAllocationTests {
    @Test("segment(_:into:) performs no heap allocation, at either resolution, smoothed or not",
          .enabled(if: blaze_allocation_counting_available() == 1),
          arguments: [PersonSegmenter.Model.general, .landscape, .automatic])
    func segment(_ model: PersonSegmenter.Model) throws {
        let segmenter = try PersonSegmenter(model: model, modelsDirectory: SegmentationSamples.modelsDirectory,
                                            options: .init(smoothing: 0.7))
        let image = SegmentationSamples.buffer(try SegmentationGoldens.picture("astronaut_wide_1280x720"))
        var mask = SegmentationMask(), small = SegmentationMask()
        var counts = (image: -1, model: -1)
        try image.withView { view in
            try segmenter.segment(view, into: &mask)
            try segmenter.segment(view, into: &small, resolution: .model)
            try segmenter.segment(view, into: &mask)
            blaze_allocation_counting_begin()
            try segmenter.segment(view, into: &mask)
            counts.image = blaze_allocation_counting_end()
            try segmenter.segment(view, into: &small, resolution: .model)
            blaze_allocation_counting_begin()
            try segmenter.segment(view, into: &small, resolution: .model)
            counts.model = blaze_allocation_counting_end()
        }
        #expect(mask.width == 1280 && mask.height == 720)
        #expect(counts.image == 0, "\(model): \(counts.image) allocations at the image's resolution")
        #expect(counts.model == 0, "\(model): \(counts.model) allocations at the model's resolution")
    }

    @Test("replaceBackground into a caller's buffer performs no heap allocation",
          .enabled(if: blaze_allocation_counting_available() == 1))
    func replace() throws {
        let picture = try SegmentationGoldens.picture("astronaut")
        let image = SegmentationSamples.buffer(picture)
        let backdrop = SegmentationSamples.buffer(try SegmentationGoldens.picture("camera_rgb"))
        let mask = try image.withView { try SegmentationSamples.segmenter(.general).segment($0) }
        let replacer = BackgroundReplacer()
        var raw = [UInt8](repeating: 0, count: 512 * 512 * 4)
        var buffer = ImageBuffer(width: 0, height: 0)
        var counts: [Int] = []
        try image.withView { view in
            try backdrop.withView { back in
                for background in [Background.passportWhite, .blur(radius: 8), .image(back)] {
                    try raw.withUnsafeMutableBytes { bytes in
                        try replacer.replaceBackground(of: view, mask: mask, with: background, into: bytes, pixelFormat: .bgra8)
                        blaze_allocation_counting_begin()
                        try replacer.replaceBackground(of: view, mask: mask, with: background, into: bytes, pixelFormat: .bgra8)
                        counts.append(blaze_allocation_counting_end())
                    }
                    try replacer.replaceBackground(of: view, mask: mask, with: background, into: &buffer)
                    blaze_allocation_counting_begin()
                    try replacer.replaceBackground(of: view, mask: mask, with: background, into: &buffer)
                    counts.append(blaze_allocation_counting_end())
                }
            }
        }
        #expect(counts == [0, 0, 0, 0, 0, 0])
    }
}

@Suite("PersonSegmenter threads")
struct PersonSegmenterThreadTests {
    @Test("one segmenter shared by several threads gives each the mask one thread alone gets")
    func shared() async throws {
        let segmenter = try PersonSegmenter(model: .automatic, modelsDirectory: SegmentationSamples.modelsDirectory)
        let pictures = try ["astronaut", "astronaut_wide_1280x720"].map {
            SegmentationSamples.buffer(try SegmentationGoldens.picture($0))
        }
        let expected = try pictures.map { picture in try picture.withView { try segmenter.segment($0) } }
        try await withThrowingTaskGroup(of: (Int, SegmentationMask).self) { group in
            for task in 0..<4 {
                let index = task % 2
                group.addTask { (index, try pictures[index].withView { try segmenter.segment($0) }) }
            }
            for try await (index, mask) in group { #expect(mask == expected[index]) }
        }
    }
}
