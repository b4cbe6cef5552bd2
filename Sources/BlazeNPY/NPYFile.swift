import BlazeFiles

/// Reading a `.npy` file whose name came from a user: it may be a FIFO, a link to `/dev/zero`, or larger
/// than the memory the caller allows.
enum NPYFile {
    /// The bytes of the regular file at `path` (`RegularFile`: opened non-blocking, refused unless it is a
    /// regular file after links are followed, its size checked against `maximumBytes` before allocating).
    static func contents(of path: String, maximumBytes: Int) throws(NPYError) -> [UInt8] {
        do {
            return try RegularFile.bytes(of: path, limit: maximumBytes)
        } catch {
            throw .cannotRead(path: path, reason: error.reason)
        }
    }
}
