import BlazeTestSupport
import Foundation
import Testing

/// `blazeface inspect` on one-operator models of MUL and STRIDED_SLICE: their options, input roles and steps.
@Suite struct InspectNewOperatorsTests {
    @Test("inspect prints STRIDED_SLICE's masks and input roles, and MUL's activation")
    func options() async throws {
        let scratch = try TemporaryDirectory()
        let slice = OneOperatorModel(
            op: "STRIDED_SLICE", optionsType: "StridedSliceOptions",
            options: ["begin_mask": 5, "end_mask": 5, "shrink_axis_mask": 2],
            tensors: [.floats("x", [2, 3, 4]), .constant("begin", int32: [0, 1, 0]), .constant("end", int32: [0, 2, 4]),
                      .constant("strides", int32: [1, 1, -1]), .floats("y", [2, 4])],
            inputs: [0, 1, 2, 3], outputs: [4])
        let mul = OneOperatorModel(
            op: "MUL", optionsType: "MulOptions", options: ["fused_activation_function": "RELU6"],
            tensors: [.floats("a", [1, 4, 4, 8]), .constant("s", [1, 1, 1, 8], floats: Array(repeating: 2, count: 8)),
                      .floats("p", [1, 4, 4, 8])],
            inputs: [0, 1], outputs: [2])
        for (name, model, phrases) in [
            ("slice", slice, ["STRIDED_SLICE v1  begin_mask=5 end_mask=5 ellipsis_mask=0 new_axis_mask=0 shrink_axis_mask=2 offset=false",
                              "begin:", "end:", "strides:", "StridedSlice.simd", "steps: 1"]),
            ("mul", mul, ["MUL v1  activation=RELU6", "Mul.simd", "steps: 1"]),
        ] {
            let path = scratch.url.appendingPathComponent("\(name).tflite").path
            try model.data().write(to: URL(fileURLWithPath: path))
            let result = try await CommandLineTool.run(["inspect", path])
            #expect(result.status == 0, "\(result)")
            for phrase in phrases {
                #expect(result.standardOutput.contains(phrase), "\(name): missing '\(phrase)' in \(result.standardOutput)")
            }
        }
    }
}
