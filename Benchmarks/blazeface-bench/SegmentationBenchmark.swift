import BlazeRuntime
import BlazeSegmentation
import Foundation

/// The segmentation pipelines of `--pipelines`: `PersonSegmenter.segment(_:into:)` with the general and the
/// landscape model, the mask at the frame's resolution in a reused `SegmentationMask`, as MediaPipe's
/// SelfieSegmentation returns its `segmentation_mask` (an image-sized float mask). Where the time goes is timed in
/// the same alternating blocks: the bare model invoke (`Interpreter.invoke()`), the segmenter at the model's
/// resolution (`Resolution.model`: preprocessing and invoke, no resize), and `MaskResizer` alone (the model's
/// mask to the frame's size).
enum SegmentationBenchmark {
    /// The pipelines, in report order, with their models.
    static let pipelines: [(name: PipelineName, model: PersonSegmenter.Model)] = [
        (.segmentation, .general), (.segmentationLandscape, .landscape),
    ]

    /// One line for the reports.
    static func configuration(_ model: PersonSegmenter.Model, threads: Int) -> String {
        "PersonSegmenter(model: .\(model)).segment(_:into:) (\(model.catalogName?.fileName ?? "?"), MediaPipe's "
            + "model_selection=\(model == .landscape ? 1 : 0)), mask at the frame's resolution (resolution: .image) "
            + "in a reused SegmentationMask, no smoothing, \(threads) thread\(threads == 1 ? "" : "s")"
    }

    static func run(frame: Frame, threads: Int, modelsDir: String?, iterations: Int, warmup: Int,
                    timeLimit: Double?) throws -> [PipelineResult] {
        let options = PersonSegmenter.Options(threadCount: threads)
        let segmenters = try pipelines.map { try PersonSegmenter(model: $0.model, modelsDirectory: modelsDir, options: options) }
        let bare = try segmenters.map { segmenter in
            let interpreter = try Interpreter(modelPath: segmenter.modelPaths[0], options: .init(threadCount: threads))
            interpreter.withInput(at: 0) { input in
                for i in 0..<input.count { input[i] = Float(i % 255) / 255 }
            }
            return interpreter
        }
        var masks = [SegmentationMask(), SegmentationMask()]
        var small = [SegmentationMask(), SegmentationMask()]
        let resizer = MaskResizer()
        var resized = [Float](repeating: 0, count: frame.width * frame.height)
        let timed = try frame.withImageView { view in
            for i in 0..<2 {  // sizes the masks, and `small` for the resize calls
                try segmenters[i].segment(view, into: &masks[i])
                try segmenters[i].segment(view, into: &small[i], resolution: .model)
            }
            var calls: [() throws -> Void] = []
            for i in 0..<2 {
                calls.append { try segmenters[i].segment(view, into: &masks[i]) }
            }
            for i in 0..<2 {
                calls.append { bare[i].invoke() }
                calls.append { try segmenters[i].segment(view, into: &small[i], resolution: .model) }
                calls.append {
                    try small[i].values.withUnsafeBufferPointer { source in
                        try resized.withUnsafeMutableBufferPointer { destination in
                            try resizer.resize(source, width: small[i].width, height: small[i].height,
                                               into: destination, width: frame.width, height: frame.height)
                        }
                    }
                }
            }
            return try AlternatingBlocks.run(calls, iterations: iterations, warmup: warmup, timeLimit: timeLimit)
        }
        return pipelines.enumerated().map { i, pipeline in
            let person = masks[i].values.reduce(0) { $1 > 0.5 ? $0 + 1 : $0 }
            let breakdown = SegmentationBreakdown(invoke: timed.summaries[2 + 3 * i],
                                                  modelResolution: timed.summaries[3 + 3 * i],
                                                  resize: timed.summaries[4 + 3 * i],
                                                  modelResolutionAllocations: timed.allocations[3 + 3 * i])
            return PipelineResult(name: pipeline.name, threads: threads, frame: frame, timing: timed.summaries[i],
                                  allocations: timed.allocations[i], iterations: timed.iterations, faces: 0,
                                  presence: nil, trackedThroughout: nil,
                                  personShare: Double(person) / Double(max(masks[i].values.count, 1)),
                                  breakdown: breakdown)
        }
    }
}

/// Where a segmentation pipeline's time goes, timed alongside it.
struct SegmentationBreakdown {
    /// The bare model invoke (`Interpreter.invoke()`, the input written once).
    var invoke: Summary
    /// `segment(_:into:resolution: .model)`: the input conversion, the invoke and the copy of the mask out.
    var modelResolution: Summary
    /// `MaskResizer.resize` of the model's mask to the frame's size.
    var resize: Summary
    var modelResolutionAllocations: Int
}
