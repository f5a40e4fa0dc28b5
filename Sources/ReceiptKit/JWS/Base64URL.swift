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

    /// Encodes bytes as base64url without padding, as ASCII bytes appended to `output`.
    static func append(_ bytes: [UInt8], to output: inout [UInt8]) {
        output += encodeBytes(bytes, alphabet: urlAlphabet, padded: false)
    }

    /// Encodes bytes as standard base64 with padding.
    static func encodeStandard(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: standardAlphabet, padded: true)
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> String {
        String(decoding: encodeBytes(bytes, alphabet: alphabet, padded: padded), as: UTF8.self)
    }

    private static func encodeBytes(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> [UInt8] {
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
        return output
    }

    /// Decodes base64url without padding (as JWS segments are); nil if any byte is outside the alphabet or the
    /// length is impossible.
    static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        decode(text, values: urlValues, allowsPadding: false)
    }

    /// Decodes standard base64 with its padding (RFC 4648 §4, as `x5c` entries are written); nil if it is not base64
    /// or its length is not a multiple of 4.
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
        let whole = count / 4
        let rest = count % 4
        let outputCount = whole * 3 + (rest == 0 ? 0 : rest - 1)
        var valid = true
        let output = values.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: outputCount) { out, initialized in
                var input = 0
                var written = 0
                for _ in 0..<whole {
                    let a = table[Int(text[input])]
                    let b = table[Int(text[input + 1])]
                    let c = table[Int(text[input + 2])]
                    let d = table[Int(text[input + 3])]
                    if (a | b | c | d) & 0xC0 != 0 {
                        valid = false
                        break
                    }
                    let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out[written] = UInt8(truncatingIfNeeded: value >> 16)
                    out[written + 1] = UInt8(truncatingIfNeeded: value >> 8)
                    out[written + 2] = UInt8(truncatingIfNeeded: value)
                    input += 4
                    written += 3
                }
                if valid && rest > 0 {
                    var value: UInt32 = 0
                    for offset in 0..<rest {
                        let digit = table[Int(text[input + offset])]
                        if digit & 0xC0 != 0 { valid = false }
                        value = value << 6 | UInt32(digit & 0x3F)
                    }
                    // The unused low bits of the last character must be zero (canonical encoding).
                    if rest == 2 {
                        if value & 0x0F != 0 { valid = false }
                        out[written] = UInt8(truncatingIfNeeded: value >> 4)
                        written += 1
                    } else {
                        if value & 0x03 != 0 { valid = false }
                        out[written] = UInt8(truncatingIfNeeded: value >> 10)
                        out[written + 1] = UInt8(truncatingIfNeeded: value >> 2)
                        written += 2
                    }
                }
                if !valid {
                    for index in written..<outputCount { out[index] = 0 }
                }
                initialized = outputCount
            }
        }
        return valid ? output : nil
    }
}
