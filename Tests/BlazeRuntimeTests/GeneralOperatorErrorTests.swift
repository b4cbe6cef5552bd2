import BlazeRuntime
import BlazeTestSupport
import Foundation
import Testing

/// Hostile or inconsistent general-purpose operators end in typed errors at load time, never a trap or a huge
/// allocation: each case is a one-operator model built here.
@Suite("General operators: bad models")
struct GeneralOperatorErrorTests {
    typealias T = OneOperatorModel.TensorSpec

    static func error(_ model: OneOperatorModel) throws -> InterpreterError? {
        ModelLoading.loadError(try model.data())
    }

    static func invalidReason(_ model: OneOperatorModel) throws -> String? {
        guard case let .invalidOperator(_, _, reason)? = try error(model) else { return nil }
        return reason
    }

    @Test("a permutation out of range, or one that repeats an axis")
    func badPermutation() throws {
        for perm in [[0, 3, 1], [0, 0, 1], [1, 2]] {
            let model = OneOperatorModel(op: "TRANSPOSE", optionsType: "TransposeOptions", options: [:],
                                         tensors: [.floats("x", [2, 3, 4]), .constant("perm", int32: perm),
                                                   .floats("y", [4, 3, 2])],
                                         inputs: [0, 1], outputs: [2])
            let reason = try Self.invalidReason(model)
            #expect(reason?.contains("not a permutation") == true, "\(perm): \(String(describing: reason))")
        }
    }

    @Test("a split that does not divide its axis, and size_splits that do not add up")
    func badSplits() throws {
        let split = OneOperatorModel(op: "SPLIT", optionsType: "SplitOptions", options: ["num_splits": 2],
                                     tensors: [.constant("axis", int32: [1], shape: []), .floats("x", [2, 5]),
                                               .floats("a", [2, 2]), .floats("b", [2, 3])],
                                     inputs: [0, 1], outputs: [2, 3])
        #expect(try Self.invalidReason(split)?.contains("does not split") == true)
        let splitV = OneOperatorModel(op: "SPLIT_V", optionsType: "SplitVOptions", options: ["num_splits": 2],
                                      tensors: [.floats("x", [2, 5]), .constant("sizes", int32: [2, 4]),
                                                .constant("axis", int32: [1], shape: []),
                                                .floats("a", [2, 2]), .floats("b", [2, 4])],
                                      inputs: [0, 1, 2], outputs: [3, 4])
        #expect(try Self.invalidReason(splitV)?.contains("do not add up") == true)
    }

    @Test("batch matrix products whose inner or batch dimensions disagree")
    func badBatchMatMul() throws {
        for (x, y) in [([2, 3, 4], [2, 5, 6]), ([2, 3, 4], [3, 4, 5]), ([4], [4, 5])] {
            let model = OneOperatorModel(op: "BATCH_MATMUL", optionsType: "BatchMatMulOptions", options: [:],
                                         tensors: [.floats("x", x), .floats("y", y), .floats("z", [2, 3, 5])],
                                         inputs: [0, 1], outputs: [2])
            let reason = try Self.invalidReason(model)
            #expect(reason?.contains("BATCH_MATMUL") == true, "\(x) x \(y): \(String(describing: reason))")
        }
    }

    @Test("a batch product of operands far beyond the arena limit is refused before its work is counted")
    func hugeBatchMatMul() throws {
        let model = OneOperatorModel(op: "BATCH_MATMUL", optionsType: "BatchMatMulOptions", options: [:],
                                     tensors: [.floats("x", [1 << 20, 1 << 20]), .floats("y", [1 << 20, 1 << 20]),
                                               .floats("z", [1 << 20, 1 << 20])],
                                     inputs: [0, 1], outputs: [2])
        guard case .arenaTooLarge? = try Self.error(model) else {
            Issue.record("expected arenaTooLarge")
            return
        }
    }

    @Test("a gather index outside its axis")
    func badGatherIndex() throws {
        for index in [4, -5, Int(Int32.max)] {
            let model = OneOperatorModel(op: "GATHER", optionsType: "GatherOptions", options: ["axis": 1],
                                         tensors: [.floats("x", [2, 4]), .constant("i", int32: [0, index]),
                                                   .floats("y", [2, 2])],
                                         inputs: [0, 1], outputs: [2])
            #expect(try Self.invalidReason(model)?.contains("outside axis 1") == true, "index \(index)")
        }
    }

    @Test("a shape whose product overflows, and a RESHAPE to it")
    func overflowingShape() throws {
        let model = OneOperatorModel(op: "RESHAPE", optionsType: "ReshapeOptions", options: [:],
                                     tensors: [.floats("x", [2, 4]),
                                               .constant("shape", int64: [Int(Int64.max), 4, -1]),
                                               .floats("y", [2, 4])],
                                     inputs: [0, 1], outputs: [2])
        #expect(try Self.invalidReason(model)?.contains("more elements than an Int counts") == true)
    }

    @Test("a transpose of billions of elements is refused before anything of its size is made")
    func hugeTranspose() throws {
        let model = OneOperatorModel(op: "TRANSPOSE", optionsType: "TransposeOptions", options: [:],
                                     tensors: [.floats("x", [65536, 65536]), .constant("perm", int32: [1, 0]),
                                               .floats("y", [65536, 65536])],
                                     inputs: [0, 1], outputs: [2])
        guard case let .arenaTooLarge(bytes, limit)? = try Self.error(model) else {
            Issue.record("expected arenaTooLarge")
            return
        }
        #expect(bytes == 65536 * 65536 * 4 && limit == 1 << 30)
    }

    @Test("fully connected weights that do not fit the input, mirror padding past the border, PACK of unequal shapes")
    func otherShapes() throws {
        let fc = OneOperatorModel(op: "FULLY_CONNECTED", optionsType: "FullyConnectedOptions", options: [:],
                                  tensors: [.floats("x", [2, 8]), .constant("w", [5, 7], floats: .init(repeating: 1, count: 35)),
                                            .floats("y", [2, 5])],
                                  inputs: [0, 1, -1], outputs: [2])
        #expect(try Self.invalidReason(fc)?.contains("rows of the weights' 7 inputs") == true)
        let pad = OneOperatorModel(op: "MIRROR_PAD", optionsType: "MirrorPadOptions", options: ["mode": "REFLECT"],
                                   tensors: [.floats("x", [1, 3]), .constant("p", int32: [0, 0, 3, 0], shape: [2, 2]),
                                             .floats("y", [1, 6])],
                                   inputs: [0, 1], outputs: [2])
        #expect(try Self.invalidReason(pad)?.contains("is more than 2") == true)
        let pack = OneOperatorModel(op: "PACK", optionsType: "PackOptions", options: ["values_count": 2, "axis": 0],
                                    tensors: [.floats("a", [2, 3]), .floats("b", [3, 2]), .floats("y", [2, 2, 3])],
                                    inputs: [0, 1], outputs: [2])
        #expect(try Self.invalidReason(pack)?.contains("inputs have shapes") == true)
    }
}
