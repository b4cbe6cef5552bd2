// BlazeVideoIO reads and writes video files through FFmpeg's libraries, which Linux distributions and
// Homebrew provide and iOS, tvOS and visionOS do not (Package.swift drops the C codec target there). Apps on
// those platforms read frames with AVFoundation (AVAssetReader, AVCaptureVideoDataOutput) and hand their
// pixel buffers to the detectors as an ImageView.
#if !os(Linux) && !os(macOS)
#error("BlazeVideoIO is for Linux and macOS only: on this platform read frames with AVFoundation and pass their pixels as an ImageView")
#endif
