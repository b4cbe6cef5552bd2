import BlazeModels
import BlazeSegmentation
import BlazeTestSupport
import Foundation
import Testing

/// Every bad input gets a typed error or a documented behaviour.
@Suite("PersonSegmenter errors")
struct PersonSegmenterErrorTests {
    @Test("a face model given as segmentation model: incompatibleModel", arguments: [
        ModelName.shortRange, .faceMeshMediaPipe, .iris,
    ])
    func wrongModel(_ name: ModelName) throws {
        let path = try TestResources.modelPath(name)
        #expect {
            try PersonSegmenter(modelPath: path)
        } throws: { error in
            guard case let .pipeline(.incompatibleModel(errorPath, reason)) = error as? PersonSegmenterError else { return false }
            return errorPath == path && reason.contains("1xHxWx1")
        }
    }

    @Test("a model file you bring: the landscape file is `.landscape` and segments as the catalog's")
    func modelPath() throws {
        let segmenter = try PersonSegmenter(modelPath: try TestResources.modelPath(.selfieSegmentationLandscape))
        #expect(segmenter.model == .landscape)
        #expect(try PersonSegmenter(modelPath: try TestResources.modelPath(.selfieSegmentation)).model == .general)
        let picture = SegmentationSamples.buffer(try SegmentationGoldens.picture("astronaut_small_100x75"))
        let ours = try picture.withView { try segmenter.segment($0) }
        #expect(ours == (try picture.withView { try SegmentationSamples.segmenter(.landscape).segment($0) }))
    }

    @Test("a missing model: modelNotFound, with the folder searched")
    func missingModel() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-models-here-\(UUID())").path
        #expect(throws: PersonSegmenterError.modelNotFound(file: "selfie_segmentation_landscape.tflite", searched: [folder])) {
            try PersonSegmenter(model: .landscape, modelsDirectory: folder)
        }
    }

    @Test("a file that is not a model: invalidModel")
    func notAModel() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-model-\(UUID()).tflite").path
        try Data("not a flatbuffer".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try PersonSegmenter(modelPath: path)
        } throws: { error in
            if case .pipeline(.invalidModel) = error as? PersonSegmenterError { return true }
            return false
        }
    }

    @Test("options out of range: invalidOptions", arguments: [
        PersonSegmenter.Options(smoothing: -0.1), .init(smoothing: 1.5), .init(smoothing: .nan), .init(threadCount: 0),
    ])
    func badOptions(_ options: PersonSegmenter.Options) {
        #expect {
            try PersonSegmenter(model: .general, modelsDirectory: SegmentationSamples.modelsDirectory, options: options)
        } throws: { error in
            if case .pipeline(.invalidOptions) = error as? PersonSegmenterError { return true }
            return false
        }
    }

    @Test("a zero-size image cannot be made: ImageView refuses it (emptyImage) before any segmenter sees it")
    func zeroSize() {
        #expect(throws: ImagingError.emptyImage(width: 0, height: 4)) {
            try ImageView.withPixels([UInt8](repeating: 0, count: 12), width: 0, height: 4, pixelFormat: .rgb8) { _ in }
        }
    }

    @Test("a one-pixel image gets a one-pixel mask (documented), in 0...1; at the model's size, the model's mask",
          arguments: [PersonSegmenter.Model.general, .landscape])
    func onePixel(_ model: PersonSegmenter.Model) throws {
        let segmenter = try SegmentationSamples.segmenter(model)
        for format in PixelFormat.allCases {
            let count = try ImageView.byteCount(width: 1, height: 1, bytesPerRow: 1 * format.bytesPerPixel, pixelFormat: format)
            let pixels = [UInt8](repeating: 200, count: count)
            let mask = try ImageView.withPixels(pixels, width: 1, height: 1, pixelFormat: format) { try segmenter.segment($0) }
            #expect(mask.width == 1 && mask.height == 1 && (0...1).contains(mask.values[0]), "\(format)")
            let small = try ImageView.withPixels(pixels, width: 1, height: 1, pixelFormat: format) {
                try segmenter.segment($0, resolution: .model)
            }
            #expect(small.values.count == (model == .general ? 256 * 256 : 256 * 144))
            #expect(small.values.allSatisfy { (0...1).contains($0) }, "\(format)")
        }
    }

    @Test("an image wider than MaskResizer.maximumSide: invalidImage at the image's resolution, a mask at the model's")
    func tooWide() throws {
        let segmenter = try SegmentationSamples.segmenter(.general)
        let width = MaskResizer.maximumSide + 1
        var mask = SegmentationMask(width: 2, height: 1, values: [0.25, 0.75])
        try ImageView.withPixels([UInt8](repeating: 90, count: width), width: width, height: 1, pixelFormat: .gray8) { view in
            #expect {
                try segmenter.segment(view, into: &mask)
            } throws: { error in
                if case .pipeline(.invalidImage) = error as? PersonSegmenterError { return true }
                return false
            }
            #expect(mask == SegmentationMask(width: 2, height: 1, values: [0.25, 0.75]))
            try segmenter.segment(view, into: &mask, resolution: .model)
            #expect(mask.width == 256 && mask.height == 256)
        }
    }

    @Test("pixel formats: the same picture as rgb8, bgra8 and gray gives the same mask")
    func pixelFormats() throws {
        let segmenter = try SegmentationSamples.segmenter(.general)
        let picture = try SegmentationGoldens.picture("camera_rgb")
        let rgb = try SegmentationSamples.buffer(picture).withView { try segmenter.segment($0) }
        let gray = try ImageView.withPixels(picture.grayBytes(), width: picture.width, height: picture.height,
                                            pixelFormat: .gray8) { try segmenter.segment($0) }
        var bgra = [UInt8](repeating: 255, count: picture.width * picture.height * 4)
        for i in 0..<(picture.width * picture.height) {
            bgra[4 * i] = picture.pixels[3 * i + 2]; bgra[4 * i + 1] = picture.pixels[3 * i + 1]
            bgra[4 * i + 2] = picture.pixels[3 * i]
        }
        let fromBGRA = try ImageView.withPixels(bgra, width: picture.width, height: picture.height, pixelFormat: .bgra8) {
            try segmenter.segment($0)
        }
        #expect(gray == rgb)
        #expect(fromBGRA == rgb)
    }
}
