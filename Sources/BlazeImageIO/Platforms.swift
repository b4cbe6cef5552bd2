// BlazeImageIO decodes and writes files through libjpeg-turbo, libpng, libwebp, libtiff, giflib and FFmpeg, system libraries that Linux
// distributions and Homebrew provide and iOS, tvOS and visionOS do not (Package.swift drops the C codec target
// there). Apps on those platforms decode pictures with the platform's own APIs (ImageIO's CGImageSource,
// UIImage) and hand their pixels to the detectors as an ImageView.
#if !os(Linux) && !os(macOS)
#error("BlazeImageIO is for Linux and macOS only: on this platform decode images with ImageIO (CGImageSource) or UIKit and pass their pixels as an ImageView")
#endif
