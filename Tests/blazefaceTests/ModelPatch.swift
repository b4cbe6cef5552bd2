/// Rewrites the operator code of a `.tflite` file's operators in place, to make a valid model that uses an
/// operator the interpreter does not support.
enum ModelPatch {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Changes every operator code equal to `from` into `to` (both fields: the 8-bit
    /// `deprecated_builtin_code` and, when stored, the 32-bit `builtin_code`). Both codes must be below 128.
    static func replaceOperatorCode(in bytes: inout [UInt8], from: Int, to: Int) throws {
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        func i32(_ at: Int) -> Int { Int(Int32(truncatingIfNeeded: u32(at))) }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        /// The absolute position of field `id` of the table at `table`, or nil when the field is absent.
        func field(_ table: Int, _ id: Int) -> Int? {
            let vtable = table - i32(table)
            let slot = 4 + 2 * id
            guard slot < u16(vtable) else { return nil }
            let offset = u16(vtable + slot)
            return offset == 0 ? nil : table + offset
        }
        let root = u32(0)
        guard let codesField = field(root, 1) else { throw Failure(description: "no operator_codes") }
        let vector = codesField + u32(codesField)
        var replaced = 0
        for i in 0..<u32(vector) {
            let element = vector + 4 + 4 * i
            let table = element + u32(element)
            guard let deprecated = field(table, 0), Int(bytes[deprecated]) == from else { continue }
            bytes[deprecated] = UInt8(to)
            if let code = field(table, 3) {
                for k in 0..<4 { bytes[code + k] = UInt8(truncatingIfNeeded: to >> (8 * k)) }
            }
            replaced += 1
        }
        guard replaced > 0 else { throw Failure(description: "no operator code \(from) stored in the file") }
    }
}
