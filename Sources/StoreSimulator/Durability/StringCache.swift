import Foundation

/// Strings read from a state file, kept so that an equal one read again is shared instead of allocated again: a store
/// of a million records names a handful of products and a few thousand accounts.
///
/// A fixed table of 256 entries found by a hash of the bytes; a newer string replaces an older one in its entry. Strings
/// of up to 15 UTF-8 bytes are stored inline by Swift and never allocated, so they are not kept.
struct StringCache {
    private var entries = [String?](repeating: nil, count: 256)

    /// The kept string with exactly these UTF-8 bytes, if any.
    mutating func string(equalTo utf8: UnsafeBufferPointer<UInt8>) -> String? {
        guard utf8.count > 15 else { return nil }
        guard var kept = entries[Self.slot(utf8)] else { return nil }
        let equal = kept.withUTF8 { stored in
            stored.count == utf8.count
                && (stored.count == 0 || memcmp(stored.baseAddress!, utf8.baseAddress!, utf8.count) == 0)
        }
        return equal ? kept : nil
    }

    /// Keeps `text`, whose UTF-8 bytes are `utf8`.
    mutating func remember(_ text: String, _ utf8: UnsafeBufferPointer<UInt8>) {
        guard utf8.count > 15 else { return }
        entries[Self.slot(utf8)] = text
    }

    /// FNV-1a of the bytes, folded to a table index.
    private static func slot(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int((hash ^ (hash >> 16)) & 255)
    }
}
