import BlazeImaging
import BlazeModels
import BlazeRuntime
import BlazeTestSupport
import CAllocationCounter
import Dispatch
import Foundation
import Testing

@Suite("Model session")
struct ModelSessionTests {
    /// A 200x120 rgb8 picture: smooth colour ramps with a bright square.
    static let picture: ImageBuffer = {
        var pixels = [UInt8](repeating: 0, count: 200 * 120 * 3)
        for y in 0..<120 {
            for x in 0..<200 {
                let square = (60..<110).contains(x) && (30..<80).contains(y)
                pixels[(y * 200 + x) * 3] = square ? 250 : UInt8(x)
                pixels[(y * 200 + x) * 3 + 1] = UInt8(2 * y)
                pixels[(y * 200 + x) * 3 + 2] = UInt8((x + y) / 2)
            }
        }
        return ImageBuffer(width: 200, height: 120, pixelFormat: .rgb8, pixels: pixels)
    }()

    /// The outputs of a bare interpreter on the tensor `ImageToTensor` makes with the same options.
    static func reference(_ path: String, conversion: ModelSession.Conversion, region: RotatedRect?) throws -> [[Float]] {
        let interpreter = try Interpreter(modelPath: path)
        let shape = interpreter.inputs[0].shape
        let converter = try ImageToTensor(options: .init(width: shape[2], height: shape[1], range: conversion.range,
                                                         fit: conversion.fit, border: conversion.border,
                                                         sampling: conversion.sampling))
        var tensor = [Float](repeating: 0, count: converter.floatCount)
        try picture.withView { view in
            try tensor.withUnsafeMutableBufferPointer { _ = try converter.convert(view, region: region, into: $0) }
        }
        try interpreter.copy(tensor, toInputAt: 0)
        interpreter.invoke()
        return try interpreter.outputs.indices.map { try interpreter.outputArray(at: $0) }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var conversion: ModelSession.Conversion
        var region: RotatedRect?
        var testDescription: String { "\(file) \(conversion.sampling) \(String(describing: region))" }
    }

    static let cases = [
        Case(file: "face_detection_short_range.tflite",
             conversion: .init(range: -1...1, fit: .letterbox, border: .zero, sampling: .detector), region: nil),
        Case(file: "face_landmark.tflite", conversion: .init(range: 0...1, fit: .stretch, border: .replicate),
             region: RotatedRect(center: Point(x: 85, y: 55), width: 90, height: 90, rotation: 0.4)),
    ]

    @Test("a run gives the interpreter's outputs on ImageToTensor's tensor, to the bit", arguments: cases)
    func runMatchesInterpreter(_ c: Case) throws {
        let path = try TestResources.modelPath(c.file)
        let session = try ModelSession(modelPath: path, conversion: c.conversion)
        let expected = try Self.reference(path, conversion: c.conversion, region: c.region)
        let (outputs, footprint) = try Self.picture.withView { view in
            try session.run(view, region: c.region) { outputs, footprint in
                (session.outputs.map { Array(outputs[$0]) }, footprint)
            }
        }
        #expect(outputs == expected)
        if let region = c.region { #expect(footprint == region) }
        else { #expect(footprint == RotatedRect(center: Point(x: 100, y: 60), width: 200, height: 200)) }
    }

    @Test("outputs are found by name; an unknown name lists the names there are")
    func outputsByName() throws {
        let path = try TestResources.modelPath("face_detection_short_range.tflite")
        let session = try ModelSession(modelPath: path, conversion: .init(range: -1...1))
        let interpreter = try Interpreter(modelPath: path)
        #expect(session.outputs.map(\.name) == interpreter.outputs.map(\.name))
        for (index, info) in interpreter.outputs.enumerated() {
            let output = try session.output(named: info.name)
            #expect(output.index == index && output.shape == info.shape)
        }
        #expect(throws: ModelSessionError.unknownOutput(name: "scores", available: interpreter.outputs.map(\.name))) {
            try session.output(named: "scores")
        }
        #expect(session.inputWidth == 128 && session.inputHeight == 128)
    }

    @Test("missing, unreadable and corrupt models, bad options and bad regions are typed errors")
    func errors() throws {
        let path = try TestResources.modelPath("face_detection_short_range.tflite")
        let conversion = ModelSession.Conversion(range: -1...1)
        #expect(throws: ModelSessionError.modelNotFound(path: "/nonexistent/model.tflite")) {
            try ModelSession(modelPath: "/nonexistent/model.tflite", conversion: conversion)
        }
        #expect(throws: ModelSessionError.modelNotFound(path: NSTemporaryDirectory())) {
            try ModelSession(modelPath: NSTemporaryDirectory(), conversion: conversion)
        }
        #expect(throws: ModelSessionError.self) { try ModelSession(modelPath: path, conversion: conversion, threadCount: 0) }
        #expect(throws: ModelSessionError.self) { try ModelSession(modelPath: path, conversion: .init(range: 1...1)) }
        let truncated = FileManager.default.temporaryDirectory.appendingPathComponent("truncated-\(UUID().uuidString).tflite")
        try Data(try TestResources.modelBytes("face_detection_short_range.tflite").prefix(1000)).write(to: truncated)
        defer { try? FileManager.default.removeItem(at: truncated) }
        #expect {
            try ModelSession(modelPath: truncated.path, conversion: conversion)
        } throws: { error in
            guard case .invalidModel(let p, _)? = error as? ModelSessionError else { return false }
            return p == truncated.path
        }
        let session = try ModelSession(modelPath: path, conversion: conversion)
        #expect {
            try Self.picture.withView { view in
                try session.run(view, region: RotatedRect(center: Point(x: .nan, y: 0), width: 1, height: 1)) { _, _ in }
            }
        } throws: { error in
            guard case .invalidImage(.invalidRegion)? = error as? ModelSessionError else { return false }
            return true
        }
    }

    @Test("a run performs no heap allocation", .enabled(if: blaze_allocation_counting_available() == 1))
    func noAllocation() throws {
        let session = try ModelSession(modelPath: try TestResources.modelPath("face_landmark.tflite"),
                                       conversion: .init(range: 0...1, border: .replicate))
        let output = session.outputs[0]
        let region = RotatedRect(center: Point(x: 90, y: 60), width: 80, height: 80, rotation: -0.7)
        var count = -1
        var first: Float = 0
        try Self.picture.withView { view in
            try session.run(view, region: region) { outputs, _ in first = outputs[output][0] }
            blaze_allocation_counting_begin()
            try session.run(view, region: region) { outputs, _ in first = outputs[output][0] }
            count = blaze_allocation_counting_end()
        }
        #expect(count == 0)
        #expect(first.isFinite)
    }

    @Test("runs from several threads on one session give the serial results")
    func sharedAcrossThreads() throws {
        let session = try ModelSession(modelPath: try TestResources.modelPath("face_detection_short_range.tflite"),
                                       conversion: .init(range: -1...1, sampling: .detector))
        let regions = (0..<8).map { RotatedRect(center: Point(x: 60 + 10 * Double($0), y: 60), width: 100, height: 100) }
        @Sendable func scores(_ region: RotatedRect) throws -> [Float] {
            try Self.picture.withView { view in try session.run(view, region: region) { o, _ in Array(o[session.outputs[1]]) } }
        }
        let serial = try regions.map(scores)
        // Each iteration writes its own element.
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<[Float]>.allocate(capacity: regions.count)
        results.initialize(repeating: [])
        defer { results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: regions.count) { i in
            results[i] = (try? scores(regions[i])) ?? []
        }
        #expect(Array(results) == serial)
    }

    @Test("the Models.md example: a catalog model found by the locator, its points mapped back into the picture")
    func documentedExample() throws {
        let locator = ModelLocator(environment: [:], executableDirectory: nil, currentDirectory: TestResources.root.path)
        let path = try locator.locate(.faceMeshFDLite)
        let session = try ModelSession(modelPath: path, conversion: .init(range: 0...1, fit: .stretch, border: .replicate))
        let landmarks = try session.output(named: ModelName.faceMeshFDLite.entry.outputs[0].name)
        let region = RotatedRect(center: Point(x: 85, y: 55), width: 90, height: 90, rotation: 0.4)
        let points = try Self.picture.withView { image in
            try session.run(image, region: region) { outputs, footprint in
                let xyz = outputs[landmarks]
                return (0..<468).map { footprint.point(u: Double(xyz[3 * $0]) / 192, v: Double(xyz[3 * $0 + 1]) / 192) }
            }
        }
        #expect(points.count == 468)
        #expect(points.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        // The footprint's mapping agrees with the region's own corners.
        #expect(abs(region.point(u: 0, v: 0).x - region.corners[0].x) < 1e-9)
    }
}
