import BlazeImaging
import BlazeSegmentation
import BlazeTestSupport
import Testing

/// What PersonSegmenter's and BackgroundReplacer's documentation promise about threads: one of each may be
/// shared (calls are serialized and give the sequential results), and segmenters of their own run side by
/// side, each with its interpreter's worker threads and its own smoothing state. Run under ThreadSanitizer by
/// Tests/Sanitizers/tsan.sh.
@Suite("Concurrency: segmentation")
struct SegmentationConcurrencyTests {
    static let names = ["astronaut", "astronaut_mirror"]

    static func pictures() throws -> [ImageBuffer] {
        try names.map { SegmentationSamples.buffer(try SegmentationGoldens.picture($0)) }
    }

    @Test("one segmenter (no smoothing) shared by four threads: every mask is the sequential one")
    func sharedSegmenter() throws {
        let segmenter = try PersonSegmenter(model: .general, modelsDirectory: SegmentationSamples.modelsDirectory)
        let pictures = try Self.pictures()
        let sequential = try pictures.map { picture in try picture.withView { try segmenter.segment($0) } }
        let outcome = Hammer.run(threads: 4, rounds: 3) { thread, round in
            let index = (thread + round) % pictures.count
            var mask = SegmentationMask()
            try pictures[index].withView { try segmenter.segment($0, into: &mask) }
            let small = try pictures[index].withView { try segmenter.segment($0, resolution: .model) }
            return (index, mask, small.width)
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.all.count == 12)
        for (index, mask, smallWidth) in outcome.all {
            #expect(mask == sequential[index], "picture \(Self.names[index])")
            #expect(smallWidth == 256)
        }
    }

    @Test("a smoothing segmenter per thread, two interpreter threads each: each video gives its sequential masks")
    func perThreadVideo() throws {
        let pictures = try Self.pictures()
        @Sendable func video(_ segmenter: PersonSegmenter, thread: Int) throws -> [SegmentationMask] {
            var mask = SegmentationMask()
            return try (0..<4).map { frame in
                try pictures[(thread + frame) % pictures.count].withView { try segmenter.segment($0, into: &mask) }
                return mask
            }
        }
        @Sendable func segmenter(threads: Int) throws -> PersonSegmenter {
            try PersonSegmenter(model: .general, modelsDirectory: SegmentationSamples.modelsDirectory,
                                options: .init(smoothing: 0.7, threadCount: threads))
        }
        let sequential = try (0..<2).map { thread in try video(try segmenter(threads: 1), thread: thread) }
        let outcome = Hammer.run(threads: 3, rounds: 1) { thread, _ in
            try video(try segmenter(threads: 2), thread: thread)
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        for (thread, masks) in outcome.results.enumerated() {
            #expect(masks[0] == sequential[thread % 2], "thread \(thread)")
        }
    }

    @Test("one background replacer shared by four threads, blurring pictures of two sizes")
    func sharedReplacer() throws {
        let segmenter = try SegmentationSamples.segmenter(.general)
        let large = try Self.pictures()[0]
        let small = SegmentationSamples.buffer(try SegmentationGoldens.picture("astronaut_small_100x75"))
        let inputs = try [large, small].map { picture in (picture, try picture.withView { try segmenter.segment($0) }) }
        let replacer = BackgroundReplacer()
        let sequential = try inputs.map { picture, mask in
            try picture.withView { try replacer.replaceBackground(of: $0, mask: mask, with: .blur(radius: 6)) }
        }
        let outcome = Hammer.run(threads: 4, rounds: 4) { thread, round in
            let index = (thread + round) % inputs.count
            let (picture, mask) = inputs[index]
            return (index, try picture.withView { try replacer.replaceBackground(of: $0, mask: mask, with: .blur(radius: 6)) })
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.all.count == 16)
        for (index, composed) in outcome.all {
            #expect(composed == sequential[index], "input \(index)")
        }
    }
}
