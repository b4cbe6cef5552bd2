import BlazeKernels
import BlazeRuntime
import BlazeTestSupport
import BlazeTFLite
import Foundation
import Testing

/// MediaPipe's custom operators through the interpreter, on one-operator models built at test time: the same
/// bits as the kernels (tested against independent values in BlazeKernelsTests), and typed load-time errors
/// for unknown operators, wrong versions, missing, mistyped or out-of-range options, malformed FlexBuffers
/// and wrong shapes.
@Suite("MediaPipe custom operator models")
struct MediaPipeCustomOperatorModelTests {
    typealias T = OneOperatorModel.TensorSpec

    static var matrixOptions: [String: Any] { [
        "subset_idxs": [0, 1, 2, 3, 4], "left_rotation_idx": 0, "right_rotation_idx": 3,
        "target_rotation_radians": 0.25, "output_width": 16, "output_height": 12, "scale_x": 1.5, "scale_y": 1.25,
    ] }

    static func matrixModel(_ options: [String: Any] = matrixOptions, landmarks: [Int] = [1, 6, 3],
                            output: [Int] = [1, 4, 4], version: Int = 2) throws -> CustomOperatorModel {
        try CustomOperatorModel(name: "Landmarks2TransformMatrix", version: version, json: options,
                                tensors: [.floats("landmarks", landmarks), .floats("matrix", output)],
                                inputs: [0], outputs: [1])
    }

    static func loadError(_ data: Data) -> InterpreterError? { ModelLoading.loadError(data) }

    static func reason(_ data: Data) -> String? {
        if case let .invalidOperator(0, _, reason)? = loadError(data) { return reason }
        return nil
    }

    @Test("Landmarks2TransformMatrix runs with its FlexBuffers options, as the kernel computes")
    func matrixRuns() throws {
        let interpreter = try Interpreter(modelData: try Self.matrixModel().data())
        #expect(interpreter.plan.map(\.operatorName) == ["CUSTOM(Landmarks2TransformMatrix)"])
        let points = randomPoints(18, seed: 1)
        try interpreter.copy(points, toInputAt: 0)
        interpreter.invoke()
        let kernel = try LandmarksToTransformMatrix(landmarkCount: 6, subset: [0, 1, 2, 3, 4], leftIndex: 0, rightIndex: 3,
                                                    targetRotation: 0.25, outputWidth: 16, outputHeight: 12,
                                                    scaleX: 1.5, scaleY: 1.25)
        var expected = [Float](repeating: 0, count: 16)
        points.withUnsafeBufferPointer { p in expected.withUnsafeMutableBufferPointer { kernel.run(landmarks: p.baseAddress!, output: $0.baseAddress!) } }
        #expect(try interpreter.outputArray(at: 0) == expected)
    }

    @Test("TransformTensorBilinear and TransformLandmarks run as their kernels compute, at 1 and 2 threads")
    func samplingRuns() throws {
        let bilinear = try CustomOperatorModel(
            name: "TransformTensorBilinear", json: ["output_height": 16, "output_width": 16],
            tensors: [.floats("features", [1, 48, 48, 32]), .floats("matrix", [1, 4, 4]), .floats("crop", [1, 16, 16, 32])],
            inputs: [0, 1], outputs: [2])
        let landmarks = CustomOperatorModel(
            name: "TransformLandmarks", version: 2, options: nil,
            tensors: [.floats("points", [1, 71, 2]), .floats("matrix", [1, 4, 4]), .floats("moved", [1, 71, 2])],
            inputs: [0, 1], outputs: [2])
        let features = randomPoints(48 * 48 * 32, seed: 2)
        let matrix: [Float] = [0.9, -0.3, 0, 14, 0.3, 0.9, 0, 9, 0, 0, 1, 0, 0, 0, 0, 1]
        let points = randomPoints(142, seed: 3)
        let k1 = try TransformTensorBilinear(inputShape: Shape4(n: 1, h: 48, w: 48, c: 32), outputHeight: 16, outputWidth: 16)
        var crop = [Float](repeating: 0, count: 16 * 16 * 32)
        features.withUnsafeBufferPointer { f in matrix.withUnsafeBufferPointer { m in crop.withUnsafeMutableBufferPointer {
            k1.run(input: f.baseAddress!, matrix: m.baseAddress!, output: $0.baseAddress!) } } }
        let k2 = try TransformLandmarks(count: 71, dimensions: 2)
        var moved = [Float](repeating: 0, count: 142)
        points.withUnsafeBufferPointer { p in matrix.withUnsafeBufferPointer { m in moved.withUnsafeMutableBufferPointer {
            k2.run(landmarks: p.baseAddress!, matrix: m.baseAddress!, output: $0.baseAddress!) } } }
        for threads in [1, 2] {
            let a = try Interpreter(modelData: try bilinear.data(), options: .init(threadCount: threads))
            try a.copy(features, toInputAt: 0)
            try a.copy(matrix, toInputAt: 1)
            a.invoke()
            #expect(try a.outputArray(at: 0) == crop)
            let b = try Interpreter(modelData: try landmarks.data(), options: .init(threadCount: threads))
            try b.copy(points, toInputAt: 0)
            try b.copy(matrix, toInputAt: 1)
            b.invoke()
            #expect(try b.outputArray(at: 0) == moved)
        }
    }

    @Test("unknown custom operators and unregistered versions are unsupportedOperator naming them")
    func unknownOperators() throws {
        let unknown = try CustomOperatorModel(name: "Frobnicate", json: ["a": 1],
                                              tensors: [.floats("x", [1, 4]), .floats("y", [1, 4])], inputs: [0], outputs: [1])
        #expect(Self.loadError(try unknown.data()) == .unsupportedOperator(index: 0, name: "CUSTOM(Frobnicate)", version: 2))
        #expect(Self.loadError(try Self.matrixModel(version: 1).data())
            == .unsupportedOperator(index: 0, name: "CUSTOM(Landmarks2TransformMatrix)", version: 1))
    }

    @Test("missing, mistyped and out-of-range options are invalidOperator naming the option")
    func badOptions() throws {
        func with(_ key: String, _ value: Any?) -> [String: Any] {
            var o = Self.matrixOptions
            o[key] = value
            return o
        }
        #expect(Self.reason(try Self.matrixModel(with("subset_idxs", nil)).data()) == "custom option 'subset_idxs' is missing")
        #expect(Self.reason(try Self.matrixModel(with("scale_x", "big")).data())?.contains("'scale_x' is string") == true)
        #expect(Self.reason(try Self.matrixModel(with("output_width", 1.5)).data())?.contains("not an integer") == true)
        #expect(Self.reason(try Self.matrixModel(with("right_rotation_idx", 6)).data())?.contains("right_rotation_idx 6 is outside the 6 landmarks") == true)
        #expect(Self.reason(try Self.matrixModel(with("subset_idxs", [0, -1])).data())?.contains("subset_idxs -1") == true)
        #expect(Self.reason(try Self.matrixModel(with("scale_y", 0)).data())?.contains("scale") == true)
        #expect(Self.reason(try Self.matrixModel(with("output_height", 0)).data())?.contains("output size") == true)
        // target_rotation_radians may be absent (0).
        _ = try Interpreter(modelData: try Self.matrixModel(with("target_rotation_radians", nil)).data())
    }

    @Test("malformed custom options are invalidModel(malformedFlexBuffer) with the byte offset in the file")
    func malformedOptions() throws {
        var model = try Self.matrixModel()
        model.options = Array(model.options!.dropLast(3)) + [7, 7, 3]
        let data = try model.data()
        guard case let .invalidModel(.malformedFlexBuffer(path, offset, _))? = Self.loadError(data) else {
            Issue.record("expected malformedFlexBuffer")
            return
        }
        #expect(path == "subgraphs[0].operators[0].custom_options")
        #expect(offset > 0 && offset < data.count)
    }

    @Test("wrong shapes are typed errors")
    func badShapes() throws {
        guard case .shapeMismatch(0, _, 1, "matrix", [1, 4, 4], [1, 16])? = Self.loadError(try Self.matrixModel(output: [1, 16]).data()) else {
            Issue.record("expected shapeMismatch of the matrix")
            return
        }
        #expect(Self.reason(try Self.matrixModel(landmarks: [1, 6, 2]).data())?.contains("(3)") == true)
        #expect(Self.reason(try Self.matrixModel(landmarks: [6, 3]).data())?.contains("expected [1, count, dimensions]") == true)
        let wrongCrop = try CustomOperatorModel(
            name: "TransformTensorBilinear", json: ["output_height": 16, "output_width": 8],
            tensors: [.floats("features", [1, 48, 48, 32]), .floats("matrix", [1, 4, 4]), .floats("crop", [1, 16, 16, 32])],
            inputs: [0, 1], outputs: [2])
        #expect(Self.loadError(try wrongCrop.data())
            == .shapeMismatch(index: 0, operator: "CUSTOM(TransformTensorBilinear)", tensor: 2, name: "crop",
                              expected: [1, 16, 8, 32], actual: [1, 16, 16, 32]))
        let badMatrix = CustomOperatorModel(
            name: "TransformLandmarks", version: 2, options: nil,
            tensors: [.floats("points", [1, 5, 3]), .floats("matrix", [1, 3, 3]), .floats("moved", [1, 5, 3])],
            inputs: [0, 1], outputs: [2])
        #expect(Self.loadError(try badMatrix.data())
            == .shapeMismatch(index: 0, operator: "CUSTOM(TransformLandmarks)", tensor: 1, name: "matrix",
                              expected: [1, 4, 4], actual: [1, 3, 3]))
        let fourD = CustomOperatorModel(
            name: "TransformLandmarks", version: 2, options: nil,
            tensors: [.floats("points", [1, 5, 4]), .floats("matrix", [1, 4, 4]), .floats("moved", [1, 5, 4])],
            inputs: [0, 1], outputs: [2])
        #expect(Self.reason(try fourD.data())?.contains("2 or 3") == true)
    }

    func randomPoints(_ count: Int, seed: UInt64) -> [Float] {
        var rng = SplitMix64(seed: seed)
        return rng.floats(count).map { $0 * 100 }
    }
}
