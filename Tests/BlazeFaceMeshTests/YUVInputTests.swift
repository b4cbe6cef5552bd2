import BlazeFaceMesh
import BlazeTestSupport
import CAllocationCounter
import Foundation
import Testing

/// The landmarker on YUV 4:2:0 frames (sampled without an RGB conversion): the RGB picture's meshes.
@Suite("YUV input: FaceLandmarker")
struct YUVLandmarkerTests {
    static func picture() throws -> RGBImage {
        let image = try MeshSamples.astronaut()
        return RGBImage(width: image.width, height: image.height, pixels: image.pixels)
    }

    @Test("detect: the same faces, meshes within 0.5% of the inter-ocular distance", arguments: [PixelFormat.nv12, .nv21, .i420])
    func detect(_ format: PixelFormat) throws {
        let landmarker = try MeshSamples.landmarker()
        let picture = try Self.picture()
        let rgb = try ImageView.withPixels(picture.pixels, width: picture.width, height: picture.height,
                                           pixelFormat: .rgb8) { try landmarker.detect($0) }
        let yuv = try picture.withYUVView(format, colorSpace: .bt709Limited, padding: 5) { try landmarker.detect($0) }
        try #require(rgb.count == 1 && yuv.count == 1)
        #expect(yuv[0].points.count == rgb[0].points.count)
        let error = MeshSamples.nme(yuv[0].points, rgb[0].points)
        #expect(error < 0.005, "NME \(error)")
    }

    @Test("video mode: tracking YUV frames follows the face without the detector, near the RGB mesh")
    func tracking() throws {
        let landmarker = try MeshSamples.landmarker(options: .init(maximumFaces: 1))
        let picture = try Self.picture()
        let rgb = try ImageView.withPixels(picture.pixels, width: picture.width, height: picture.height,
                                           pixelFormat: .rgb8) { try landmarker.detect($0) }
        var faces: [FaceLandmarks] = []
        try picture.withYUVView(.i420) { view in
            try landmarker.detect(view, tracking: &faces)
            try #require(faces.count == 1)
            for _ in 0..<2 {
                try landmarker.detect(view, tracking: &faces)
                try #require(faces.count == 1)
                #expect(faces[0].detection == nil)
                #expect(MeshSamples.nme(faces[0].points, rgb[0].points) < 0.02)
            }
        }
    }
}

@Suite("YUV input: allocations")
struct YUVAllocationTests {
    @Test("on YUV frames, once warmed up, detect(_:into:) and detect(_:tracking:) perform no heap allocation",
          .enabled(if: blaze_allocation_counting_available() == 1), arguments: [PixelFormat.nv12, .i420])
    func noAllocation(_ format: PixelFormat) throws {
        let landmarker = try MeshSamples.landmarker(options: .init(maximumFaces: 1))
        let picture = try YUVLandmarkerTests.picture()
        // The first YUV crop allocates the converters' patch scratch, once (in the warm-up).
        let counts = try picture.withYUVView(format, orientation: .right) { view in
            try FaceLandmarkerAllocationTests.steadyStateAllocations(landmarker, view)
        }
        #expect(counts.faces == 1 && counts.tracked == 1)
        #expect(counts.detect == 0 && counts.tracking == 0, "\(counts)")
    }
}
