import BlazeModels
import Foundation

/// Separates people from the background: image in, a mask of person probabilities out (MediaPipe's selfie
/// segmentation).
///
/// ```swift
/// let segmenter = try PersonSegmenter(model: .general)
/// var mask = SegmentationMask()
/// try segmenter.segment(image, into: &mask)              // image: an ImageView; mask: image size, 0...1
/// let person = mask[x: 100, y: 200] > 0.5
/// ```
///
/// The pipeline is MediaPipe's `SelfieSegmentationCpu` graph (`selfie_segmentation_cpu.pbtxt`), which its
/// legacy `SelfieSegmentation(model_selection:)` runs: the whole upright image stretched to the model's input
/// (no letterbox: `keep_aspect_ratio: false`; bilinear, zero border, values 0...1), the model (whose last
/// operator is already the sigmoid: activation NONE), and the 256x256 or 256x144 mask resized to the image
/// (OpenCV's `cv::resize`, bilinear; see `MaskResizer`). Any pixel format and orientation is accepted; the
/// mask is in upright pixels. An image of one pixel gets a mask of one pixel.
///
/// For video, `Options.smoothing` mixes each mask with the previous one where it is uncertain (MediaPipe's
/// `SegmentationSmoothingCalculator`); `reset()` forgets the previous mask (a new scene or stream).
///
/// Thread safety: a segmenter may be shared between threads; its calls are serialized by a lock (for
/// parallel work, make one per thread). With `Options.smoothing` above 0 it keeps the previous mask, so
/// frames of one video must reach it in order: give each video its own segmenter. With
/// `segment(_:into:)`, frames of the same size as the last one and a mask whose storage is not shared, it
/// performs no heap allocation.
public final class PersonSegmenter: @unchecked Sendable {
    /// Which model runs (for a file you bring: `.landscape` when its input is wider than high, else `.general`).
    public let model: Model
    /// The options the segmenter was created with.
    public let options: Options
    /// The model files in use: one, or for `.automatic` the general model's, then the landscape model's.
    public let modelPaths: [String]

    /// The general (or only) model and, for `.automatic`, the landscape model.
    private let primary: Stage
    private let landscape: Stage?
    private let resizer = MaskResizer()
    private let lock = NSLock()
    /// The previous smoothed mask and which stage and size it belongs to (width 0: none).
    private var previous = SegmentationMask()
    private var previousStage = -1

    /// A segmenter on the catalog's selfie segmentation models, found by `ModelLocator` as
    /// `FaceDetector(model:)` finds its own (`modelsDirectory`, a folder or for `.general` and `.landscape`
    /// the file itself, else `BLAZEFACE_MODELS`, else `Models` beside the executable, else `./Models`).
    /// - Parameters:
    ///   - model: which model runs (default `.general`; `.automatic` loads both).
    ///   - modelsDirectory: a folder holding the model files (or the file itself); nil searches the default
    ///     folders.
    ///   - options: the segmenter's options.
    /// - Throws: `PersonSegmenterError.modelNotFound`, `.invalidModel`, `.incompatibleModel`, `.invalidOptions`.
    public convenience init(model: Model = .general, modelsDirectory: String? = nil,
                            options: Options = Options()) throws(PersonSegmenterError) {
        func locate(_ name: ModelName) throws(PersonSegmenterError) -> String {
            try PersonSegmenterError.locateModel(name, in: modelsDirectory)
        }
        let paths: [String]
        switch model {
        case .general: paths = [try locate(.selfieSegmentation)]
        case .landscape: paths = [try locate(.selfieSegmentationLandscape)]
        case .automatic: paths = [try locate(.selfieSegmentation), try locate(.selfieSegmentationLandscape)]
        }
        try self.init(model: model, modelPaths: paths, options: options)
    }

    /// A segmenter on a model file you bring: one `1 x H x W x 3` image input (values 0...1) and a
    /// `1 x h x w x 1` output of probabilities (the first such output). `model` is `.landscape` when the input is
    /// wider than high, else `.general`.
    /// - Parameters:
    ///   - modelPath: the .tflite file's path.
    ///   - options: the segmenter's options.
    /// - Throws: `PersonSegmenterError.modelNotFound`, `.invalidModel`, `.incompatibleModel`, `.invalidOptions`.
    public convenience init(modelPath: String, options: Options = Options()) throws(PersonSegmenterError) {
        try self.init(model: .general, modelPaths: [modelPath], options: options)
    }

    private init(model: Model, modelPaths: [String], options: Options) throws(PersonSegmenterError) {
        try options.validate(as: PersonSegmenterError.self)
        primary = try Stage(modelPath: modelPaths[0], options: options)
        landscape = modelPaths.count > 1 ? try Stage(modelPath: modelPaths[1], options: options) : nil
        // A single file you bring is `.landscape` when its input is wider than high.
        self.model = model == .automatic || primary.session.inputWidth <= primary.session.inputHeight ? model : .landscape
        self.options = options
        self.modelPaths = modelPaths
    }

    /// The mask of `image` (see `segment(_:into:resolution:)`).
    /// - Parameters:
    ///   - image: the image, any pixel format and orientation, read upright; borrowed for the call only.
    ///   - resolution: the mask's size: the upright image's (default) or the model output's.
    /// - Returns: the mask, in upright orientation.
    /// - Throws: as `segment(_:into:resolution:)`.
    public func segment(_ image: ImageView, resolution: Resolution = .image) throws(PersonSegmenterError) -> SegmentationMask {
        var mask = SegmentationMask()
        try segment(image, into: &mask, resolution: resolution)
        return mask
    }

    /// Writes the person mask of `image` into `mask` (resized to fit, reusing its storage): at the upright
    /// image's size, or at the model's (see `Resolution`). With `Options.smoothing` above 0 the mask is mixed
    /// with the previous call's (when it had the same size and model).
    /// - Parameters:
    ///   - image: the image, any pixel format and orientation, read upright; borrowed for the call only.
    ///   - mask: receives the mask, in upright orientation.
    ///   - resolution: the mask's size: the upright image's (default) or the model output's.
    /// - Throws: `PersonSegmenterError.invalidImage` when the image cannot be sampled or, at `.image` resolution,
    ///   is more than `MaskResizer.maximumSide` pixels on a side (`mask` is untouched then); `mask`'s contents are
    ///   unspecified when sampling fails.
    public func segment(_ image: ImageView, into mask: inout SegmentationMask,
                        resolution: Resolution = .image) throws(PersonSegmenterError) {
        lock.lock()
        defer { lock.unlock() }
        let useLandscape = landscape != nil
            && Model.automaticChoice(width: image.uprightWidth, height: image.uprightHeight) == .landscape
        let stage = useLandscape ? landscape! : primary
        let (width, height) = resolution == .image ? (image.uprightWidth, image.uprightHeight)
                                                   : (stage.output.shape[2], stage.output.shape[1])
        guard width <= MaskResizer.maximumSide, height <= MaskResizer.maximumSide else {
            throw .invalidImage(ImagingError.tooLarge(width: width, height: height, bytesPerRow: image.bytesPerRow).description
                                + " for a mask (at most \(MaskResizer.maximumSide) pixels a side)")
        }
        mask.reshape(width: width, height: height)
        let resizer = resizer
        do {
            try mask.values.withUnsafeMutableBufferPointer { destination throws(ModelSessionError) in
                try stage.session.run(image) { outputs, _ throws(ModelSessionError) in
                    let source = outputs[stage.output]
                    if resolution == .model {
                        _ = destination.update(fromContentsOf: source)
                    } else {
                        do throws(ImagingError) {
                            try resizer.resize(source, width: stage.output.shape[2], height: stage.output.shape[1],
                                               into: destination, width: width, height: height)
                        } catch {
                            throw .invalidImage(error)
                        }
                    }
                }
            }
        } catch {
            throw .session(error, modelPath: stage.session.modelPath)
        }
        if options.smoothing > 0 { smooth(&mask, stage: useLandscape ? 1 : 0) }
    }

    /// Forgets the previous mask: the next frame is not smoothed (a new video, a cut).
    public func reset() {
        lock.lock()
        defer { lock.unlock() }
        previousStage = -1
    }

    /// The model `segment` runs for an upright image of this size: `model` itself, or `.automatic`'s choice.
    /// - Parameters:
    ///   - width: the upright image's width, in pixels.
    ///   - height: the upright image's height, in pixels.
    /// - Returns: `.general` or `.landscape`.
    public func modelChoice(width: Int, height: Int) -> Model {
        model == .automatic ? Model.automaticChoice(width: width, height: height) : model
    }

    /// The caller holds the lock. Mixes `mask` with the previous one (MaskSmoothing) and keeps the result.
    private func smooth(_ mask: inout SegmentationMask, stage: Int) {
        let continues = previousStage == stage && previous.width == mask.width && previous.height == mask.height
        previous.reshape(width: mask.width, height: mask.height)
        let ratio = options.smoothing
        mask.values.withUnsafeMutableBufferPointer { current in
            previous.values.withUnsafeMutableBufferPointer { previous in
                if continues {
                    MaskSmoothing.apply(current, previous: previous, ratio: ratio)
                } else {
                    _ = previous.update(fromContentsOf: current)
                }
            }
        }
        previousStage = stage
    }

    /// One model and its mask output.
    private struct Stage {
        let session: ModelSession
        let output: ModelSession.Output

        init(modelPath: String, options: Options) throws(PersonSegmenterError) {
            do {
                session = try ModelSession(modelPath: modelPath,
                                           conversion: .init(range: 0...1, fit: .stretch, border: .zero, sampling: .warp),
                                           threadCount: options.threadCount, limits: options.modelLimits)
            } catch {
                throw .session(error, modelPath: modelPath)
            }
            guard let output = session.outputs.first(where: { $0.shape.count == 4 && $0.shape[0] == 1 && $0.shape[3] == 1
                                                                && $0.shape[1] >= 2 && $0.shape[2] >= 2 }) else {
                throw .incompatibleModel(path: modelPath, reason: "expected a 1xHxWx1 mask output, the model's outputs "
                                         + "are \(session.outputs.map(\.shape))")
            }
            self.output = output
        }
    }
}
