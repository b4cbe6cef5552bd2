import BlazeTestSupport
import BlazeVideoIO
import Foundation
import Testing

/// `VideoReadingOptions.pixelFormat = .i420`: the decoder's planes with the stream's colour space, against the
/// reader's own RGB delivery (libswscale) of the same frames.
@Suite("Video reading as YUV")
struct YUVReadingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The largest per-byte difference and the PSNR between two RGB pictures.
    static func compare(_ a: ImageBuffer, _ b: ImageBuffer) -> (largest: Int, psnr: Double) {
        (zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0, psnr(a.pixels, b.pixels))
    }

    static func tensor(_ view: ImageView, _ options: ImageToTensor.Options, region: RotatedRect?) throws -> [Float] {
        let converter = try ImageToTensor(options: options)
        var out = [Float](repeating: 0, count: converter.floatCount)
        try out.withUnsafeMutableBufferPointer { _ = try converter.convert(view, region: region, into: $0) }
        return out
    }

    @Test("H.264 (yuv420p, untagged): BT.601 limited frames whose conversion is within 3 levels of libswscale's RGB; the crops too")
    func h264() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pan.mp4").path
        try TestVideo.pan(count: 6).write(to: path)
        let rgb = readAll(try VideoReader(contentsOf: path)).frames
        let (yuv, error) = readAll(try VideoReader(contentsOf: path, options: .init(pixelFormat: .i420)))
        #expect(error == nil)
        try #require(yuv.count == 6 && rgb.count == 6)
        let crops: [(ImageToTensor.Options, RotatedRect?)] = [
            (.init(width: 128, height: 128, range: -1...1, fit: .letterbox, border: .zero, sampling: .detector), nil),
            (.init(width: 64, height: 64, range: 0...1, fit: .stretch, border: .replicate, sampling: .warp),
             RotatedRect(center: Point(x: 80, y: 60), width: 70, height: 70, rotation: 0.35)),
        ]
        var largestCrop: Float = 0
        for (a, b) in zip(yuv, rgb) {
            #expect(a.image.pixelFormat == .i420 && a.image.colorSpace == .bt601Limited)
            #expect(a.image.pixels.count == 160 * 120 + 2 * 80 * 60)
            #expect(a.time == b.time && a.index == b.index)
            let (largest, quality) = Self.compare(try a.image.uprightRGB(), b.image)
            // libswscale's own fixed point (its tables) against ours: measured 3 levels at most, 45.2 dB.
            #expect(largest <= 3 && quality > 44, "frame \(a.index): \(largest) levels, \(quality) dB")
            for (options, region) in crops {
                let direct = try a.image.withView { try Self.tensor($0, options, region: region) }
                let converted = try b.image.withView { try Self.tensor($0, options, region: region) }
                let scale = (options.range.upperBound - options.range.lowerBound) / 255
                largestCrop = max(largestCrop, zip(direct, converted).map { abs($0 - $1) / scale }.max() ?? 0)
            }
        }
        #expect(largestCrop <= 3.001, "the crops differ by \(largestCrop) levels")
    }

    @Test("a yuv420p stream of odd size is copied plane for plane, with its BT.709 limited-range tags")
    func oddSizeCopied() throws {
        let path = Self.fixtures.appendingPathComponent("odd-bt709-tv.mkv").path
        let expected = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent("odd-bt709-tv.frame0.yuv")))
        let (yuv, error) = readAll(try VideoReader(contentsOf: path, options: .init(pixelFormat: .i420)))
        #expect(error == nil)
        try #require(yuv.count == 3)
        #expect(yuv[0].image.width == 33 && yuv[0].image.height == 21)
        #expect(yuv[0].image.pixels == expected, "33x21 luma, then 17x11 Cb and Cr")
        #expect(yuv.allSatisfy { $0.image.colorSpace == .bt709Limited })
        // The frame converted with the stream's matrix and range: within a level of the real-number BT.709
        // decoding of the planes (libswscale's RGB of this odd-sized frame interpolates the chroma, which on
        // testsrc2's sharp colour edges differs by up to 166 levels: it is no reference here).
        let converted = try yuv[0].image.uprightRGB()
        let (cw, ch) = (17, 11), cb = 33 * 21, cr = cb + cw * ch
        var largest = 0
        for y in 0..<21 {
            for x in 0..<33 {
                let (r, g, b) = RGBImage.decoded(y: expected[y * 33 + x], cb: expected[cb + y / 2 * cw + x / 2],
                                                 cr: expected[cr + y / 2 * cw + x / 2], colorSpace: .bt709Limited)
                for (k, value) in [r, g, b].enumerated() {
                    largest = max(largest, abs(Int(converted.pixels[(y * 33 + x) * 3 + k]) - Int(value)))
                }
            }
        }
        #expect(largest <= 1)
        // The zero-copy view carries the planes and the colour space.
        let reader = try VideoReader(contentsOf: path, options: .init(pixelFormat: .i420))
        let described = try reader.withNextFrame { view, _, _ in
            (view.pixelFormat, view.chroma?.width, view.chroma?.height, view.colorSpace)
        }
        #expect(described?.0 == .i420 && described?.1 == 17 && described?.2 == 11 && described?.3 == .bt709Limited)
    }

    @Test("a yuv444p full-range stream is converted to yuv420p by libswscale, keeping its BT.601 full range")
    func convertedByLibswscale() throws {
        let path = Self.fixtures.appendingPathComponent("yuv444-bt601-pc.mkv").path
        let (yuv, error) = readAll(try VideoReader(contentsOf: path, options: .init(pixelFormat: .i420)))
        let rgb = readAll(try VideoReader(contentsOf: path)).frames
        #expect(error == nil)
        try #require(yuv.count == 3 && rgb.count == 3)
        for (a, b) in zip(yuv, rgb) {
            #expect(a.image.colorSpace == .bt601Full && a.image.pixelFormat == .i420)
            // Half the chroma resolution of the 4:4:4 frame libswscale converts to RGB directly: close, not equal.
            let (_, quality) = Self.compare(try a.image.uprightRGB(), b.image)
            #expect(quality > 25, "frame \(a.index): \(quality) dB")
        }
    }

    @Test("nv12 and nv21 delivery, and YUV writing, are refused with typed errors")
    func refused() throws {
        for format in [PixelFormat.nv12, .nv21] {
            #expect(videoError { () throws(VideoIOError) in try VideoReader(data: [0], options: .init(pixelFormat: format)) }
                    == .invalidArgument("a video reader delivers rgb8, rgba8, bgra8 or i420, not \(format)"))
        }
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.mp4").path
        #expect(videoError { () throws(VideoIOError) in
            try VideoWriter(path: path, width: 160, height: 120, options: .init(pixelFormat: .i420))
        } == .invalidArgument("a video writer takes rgb8, rgba8 or bgra8, not i420"))
    }
}
