/// Base64 in the two alphabets JWS uses: base64url without padding for the segments (RFC 7515 §2), standard base64
/// for the `x5c` certificates (RFC 7515 §4.1.6).
enum Base64URL {
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardAlphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The value of each byte in base64url (255: not in the alphabet).
    private static let urlValues: [UInt8] = values(of: urlAlphabet)
    /// The value of each byte in standard base64 (255: not in the alphabet).
    private static let standardValues: [UInt8] = values(of: standardAlphabet)

    private static func values(of alphabet: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }

    /// Encodes bytes as base64url without padding.
    static func encode(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: urlAlphabet, padded: false)
    }

    /// Encodes bytes as standard base64 with padding.
    static func encodeStandard(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: standardAlphabet, padded: true)
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            output.append(alphabet[Int(value >> 6 & 63)])
            output.append(alphabet[Int(value & 63)])
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            var value = UInt32(bytes[index]) << 16
            if rest == 2 { value |= UInt32(bytes[index + 1]) << 8 }
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            if rest == 2 { output.append(alphabet[Int(value >> 6 & 63)]) }
            if padded { output.append(contentsOf: rest == 2 ? [61] : [61, 61]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64url without padding (as JWS segments are); nil if any byte is outside the alphabet or the
    /// length is impossible.
    static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        decode(text, values: urlValues, allowsPadding: false)
    }

    /// Decodes standard base64, padding optional; nil if it is not base64.
    static func decodeStandard(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(UnsafeRawBufferPointer($0), values: standardValues, allowsPadding: true) }
    }

    private static func decode(_ text: UnsafeRawBufferPointer, values: [UInt8], allowsPadding: Bool) -> [UInt8]? {
        var count = text.count
        if allowsPadding {
            if count % 4 != 0 { return nil }
            if count > 0 && text[count - 1] == 61 { count -= 1 }
            if count > 0 && text[count - 1] == 61 { count -= 1 }
        }
        if count % 4 == 1 { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(count / 4 * 3 + 2)
        var accumulator: UInt32 = 0
        var bits = 0
        for index in 0..<count {
            let value = values[Int(text[index])]
            if value == 255 { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // The unused low bits of the last character must be zero (canonical encoding).
        if bits > 0 && accumulator & ((1 << UInt32(bits)) - 1) != 0 { return nil }
        return output
    }
}
