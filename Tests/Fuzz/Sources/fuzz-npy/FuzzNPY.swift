import BlazeNPY

/// libFuzzer entry point: any bytes through `NPYArray(bytes:)`. Every outcome must be an `NPYError` or an
/// array whose element count agrees with its shape and bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let array = try? NPYArray(bytes: bytes) else { return 0 }
    let count = array.shape.reduce(1, *)
    precondition(array.bytes.count == count * array.dtype.byteSize, "NPYArray: bytes disagree with the shape")
    precondition(array.floats().count == count, "NPYArray.floats(): wrong count")
    _ = array.fileBytes()
    return 0
}
