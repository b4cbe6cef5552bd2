#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's resident memory now, in bytes.
///
/// On Linux, the second field of `/proc/self/statm` (resident pages) times the page size: the current value,
/// which can go down as well as up. Elsewhere, `getrusage`'s `ru_maxrss`, the peak so far (a curve that can
/// only rise, still flat when nothing leaks).
enum ResidentMemory {
    /// Whether `current()` reads the current value (true) or the peak (false).
    static var isCurrent: Bool {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }

    static func current() -> Int {
        #if os(Linux)
        if let pages = statmResidentPages() { return pages * Int(sysconf(Int32(_SC_PAGESIZE))) }
        #endif
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)  // bytes on Darwin
        #endif
    }

    #if os(Linux)
    /// Reads `/proc/self/statm` with plain system calls (no Foundation, no allocation beyond the stack).
    private static func statmResidentPages() -> Int? {
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // "size resident shared text lib data dt": the second number.
        let fields = buffer[0..<count].split(separator: UInt8(ascii: " "))
        guard fields.count >= 2 else { return nil }
        var value = 0
        for digit in fields[1] {
            guard (48...57).contains(digit) else { return nil }
            value = value * 10 + Int(digit - 48)
        }
        return value
    }
    #endif
}
