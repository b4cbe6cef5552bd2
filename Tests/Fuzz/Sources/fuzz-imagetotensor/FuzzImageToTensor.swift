import BlazeImaging

/// libFuzzer entry point: a view, a region and converter options derived from the bytes (`FuzzInput`),
/// then `ImageView(pixels:...)` (the checked initializer) over a buffer of exactly the derived size and
/// `ImageToTensor.convert` into an output of exactly the derived size, so that AddressSanitizer reports any
/// read or write outside them. Every outcome must be an `ImagingError` or a tensor whose values lie in the
/// options' range.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(UnsafeBufferPointer(start: data, count: size))

    // The view: its geometry may be anything; the buffer is at most 256 KiB.
    let width = input.dimension(), height = input.dimension(), bytesPerRow = input.dimension()
    let format = PixelFormat.allCases[Int(input.byte()) % PixelFormat.allCases.count]
    let orientation = ImageOrientation.allCases[Int(input.byte()) % ImageOrientation.allCases.count]
    let bufferBytes = input.uint16() * (1 + Int(input.byte() & 3))

    // The converter: sides 0...255 (0 is refused; 255 stands for one past `maximumSide`).
    let side = { (b: UInt8) -> Int in b == 255 ? ImageToTensor.maximumSide + 1 : Int(b) }
    let tensorWidth = side(input.byte()), tensorHeight = side(input.byte())
    let low = input.float(), high = input.float()
    let flags = input.byte()
    let fit = ImageToTensor.Fit.allCases[Int(flags & 1)]
    let border = ImageToTensor.Border.allCases[Int(flags >> 1 & 1)]
    let sampling = ImageToTensor.Sampling.allCases[Int(flags >> 2 & 1)]
    let shortOutput = flags >> 3 & 1 == 1

    // The region: none (the whole image) or any centre, size and rotation.
    let region: RotatedRect? = flags >> 4 & 1 == 1 ? nil : RotatedRect(
        center: Point(x: input.coordinate(), y: input.coordinate()),
        width: input.coordinate(), height: input.coordinate(), rotation: input.coordinate())

    let pixels = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferBytes, alignment: 1)
    defer { pixels.deallocate() }
    let source = input.remaining
    for i in 0..<bufferBytes { pixels[i] = source.isEmpty ? UInt8(truncatingIfNeeded: i) : source[i % source.count] }

    guard low <= high else { return 0 }   // A ClosedRange cannot hold it; the options could not be built.
    let converter: ImageToTensor
    do {
        converter = try ImageToTensor(options: .init(width: tensorWidth, height: tensorHeight, range: low...high,
                                                     fit: fit, border: border, sampling: sampling))
    } catch { return 0 }
    let view: ImageView
    do {
        view = try ImageView(pixels: UnsafeRawBufferPointer(pixels), width: width, height: height,
                             bytesPerRow: bytesPerRow, pixelFormat: format, orientation: orientation)
    } catch { return 0 }

    let floatCount = converter.floatCount - (shortOutput ? 1 : 0)
    let output = UnsafeMutableBufferPointer<Float>.allocate(capacity: floatCount)
    defer { output.deallocate() }
    output.initialize(repeating: .nan)
    let footprint: RotatedRect
    do { footprint = try converter.convert(view, region: region, into: output) } catch { return 0 }

    precondition(!shortOutput, "convert accepted an output one float too short")
    precondition(footprint.isValid, "convert returned an invalid footprint \(footprint)")
    // Pixel values 0...255 map onto low...high; allow the rounding of `value * (high - low) / 255 + low`.
    let slack = (high - low).isFinite ? max(abs(low), abs(high)) * 1e-5 : .infinity
    for value in output {
        precondition(value >= low - slack && value <= high + slack,
                     "convert wrote \(value) outside \(low)...\(high)")
    }
    return 0
}
