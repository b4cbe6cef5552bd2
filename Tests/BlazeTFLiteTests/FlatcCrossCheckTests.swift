import BlazeTestSupport
import Foundation
import BlazeTFLite
import Testing


/// Our reader against `flatc`'s own view of the six real models: every field the reader decodes must
/// equal what the FlatBuffers compiler dumps with our schema (Tests/Schema/tflite_dump.fbs).
///
/// flatc prints every scalar (with `--defaults-json`) but leaves out absent vectors, strings and tables:
/// a missing key means the schema default.
@Suite("Reader vs flatc on the real models")
struct FlatcCrossCheckTests {
    // MARK: Schema facts, read from the .fbs so the test does not restate them

    /// Values of the enums of the dump schema, by enum name and then member name.
    static let enums: [String: [String: Int]] = {
        guard let text = try? String(contentsOfFile: Flatc.dumpSchema, encoding: .utf8) else { return [:] }
        var result: [String: [String: Int]] = [:]
        var current: String?
        var next = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("enum ") {
                let name = String(trimmed.dropFirst(5).prefix { $0 != " " && $0 != ":" })
                current = name
                next = 0
                result[name] = [:]
                // Single-line enums: `enum Padding : byte { SAME = 0, VALID = 1 }`.
                if let open = trimmed.firstIndex(of: "{"), let close = trimmed.firstIndex(of: "}") {
                    for item in trimmed[trimmed.index(after: open)..<close].split(separator: ",") {
                        let parts = item.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                        guard let member = parts.first, !member.isEmpty else { continue }
                        let value = parts.count > 1 ? Int(parts[1]) ?? next : next
                        result[name]![member] = value
                        next = value + 1
                    }
                    current = nil
                }
                continue
            }
            guard let name = current else { continue }
            if trimmed.hasPrefix("}") { current = nil; continue }
            for item in trimmed.split(separator: ",") {
                let parts = item.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let member = parts.first, !member.isEmpty, member != "{" else { continue }
                let value = parts.count > 1 ? Int(parts[1]) ?? next : next
                result[name]![member] = value
                next = value + 1
            }
        }
        return result
    }()

    /// Union member index of each `BuiltinOptions` member (NONE = 0).
    static let optionsUnion: [String: Int] = {
        guard let text = try? String(contentsOfFile: Flatc.dumpSchema, encoding: .utf8),
              let start = text.range(of: "union BuiltinOptions {"),
              let end = text[start.upperBound...].firstIndex(of: "}") else { return [:] }
        var result = ["NONE": 0]
        var index = 1
        for rawLine in text[start.upperBound..<end].split(separator: "\n") {
            let line = rawLine.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
            for item in line.split(separator: ",") {
                let name = item.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { continue }
                result[name] = index
                index += 1
            }
        }
        return result
    }()

    @Test("the schema facts parse")
    func schemaFacts() {
        #expect(Self.enums["BuiltinOperator"]?["CONV_2D"] == 3)
        #expect(Self.enums["BuiltinOperator"]?["CUMSUM"] == 128)
        #expect(Self.enums["TensorType"]?["INT8"] == 9)
        #expect(Self.enums["Padding"]?["VALID"] == 1)
        #expect(Self.enums["ActivationFunctionType"]?["RELU6"] == 3)
        #expect(Self.enums["DimensionType"]?["SPARSE_CSR"] == 1)
        #expect(Self.optionsUnion.count == 127)
        // Union member indices as in TensorFlow's schema.fbs (the reader's constants are checked by
        // decoding the real models below).
        let members = ["Conv2DOptions": 1, "DepthwiseConv2DOptions": 2, "Pool2DOptions": 5,
                       "ConcatenationOptions": 10, "AddOptions": 11, "ResizeBilinearOptions": 15,
                       "ReshapeOptions": 17, "MulOptions": 21, "PadOptions": 22, "DequantizeOptions": 38,
                       "DepthToSpaceOptions": 94, "DensifyOptions": 99]
        for (name, index) in members { #expect(Self.optionsUnion[name] == index, "\(name)") }
        // Our operator names agree with the schema's enum wherever we name them.
        var named = 0
        for (name, value) in Self.enums["BuiltinOperator"] ?? [:] {
            let ours = BuiltinOperator(rawValue: Int32(value)).name
            guard !ours.hasPrefix("BUILTIN_") else { continue }
            #expect(ours == name)
            named += 1
        }
        #expect(named >= 162)
        for (name, value) in Self.enums["TensorType"] ?? [:] where TensorType(rawValue: Int8(value)).name.hasPrefix("TYPE_") == false {
            #expect(TensorType(rawValue: Int8(value)).name == name)
        }
    }

    // MARK: JSON access with schema defaults

    /// An integer (or an enum, by name or number) field; `fallback` when absent.
    static func int(_ object: [String: Any]?, _ key: String, enum enumName: String? = nil,
                    default fallback: Int = 0) -> Int? {
        guard let value = object?[key] else { return fallback }
        if let name = value as? String {
            guard let enumName else { return nil }
            return enums[enumName]?[name]
        }
        if let number = value as? NSNumber { return number.intValue }
        return nil
    }

    static func bool(_ object: [String: Any]?, _ key: String) -> Bool {
        guard let value = object?[key] else { return false }
        return (value as? Bool) ?? ((value as? NSNumber)?.boolValue ?? false)
    }

    static func ints(_ object: [String: Any]?, _ key: String) -> [Int]? {
        guard let value = object?[key] else { return nil }
        return (value as? [Any])?.map { ($0 as? NSNumber)?.intValue ?? Int.min }
    }

    static func floats(_ object: [String: Any]?, _ key: String) -> [Double]? {
        guard let value = object?[key] else { return nil }
        return (value as? [Any])?.map { ($0 as? NSNumber)?.doubleValue ?? .nan }
    }

    static func objects(_ object: [String: Any]?, _ key: String) -> [[String: Any]] {
        (object?[key] as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
    }

    static func floatsMatch(_ ours: [Float], _ theirs: [Double]?) -> Bool {
        let theirs = theirs ?? []
        guard ours.count == theirs.count else { return false }
        // flatc prints floats in decimal; allow for its rounding.
        return zip(ours, theirs).allSatisfy { a, b in
            Double(a) == b || abs(Double(a) - b) <= 1e-6 * max(1, abs(b))
        }
    }

    // MARK: The cross-check

    @Test("every field the reader decodes matches flatc's dump", arguments: TestResources.realModelFiles)
    func crossCheck(file: String) throws {
        let path = try TestResources.modelPath(file)
        let json = try Flatc.dump(modelAt: path)
        let model = try Model(path: path)

        #expect(model.version == UInt32(Self.int(json, "version") ?? -1))
        #expect(model.description == json["description"] as? String)
        #expect(model.fileSize == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))

        // Operator codes.
        let codes = Self.objects(json, "operator_codes")
        try #require(model.operatorCodes.count == codes.count)
        for (i, (ours, theirs)) in zip(model.operatorCodes, codes).enumerated() {
            let deprecated = try #require(Self.int(theirs, "deprecated_builtin_code"))
            let builtin = try #require(Self.int(theirs, "builtin_code", enum: "BuiltinOperator"))
            #expect(Int(ours.deprecatedBuiltinCode) == deprecated, "operator_codes[\(i)]")
            #expect(Int(ours.builtinCodeField) == builtin, "operator_codes[\(i)]")
            #expect(Int(ours.builtinCode.rawValue) == max(deprecated, builtin), "operator_codes[\(i)]")
            #expect(ours.customCode == theirs["custom_code"] as? String, "operator_codes[\(i)]")
            #expect(ours.version == Self.int(theirs, "version", default: 1), "operator_codes[\(i)]")
        }

        // Buffers and metadata.
        let buffers = Self.objects(json, "buffers")
        try #require(model.buffers.count == buffers.count)
        for (b, (ours, theirs)) in zip(model.buffers, buffers).enumerated() {
            #expect(ours.range.lowerBound >= 0 && ours.range.upperBound <= model.fileSize, "buffers[\(b)]")
            let hasData = (Self.int(theirs, "data_uoffset") ?? 0) != 0
            let external = (Self.int(theirs, "offset") ?? 0) > 1
            if !hasData && !external { #expect(ours.isEmpty, "buffers[\(b)] has no data in the file") }
            if external {
                #expect(ours.range.lowerBound == Self.int(theirs, "offset"), "buffers[\(b)]")
                #expect(ours.count == Self.int(theirs, "size"), "buffers[\(b)]")
            }
        }
        let metadata = Self.objects(json, "metadata")
        try #require(model.metadata.count == metadata.count)
        for (ours, theirs) in zip(model.metadata, metadata) {
            #expect(ours.name == theirs["name"] as? String)
            #expect(ours.buffer == Self.int(theirs, "buffer"))
        }

        // Subgraphs.
        let subgraphs = Self.objects(json, "subgraphs")
        try #require(model.subgraphs.count == subgraphs.count)
        var checked = (tensors: 0, constants: 0, sparse: 0, operators: 0, options: 0)
        for (s, (graph, theirs)) in zip(model.subgraphs, subgraphs).enumerated() {
            #expect(graph.name == theirs["name"] as? String)
            #expect(graph.inputs == Self.ints(theirs, "inputs") ?? [])
            #expect(graph.outputs == Self.ints(theirs, "outputs") ?? [])

            let tensors = Self.objects(theirs, "tensors")
            try #require(graph.tensors.count == tensors.count)
            for (t, (ours, tj)) in zip(graph.tensors, tensors).enumerated() {
                let label = "subgraphs[\(s)].tensors[\(t)] '\(ours.name)'"
                #expect(ours.index == t)
                #expect(ours.name == (tj["name"] as? String ?? ""), "\(label)")
                #expect(ours.shape == Self.ints(tj, "shape") ?? [], "\(label)")
                #expect(ours.shapeSignature == Self.ints(tj, "shape_signature"), "\(label)")
                #expect(ours.type.name == tj["type"] as? String, "\(label)")
                #expect(Int(ours.type.rawValue) == Self.int(tj, "type", enum: "TensorType"), "\(label)")
                #expect(ours.buffer == Self.int(tj, "buffer"), "\(label)")
                #expect(ours.isVariable == Self.bool(tj, "is_variable"), "\(label)")
                try checkQuantization(ours.quantization, tj["quantization"] as? [String: Any], label)
                let sparseValues = try checkSparsity(ours.sparsity, tj["sparsity"] as? [String: Any], label)
                checked.tensors += 1

                // Constant tensors: the buffer holds exactly the bytes the shape and type need.
                let buffer = model.buffers[ours.buffer]
                if !buffer.isEmpty, let size = ours.type.byteSize {
                    checked.constants += 1
                    if let sparseValues {
                        checked.sparse += 1
                        #expect(buffer.count == sparseValues * size, "\(label): sparse buffer bytes")
                    } else {
                        #expect(buffer.count == ours.elementCount * size, "\(label): \(ours.shape) \(ours.type)")
                    }
                }
            }

            let operators = Self.objects(theirs, "operators")
            try #require(graph.operators.count == operators.count)
            for (o, (ours, oj)) in zip(graph.operators, operators).enumerated() {
                let label = "subgraphs[\(s)].operators[\(o)]"
                #expect(ours.index == o)
                #expect(ours.opcodeIndex == Self.int(oj, "opcode_index"), "\(label)")
                #expect(ours.inputs == Self.ints(oj, "inputs") ?? [], "\(label)")
                #expect(ours.outputs == Self.ints(oj, "outputs") ?? [], "\(label)")
                #expect(ours.customOptions?.count == Self.ints(oj, "custom_options")?.count, "\(label)")
                if try checkOptions(ours.options, oj, label) { checked.options += 1 }
                checked.operators += 1
            }
        }
        print("flatc cross-check \(file): \(checked.tensors) tensors (\(checked.constants) constants, "
            + "\(checked.sparse) sparse), \(checked.operators) operators (\(checked.options) with decoded options), "
            + "\(model.buffers.count) buffers")
        #expect(checked.operators > 0 && checked.constants > 0)
    }

    func checkQuantization(_ ours: Quantization?, _ theirs: [String: Any]?, _ label: String) throws {
        guard let theirs else {
            #expect(ours == nil, "\(label): quantization")
            return
        }
        let q = try #require(ours, "\(label): quantization is in the file")
        #expect(Self.floatsMatch(q.min, Self.floats(theirs, "min")), "\(label): quantization.min")
        #expect(Self.floatsMatch(q.max, Self.floats(theirs, "max")), "\(label): quantization.max")
        #expect(Self.floatsMatch(q.scale, Self.floats(theirs, "scale")), "\(label): quantization.scale")
        #expect(q.zeroPoint == Self.ints(theirs, "zero_point") ?? [], "\(label): quantization.zero_point")
        #expect(q.quantizedDimension == Self.int(theirs, "quantized_dimension"), "\(label)")
    }

    /// Compares the sparsity parameters and returns the number of values the flatc-dumped metadata says
    /// are stored (nil for a dense tensor).
    func checkSparsity(_ ours: Sparsity?, _ theirs: [String: Any]?, _ label: String) throws -> Int? {
        guard let theirs else {
            #expect(ours == nil, "\(label): sparsity")
            return nil
        }
        let s = try #require(ours, "\(label): sparsity is in the file")
        #expect(s.traversalOrder == Self.ints(theirs, "traversal_order") ?? [], "\(label)")
        #expect(s.blockMap == Self.ints(theirs, "block_map") ?? [], "\(label)")
        let dims = Self.objects(theirs, "dim_metadata")
        try #require(s.dimensionMetadata.count == dims.count, "\(label)")
        var stored = 1
        for (d, (ours, dj)) in zip(s.dimensionMetadata, dims).enumerated() {
            let format = Self.int(dj, "format", enum: "DimensionType")
            switch ours {
            case let .dense(size):
                #expect(format == 0, "\(label).dim_metadata[\(d)]")
                #expect(size == Self.int(dj, "dense_size"), "\(label).dim_metadata[\(d)]")
                stored *= size
            case let .sparseCSR(segments, indices):
                #expect(format == 1, "\(label).dim_metadata[\(d)]")
                let segmentObject = dj["array_segments"] as? [String: Any]
                let indexObject = dj["array_indices"] as? [String: Any]
                #expect(dj["array_segments_type"] as? String != "NONE", "\(label).dim_metadata[\(d)]")
                #expect(segments == Self.ints(segmentObject, "values") ?? [], "\(label).dim_metadata[\(d)] segments")
                #expect(indices == Self.ints(indexObject, "values") ?? [], "\(label).dim_metadata[\(d)] indices")
                // The segments of a CSR level have one entry per parent plus one; the last is the child count.
                #expect(segments.count == stored + 1, "\(label).dim_metadata[\(d)]")
                stored = segments.last ?? 0
                #expect(stored == indices.count, "\(label).dim_metadata[\(d)]")
            }
        }
        return stored
    }

    /// Our decoded options as the union member index and the schema's field names with integer values
    /// (enums and bools as numbers; `new_shape` as a list, absent as nil).
    static func fields(of options: BuiltinOptions) -> (type: Int?, values: [String: Int], newShape: [Int]??) {
        switch options {
        case .none:
            return (0, [:], nil)
        case let .conv2D(o):
            return (1, ["padding": Int(o.padding.rawValue), "stride_w": o.strideW, "stride_h": o.strideH,
                        "fused_activation_function": Int(o.activation.rawValue),
                        "dilation_w_factor": o.dilationW, "dilation_h_factor": o.dilationH], nil)
        case let .depthwiseConv2D(o):
            return (2, ["padding": Int(o.padding.rawValue), "stride_w": o.strideW, "stride_h": o.strideH,
                        "depth_multiplier": o.depthMultiplier, "fused_activation_function": Int(o.activation.rawValue),
                        "dilation_w_factor": o.dilationW, "dilation_h_factor": o.dilationH], nil)
        case let .pool2D(o):
            return (5, ["padding": Int(o.padding.rawValue), "stride_w": o.strideW, "stride_h": o.strideH,
                        "filter_width": o.filterWidth, "filter_height": o.filterHeight,
                        "fused_activation_function": Int(o.activation.rawValue)], nil)
        case let .concatenation(o):
            return (10, ["axis": o.axis, "fused_activation_function": Int(o.activation.rawValue)], nil)
        case let .add(activation):
            return (11, ["fused_activation_function": Int(activation.rawValue)], nil)
        case let .resizeBilinear(o):
            return (15, ["align_corners": o.alignCorners ? 1 : 0, "half_pixel_centers": o.halfPixelCenters ? 1 : 0], nil)
        case let .reshape(newShape):
            return (17, [:], .some(newShape))
        case let .mul(activation):
            return (21, ["fused_activation_function": Int(activation.rawValue)], nil)
        case let .depthToSpace(blockSize):
            return (94, ["block_size": blockSize], nil)
        case let .stridedSlice(o):
            return (32, ["begin_mask": o.beginMask, "end_mask": o.endMask, "ellipsis_mask": o.ellipsisMask,
                         "new_axis_mask": o.newAxisMask, "shrink_axis_mask": o.shrinkAxisMask,
                         "offset": o.offset ? 1 : 0], nil)
        case let .reducer(keepDims):
            return (27, ["keep_dims": keepDims ? 1 : 0], nil)
        case let .fullyConnected(o):
            return (8, ["fused_activation_function": Int(o.activation.rawValue), "weights_format": o.weightsFormat,
                        "keep_num_dims": o.keepNumDims ? 1 : 0], nil)
        case .softmax:
            return (9, [:], nil)
        case let .sub(activation):
            return (28, ["fused_activation_function": Int(activation.rawValue)], nil)
        case let .div(activation):
            return (29, ["fused_activation_function": Int(activation.rawValue)], nil)
        case let .resizeNearestNeighbor(o):
            return (74, ["align_corners": o.alignCorners ? 1 : 0, "half_pixel_centers": o.halfPixelCenters ? 1 : 0], nil)
        case .leakyReLU:
            return (75, [:], nil)
        case .squeeze:
            return (30, [:], nil)
        case let .gather(axis, batchDimensions):
            return (23, ["axis": axis, "batch_dims": batchDimensions], nil)
        case let .mirrorPad(mode):
            return (77, ["mode": Int(mode.rawValue)], nil)
        case let .split(count):
            return (nil, ["num_splits": count], nil)
        case let .pack(count, axis):
            return (59, ["values_count": count, "axis": axis], nil)
        case let .unpack(count, axis):
            return (64, ["num": count, "axis": axis], nil)
        case let .batchMatMul(adjointX, adjointY):
            return (101, ["adj_x": adjointX ? 1 : 0, "adj_y": adjointY ? 1 : 0], nil)
        case let .gelu(approximate):
            return (116, ["approximate": approximate ? 1 : 0], nil)
        case let .shape(outputType):
            return (55, ["out_type": Int(outputType.rawValue)], nil)
        case let .empty(unionType), let .other(unionType):
            return (Int(unionType), [:], nil)
        }
    }

    /// Enum types of the option fields we compare.
    static let fieldEnums = ["padding": "Padding", "fused_activation_function": "ActivationFunctionType",
                             "weights_format": "FullyConnectedOptionsWeightsFormat", "mode": "MirrorPadMode",
                             "out_type": "TensorType"]

    /// Compares decoded builtin options; returns true when the options were decoded (not `.other`/`.none`).
    func checkOptions(_ ours: BuiltinOptions, _ oj: [String: Any], _ label: String) throws -> Bool {
        let typeName = try #require(oj["builtin_options_type"] as? String, "\(label): builtin_options_type")
        let typeIndex = try #require(Self.optionsUnion[typeName], "\(label): unknown options \(typeName)")
        // An absent table reads as all defaults.
        let o = oj["builtin_options"] as? [String: Any] ?? [:]
        let decoded = Self.fields(of: ours)
        // nil: SPLIT's and SPLIT_V's tables decode to one case.
        #expect(decoded.type == nil || decoded.type == typeIndex, "\(label): \(ours) vs \(typeName)")
        switch (typeName, ours) {
        case ("PadOptions", .empty), ("DequantizeOptions", .empty), ("DensifyOptions", .empty),
             ("HardSwishOptions", .empty), ("NONE", .none), ("TransposeOptions", .empty), ("ExpOptions", .empty),
             ("LogSoftmaxOptions", .empty), ("MaximumMinimumOptions", .empty), ("NegOptions", .empty),
             ("SliceOptions", .empty), ("ExpandDimsOptions", .empty), ("SquaredDifferenceOptions", .empty),
             ("AbsOptions", .empty):
            break
        case (_, .other):
            #expect(!["Conv2DOptions", "DepthwiseConv2DOptions", "Pool2DOptions", "ConcatenationOptions", "AddOptions",
                      "ResizeBilinearOptions", "ReshapeOptions", "MulOptions", "DepthToSpaceOptions", "PadOptions",
                      "DequantizeOptions", "DensifyOptions", "StridedSliceOptions", "ReducerOptions",
                      "HardSwishOptions"].contains(typeName), "\(label): \(typeName) not decoded")
        case (_, .empty), (_, .none):
            Issue.record("\(label): \(ours) for \(typeName)")
        default:
            break
        }
        for (key, value) in decoded.values {
            let defaultValue = key.hasPrefix("dilation_") ? 1 : 0
            let expected = key == "align_corners" || key == "half_pixel_centers" || key == "offset" || key == "keep_dims"
                || ["keep_num_dims", "adj_x", "adj_y", "approximate"].contains(key)
                ? (Self.bool(o, key) ? 1 : 0)
                : Self.int(o, key, enum: Self.fieldEnums[key], default: defaultValue)
            #expect(value == expected, "\(label): \(typeName).\(key)")
        }
        if let newShape = decoded.newShape {
            #expect(newShape == Self.ints(o, "new_shape"), "\(label): ReshapeOptions.new_shape")
        }
        switch ours {
        case .none, .other, .empty: return false
        default: return true
        }
    }
}
