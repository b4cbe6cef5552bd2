import BlazeTFLite

/// libFuzzer entry point: any bytes as the `custom_options` of a CUSTOM operator, through the public
/// `FlexBufferMap(bytes:path:fileOffset:)` that `Model.customOptions(of:)` calls. Every outcome must be a
/// `TFLiteError` or a map whose keys and values agree; each value is then read the way the custom operators'
/// lowering reads options (`integer`, `number`, `integers`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard let map = try? FlexBufferMap(bytes: bytes, path: "fuzz", fileOffset: 0) else { return 0 }
    precondition(map.keys.count == map.values.count, "FlexBufferMap: keys and values disagree")
    for key in map.keys {
        guard let value = map[key] else { preconditionFailure("FlexBufferMap: key '\(key)' has no value") }
        _ = value.integer
        _ = value.number
        _ = value.integers
    }
    return 0
}
