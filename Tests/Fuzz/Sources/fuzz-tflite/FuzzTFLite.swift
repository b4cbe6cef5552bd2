import BlazeRuntime
import BlazeTFLite

/// Limits for the model target, far below the defaults so that one input stays within libFuzzer's
/// `-timeout` and `-rss_limit_mb` even for a model crafted to be slow or large: 5·10^7 multiply-accumulates
/// (a few milliseconds even under ASan; the face detectors need 3·10^7, the landmark models more, so those
/// are refused at load, which still exercises everything before the cost check) and a 64 MiB arena.
let options = Interpreter.Options(threadCount: 1, maximumArenaBytes: 64 << 20,
                                  maximumMultiplyAccumulates: 50_000_000)

/// libFuzzer entry point: any bytes through `Model(bytes:)` (the verifying flatbuffer reader), then
/// `Interpreter(model:options:)` (lowering, custom operators' options, constant folding, planning) and,
/// when that succeeds, one `invoke()` on the zeroed inputs. Every outcome must be a typed error or a run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard let model = try? Model(bytes: bytes) else { return 0 }
    // The custom options of every operator, as a CUSTOM operator's lowering would read them.
    for (index, subgraph) in model.subgraphs.enumerated() {
        for op in subgraph.operators { _ = try? model.customOptions(of: op, subgraph: index) }
    }
    guard let interpreter = try? Interpreter(model: model, options: options) else { return 0 }
    interpreter.invoke()
    for index in interpreter.outputs.indices { _ = try? interpreter.outputArray(at: index) }
    return 0
}
