import Foundation

/// Appends the values of a journal entry to a byte buffer, in the journal's binary format (docs/durable-state.md):
/// fixed-width little-endian integers and doubles, length-prefixed UTF-8 strings, one byte for booleans and for the
/// presence of optionals.
struct JournalWriter {
    /// The bytes written so far.
    var bytes: [UInt8] = []

    /// Empties the buffer, keeping its storage.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func bool(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func uint64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func int64(_ value: Int64) {
        uint64(UInt64(bitPattern: value))
    }

    mutating func int(_ value: Int) {
        int64(Int64(value))
    }

    mutating func double(_ value: Double) {
        uint64(value.bitPattern)
    }

    mutating func date(_ value: Date) {
        double(value.timeIntervalSinceReferenceDate)
    }

    /// A length (UInt32) and the UTF-8 bytes.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            length(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func optionalString(_ value: String?) {
        guard let value else { return byte(0) }
        byte(1)
        string(value)
    }

    /// A length (UInt32) and the bytes.
    mutating func blob(_ value: [UInt8]) {
        length(value.count)
        bytes.append(contentsOf: value)
    }

    private mutating func length(_ count: Int) {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: count).littleEndian) { bytes.append(contentsOf: $0) }
    }
}
