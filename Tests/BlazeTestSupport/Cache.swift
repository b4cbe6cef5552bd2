import Foundation

/// A lock-protected memo table (tests run in parallel). Each key is computed once; callers asking for a
/// key being computed wait for it, callers of other keys do not. A failure is remembered like a value.
public final class Cache<Key: Hashable, Value>: @unchecked Sendable {
    private final class Slot {
        let lock = NSLock()
        var result: Result<Value, any Error>?
    }
    private let lock = NSLock()
    private var slots: [Key: Slot] = [:]

    public init() {}

    /// The value for `key`, made by `make` the first time.
    public func value(_ key: Key, _ make: () throws -> Value) throws -> Value {
        lock.lock()
        let slot: Slot
        if let existing = slots[key] {
            slot = existing
        } else {
            slot = Slot()
            slots[key] = slot
        }
        lock.unlock()
        slot.lock.lock()
        defer { slot.lock.unlock() }
        if let result = slot.result { return try result.get() }
        let result = Result { try make() }
        slot.result = result
        return try result.get()
    }
}
