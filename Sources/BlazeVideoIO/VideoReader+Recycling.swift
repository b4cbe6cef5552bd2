extension VideoReader {
    /// Decodes the next frame into `frame`, reusing its image's pixel storage: no allocation and no copy of the
    /// picture when that storage has the frame's size and nobody else holds it (otherwise it is allocated, or
    /// copied on write, as needed). A caller that keeps a few `VideoFrame`s and passes them back in turn
    /// (`FramePrefetcher` does) reads a stream without allocating pixels.
    ///
    /// On success `frame` holds the pixels (in `options.pixelFormat`, with `info.orientation`), the time and the
    /// index, as `nextFrame()` would return them, and the reader's own buffer is left untouched.
    /// - Parameter frame: a frame to decode into, from an earlier call or a new one; its storage is reused.
    /// - Returns: false after the last frame (`frame`'s contents are then unspecified).
    /// - Throws: as `nextFrame()` (`frame`'s contents are then unspecified).
    public func nextFrame(into frame: inout VideoFrame) throws(VideoIOError) -> Bool {
        frame.image.pixelFormat = options.pixelFormat
        frame.image.orientation = info.orientation
        swap(&buffer, &frame.image)
        defer { swap(&buffer, &frame.image) }
        guard let (time, hasTime, index) = try decodeNext() else { return false }
        frame.time = time
        frame.hasContainerTime = hasTime
        frame.index = index
        return true
    }
}
