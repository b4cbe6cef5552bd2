import BlazeSegmentation
import BlazeTestSupport
import Foundation
import Testing

/// Parity with MediaPipe 0.10.21's legacy `SelfieSegmentation(model_selection: 0 | 1)`, recorded by
/// Tests/Goldens/segmentation_parity.py in Tests/Goldens/mediapipe/segmentation.json and 8-bit PNG masks.
///
/// Criteria (issue 16): per picture and model, mean |Δ| ≤ 0.01 and IoU of the > 0.5 masks ≥ 0.98. The goldens are
/// rounded to 8 bits (±0.5/255 ≈ 0.002 per pixel, about 0.001 on average), which the 0.01 bound absorbs; a pixel
/// within 0.002 of 0.5 may fall on the other side of the threshold, a few pixels of the IoU. What we measure is far
/// below the bounds (Documentation/Segmentation.md), so two tighter checks guard against regressions: every pixel
/// within 0.004 of the 8-bit golden (the rounding's 0.00196 plus 0.002; measured worst 0.00275) and, at six pixels
/// whose exact float32 values the json records, within 1e-4 (measured worst 1.1e-5).
@Suite("MediaPipe SelfieSegmentation parity")
struct MediaPipeSegmentationParityTests {
    static let models: [PersonSegmenter.Model] = [.general, .landscape]
    static let pictures: [String] = (try? SegmentationGoldens.load().images.keys.sorted()) ?? []
    static let cases: [(PersonSegmenter.Model, String)] = models.flatMap { model in pictures.map { (model, $0) } }

    @Test("the pictures rebuilt from their recipes are MediaPipe's, byte for byte", arguments: pictures)
    func rebuiltPictures(_ name: String) throws {
        let image = try SegmentationGoldens.picture(name)
        let spec = try #require(try SegmentationGoldens.load().images[name])
        #expect(SHA256.hex(image.pixels) == spec.rgbSha256, "\(name): the rebuilt RGB bytes differ from MediaPipe's")
    }

    @Test("mask at the image's size: mean |Δ| ≤ 0.01, IoU ≥ 0.98; max |Δ| ≤ 0.004, probes within 1e-4", arguments: cases)
    func parity(_ model: PersonSegmenter.Model, _ name: String) throws {
        let picture = try SegmentationGoldens.picture(name)
        let reference = try SegmentationGoldens.mask(model, name)
        let ours = try SegmentationSamples.buffer(picture).withView { try SegmentationSamples.segmenter(model).segment($0) }
        #expect(ours.width == picture.width && ours.height == picture.height)
        let (meanError, iou) = SegmentationSamples.compare(ours, reference)
        #expect(meanError <= 0.01, "\(model) \(name): mean |Δ| \(meanError)")
        #expect(iou >= 0.98, "\(model) \(name): IoU \(iou)")
        let result = try #require(try SegmentationGoldens.load().results[model.rawValue]?[name])
        var probeError = 0.0
        for probe in result.probes {
            let value = ours[x: Int(probe[0]), y: Int(probe[1])]
            probeError = max(probeError, abs(Double(value) - probe[2]))
            #expect(abs(Double(value) - probe[2]) <= 1e-4, "\(model) \(name) at \(probe[0]), \(probe[1]): \(value)")
        }
        let worst = zip(ours.values, reference.values).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= 0.004, "\(model) \(name): max |Δ| \(worst)")
        print("segmentation parity \(model) \(name): mean |Δ| \(meanError), max |Δ| \(worst), IoU \(iou), "
              + "probes \(probeError)")
    }

    @Test("an oriented image gives the mask of its upright pixels (the astronaut stored unturned, shown turned)",
          arguments: models)
    func orientation(_ model: PersonSegmenter.Model) throws {
        // rot90 k = 1 turns the picture a quarter counterclockwise as displayed: EXIF 8 (`.left`) shows the stored
        // picture so.
        let reference = try SegmentationGoldens.mask(model, "astronaut_rot90_k1")
        let stored = try SegmentationGoldens.picture("astronaut")
        let ours = try SegmentationSamples.buffer(stored, orientation: .left).withView {
            try SegmentationSamples.segmenter(model).segment($0)
        }
        let (meanError, iou) = SegmentationSamples.compare(ours, reference)
        #expect(meanError <= 0.01 && iou >= 0.98, "\(model): mean |Δ| \(meanError), IoU \(iou)")
    }

    @Test("automatic: the landscape model for wide pictures, the general one otherwise")
    func automatic() throws {
        let segmenter = try SegmentationSamples.segmenter(.automatic)
        for (name, expected) in [("astronaut_wide_1280x720", PersonSegmenter.Model.landscape),
                                 ("camera_landscape_455x256", .landscape), ("astronaut", .general),
                                 ("astronaut_crop_left200_312x512", .general)] {
            let picture = try SegmentationGoldens.picture(name)
            #expect(segmenter.modelChoice(width: picture.width, height: picture.height) == expected)
            let ours = try SegmentationSamples.buffer(picture).withView { try segmenter.segment($0) }
            let (meanError, iou) = SegmentationSamples.compare(ours, try SegmentationGoldens.mask(expected, name))
            #expect(meanError <= 0.01 && iou >= 0.98, "\(name): mean |Δ| \(meanError), IoU \(iou) against \(expected)")
            let small = try SegmentationSamples.buffer(picture).withView { try segmenter.segment($0, resolution: .model) }
            #expect((small.width, small.height) == (expected == .landscape ? (256, 144) : (256, 256)))
        }
    }

    @Test("at the model's own size the two resolutions give the same mask", arguments: [
        (PersonSegmenter.Model.general, "astronaut_down2_256x256"), (.landscape, "astronaut_top_256x144"),
    ])
    func modelResolution(_ model: PersonSegmenter.Model, _ name: String) throws {
        let segmenter = try SegmentationSamples.segmenter(model)
        let buffer = SegmentationSamples.buffer(try SegmentationGoldens.picture(name))
        let small = try buffer.withView { try segmenter.segment($0, resolution: .model) }
        let large = try buffer.withView { try segmenter.segment($0, resolution: .image) }
        #expect(small == large)
        let (meanError, _) = SegmentationSamples.compare(small, try SegmentationGoldens.mask(model, name))
        #expect(meanError <= 0.01)
    }
}
