import Testing
import BlazeAnchors

@Suite("Anchor generation")
struct AnchorGenerationTests {
    @Test("Preset anchor counts", arguments: [
        (AnchorOptions.shortRange, 896), (AnchorOptions.fullRange, 2304), (AnchorOptions.backCamera, 896),
    ])
    func counts(options: AnchorOptions, expected: Int) throws {
        let anchors = try options.generateAnchors()
        #expect(anchors.count == expected)
        #expect(try options.anchorCount() == expected)
        // fixed_anchor_size: every anchor is 1x1, and every centre lies inside the input.
        #expect(anchors.allSatisfy { $0.width == 1 && $0.height == 1 })
        #expect(anchors.allSatisfy { $0.xCenter > 0 && $0.xCenter < 1 && $0.yCenter > 0 && $0.yCenter < 1 })
    }

    @Test func shortRangePositions() throws {
        let anchors = try AnchorOptions.shortRange.generateAnchors()
        // Layer 0 (stride 8): a 16x16 grid, two anchors per cell (ratio 1 + interpolated).
        #expect(anchors[0] == Anchor(xCenter: 0.5 / 16, yCenter: 0.5 / 16, width: 1, height: 1))
        #expect(anchors[1] == anchors[0])
        #expect(anchors[2] == Anchor(xCenter: 1.5 / 16, yCenter: 0.5 / 16, width: 1, height: 1))
        // Row-major: cell (x 0, y 1) comes after the 16 cells of row 0.
        #expect(anchors[32] == Anchor(xCenter: 0.5 / 16, yCenter: 1.5 / 16, width: 1, height: 1))
        #expect(anchors[511] == Anchor(xCenter: 15.5 / 16, yCenter: 15.5 / 16, width: 1, height: 1))
        // Layers 1-3 (stride 16) share an 8x8 grid, six anchors per cell.
        #expect(anchors[512] == Anchor(xCenter: 0.5 / 8, yCenter: 0.5 / 8, width: 1, height: 1))
        for i in 513..<518 { #expect(anchors[i] == anchors[512]) }
        #expect(anchors[518] == Anchor(xCenter: 1.5 / 8, yCenter: 0.5 / 8, width: 1, height: 1))
        #expect(anchors[895] == Anchor(xCenter: 7.5 / 8, yCenter: 7.5 / 8, width: 1, height: 1))
    }

    @Test func fullRangePositions() throws {
        let anchors = try AnchorOptions.fullRange.generateAnchors()
        #expect(anchors[0] == Anchor(xCenter: 0.5 / 48, yCenter: 0.5 / 48, width: 1, height: 1))
        #expect(anchors[1] == Anchor(xCenter: 1.5 / 48, yCenter: 0.5 / 48, width: 1, height: 1))
        #expect(anchors[48] == Anchor(xCenter: 0.5 / 48, yCenter: 1.5 / 48, width: 1, height: 1))
        #expect(anchors[2303] == Anchor(xCenter: 47.5 / 48, yCenter: 47.5 / 48, width: 1, height: 1))
    }

    @Test func backCameraPositions() throws {
        let anchors = try AnchorOptions.backCamera.generateAnchors()
        #expect(anchors[0] == Anchor(xCenter: 0.5 / 16, yCenter: 0.5 / 16, width: 1, height: 1))
        #expect(anchors[511] == Anchor(xCenter: 15.5 / 16, yCenter: 15.5 / 16, width: 1, height: 1))
        #expect(anchors[512] == Anchor(xCenter: 0.5 / 8, yCenter: 0.5 / 8, width: 1, height: 1))
        #expect(anchors[895] == Anchor(xCenter: 7.5 / 8, yCenter: 7.5 / 8, width: 1, height: 1))
    }

    /// MediaPipe's CalculateScale, written out: min + (max − min)·i/(n − 1), the mean for one layer.
    static func scale(_ layer: Int, of count: Int, min: Float = 0.1484375, max: Float = 0.75) -> Float {
        count == 1 ? (min + max) / 2 : Float(Double(min) + Double(max - min) * Double(layer) / Double(count - 1))
    }

    @Test("A single layer uses the mean of min and max scale; its interpolated anchor sqrt(s · 1)")
    func singleLayerScale() throws {
        let options = AnchorOptions(
            inputWidth: 8, inputHeight: 8, numLayers: 1, minScale: 0.2, maxScale: 0.8,
            strides: [8], interpolatedScaleAspectRatio: 1, fixedAnchorSize: false)
        let anchors = try options.generateAnchors()
        #expect(anchors.count == 2)
        #expect(anchors[0] == Anchor(xCenter: 0.5, yCenter: 0.5, width: 0.5, height: 0.5))
        #expect(close(anchors[1].width, Float(0.5).squareRoot()))
    }

    @Test("Anchor sizes without fixed_anchor_size: scales, interpolated anchors, last layer's next scale 1")
    func variableSizes() throws {
        var options = AnchorOptions.shortRange
        options.fixedAnchorSize = false
        let anchors = try options.generateAnchors()
        #expect(anchors.count == 896)
        let s = (0..<4).map { Self.scale($0, of: 4) }
        #expect(close(s[1], 0.1484375 + 0.6015625 / 3) && s[3] == 0.75)
        // Layer 0: ratio 1 at s0, then the interpolated anchor sqrt(s0·s1).
        #expect(anchors[0].width == s[0] && anchors[0].height == s[0])
        #expect(close(anchors[1].width, (s[0] * s[1]).squareRoot()))
        // The shared 8x8 grid: per cell s1, √(s1 s2), s2, √(s2 s3), s3, √(s3 · 1).
        let expected: [Float] = [s[1], (s[1] * s[2]).squareRoot(), s[2], (s[2] * s[3]).squareRoot(), s[3], s[3].squareRoot()]
        for (k, size) in expected.enumerated() {
            #expect(close(anchors[512 + k].width, size))
            #expect(close(anchors[512 + k].height, size))
            #expect(close(anchors[890 + k].width, size))
        }
    }

    @Test("Aspect ratios: w = s·√r, h = s/√r; reduce_boxes_in_lowest_layer uses 0.1, s, s with ratios 1, 2, 0.5")
    func aspectRatiosAndReducedLowestLayer() throws {
        let options = AnchorOptions(
            inputWidth: 64, inputHeight: 64, numLayers: 2, minScale: 0.2, maxScale: 0.6,
            strides: [32, 64], aspectRatios: [1, 4], reduceBoxesInLowestLayer: true,
            interpolatedScaleAspectRatio: 1.0, fixedAnchorSize: false)
        let anchors = try options.generateAnchors()
        // Layer 0: 2x2 cells x 3 anchors; layer 1: 1 cell x (2 ratios + 1 interpolated).
        #expect(anchors.count == 4 * 3 + 3)
        let root2 = Float(2).squareRoot(), rootHalf = Float(0.5).squareRoot()
        #expect(close(anchors[0], Anchor(xCenter: 0.25, yCenter: 0.25, width: 0.1, height: 0.1)))
        #expect(close(anchors[1], Anchor(xCenter: 0.25, yCenter: 0.25, width: 0.2 * root2, height: 0.2 / root2)))
        #expect(close(anchors[2], Anchor(xCenter: 0.25, yCenter: 0.25, width: 0.2 * rootHalf, height: 0.2 / rootHalf)))
        #expect(close(anchors[3], Anchor(xCenter: 0.75, yCenter: 0.25, width: 0.1, height: 0.1)))
        #expect(close(anchors[12], Anchor(xCenter: 0.5, yCenter: 0.5, width: 0.6, height: 0.6)))
        #expect(close(anchors[13], Anchor(xCenter: 0.5, yCenter: 0.5, width: 1.2, height: 0.3)))
        #expect(close(anchors[14], Anchor(xCenter: 0.5, yCenter: 0.5, width: Float(0.6).squareRoot(), height: Float(0.6).squareRoot())))
    }

    @Test("Non-square input, ceil(input / stride), explicit feature maps and offsets")
    func gridShapes() throws {
        let rect = AnchorOptions(
            inputWidth: 100, inputHeight: 40, numLayers: 1, minScale: 0.5, maxScale: 0.5,
            strides: [16], interpolatedScaleAspectRatio: 0, fixedAnchorSize: true)
        let anchors = try rect.generateAnchors()
        #expect(anchors.count == 7 * 3)  // ceil(100/16) x ceil(40/16)
        #expect(anchors[7] == Anchor(xCenter: 0.5 / 7, yCenter: 1.5 / 3, width: 1, height: 1))

        var explicit = rect
        explicit.featureMapWidths = [3]
        explicit.featureMapHeights = [2]
        explicit.anchorOffsetX = 0
        explicit.anchorOffsetY = 1
        let grid = try explicit.generateAnchors()
        #expect(grid.count == 6)
        #expect(grid[1] == Anchor(xCenter: 1.0 / 3, yCenter: 1.0 / 2, width: 1, height: 1))
        #expect(grid[5] == Anchor(xCenter: 2.0 / 3, yCenter: 1, width: 1, height: 1))
    }

    @Test("Layers with the same stride are grouped only when consecutive")
    func nonConsecutiveStrides() throws {
        let options = AnchorOptions(
            inputWidth: 32, inputHeight: 32, numLayers: 3, minScale: 0.2, maxScale: 0.8,
            strides: [16, 32, 16], interpolatedScaleAspectRatio: 0, fixedAnchorSize: true)
        // Three groups: 2x2 x 1, 1x1 x 1, 2x2 x 1.
        let anchors = try options.generateAnchors()
        #expect(anchors.count == 9)
        #expect(anchors[4] == Anchor(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1))
        #expect(anchors[5] == anchors[0])
    }

    @Test func invalidOptions() {
        func error(_ change: (inout AnchorOptions) -> Void) -> AnchorError? {
            var options = AnchorOptions.shortRange
            change(&options)
            do {
                _ = try options.generateAnchors()
                return nil
            } catch {
                return error
            }
        }
        #expect(error { $0.inputWidth = 0 } == .invalidInputSize(width: 0, height: 128))
        #expect(error { $0.inputHeight = -5 } == .invalidInputSize(width: 128, height: -5))
        #expect(error { $0.numLayers = 0 } == .invalidLayerCount(0))
        #expect(error { $0.numLayers = 3 } == .countMismatch(field: "strides", expected: 3, actual: 4))
        #expect(error { $0.strides = [8, 16, 0, 16] } == .invalidStride(layer: 2, stride: 0))
        #expect(error { $0.strides = [8, -16, 16, 16] } == .invalidStride(layer: 1, stride: -16))
        #expect(error { $0.featureMapWidths = [16, 8, 8, 8] }
                == .countMismatch(field: "featureMapHeights", expected: 4, actual: 0))
        #expect(error { $0.featureMapWidths = [16, 8]; $0.featureMapHeights = [16, 8] }
                == .countMismatch(field: "featureMapWidths", expected: 4, actual: 2))
        #expect(error { $0.featureMapWidths = [16, 8, 0, 8]; $0.featureMapHeights = [16, 8, 8, 8] }
                == .invalidFeatureMapSize(layer: 2, width: 0, height: 8))
        #expect(error { $0.aspectRatios = [1, -2] } != nil)
        #expect(error { $0.aspectRatios = [.nan] } != nil)
        #expect(error { $0.minScale = .nan } != nil)
        #expect(error { $0.maxScale = .infinity } != nil)
        #expect(error { $0.anchorOffsetX = .infinity } != nil)
        #expect(error { $0.interpolatedScaleAspectRatio = .nan } != nil)
        #expect(error { $0.aspectRatios = []; $0.interpolatedScaleAspectRatio = 0 } == .noAnchors)
        #expect(error { $0.inputWidth = 1 << 40; $0.inputHeight = 1 << 40 }
                == .tooManyAnchors(limit: AnchorOptions.maximumAnchorCount))
        #expect(error { $0.inputWidth = 1 << 62; $0.inputHeight = 1 << 62; $0.strides = [1, 1, 1, 1] }
                == .tooManyAnchors(limit: AnchorOptions.maximumAnchorCount))
        #expect(error { $0.inputWidth = 2048; $0.inputHeight = 2048; $0.strides = [1, 1, 1, 1] }
                == .tooManyAnchors(limit: AnchorOptions.maximumAnchorCount))
        #expect(error { $0.aspectRatios = Array(repeating: 1, count: 2_000_000) }
                == .tooManyAnchors(limit: AnchorOptions.maximumAnchorCount))
        #expect(error { _ in } == nil)
    }

    @Test func errorDescriptions() {
        #expect(AnchorError.invalidStride(layer: 2, stride: 0).description.contains("layer 2"))
        #expect(AnchorError.bufferSizeMismatch(buffer: "scores", expected: 896, actual: 895).description
                == "The scores buffer has 895 floats, expected 896")
    }
}
