/// A compact JWS (`base64url(header).base64url(payload).base64url(signature)`), split and decoded but not verified.
///
/// Decoding checks the form only: three segments of base64url, a header and a payload that are JSON objects, and a
/// signature of 64 bytes. Nothing in it is trusted until ``JWSVerifier`` has checked it.
public struct CompactJWS: Sendable, Hashable {
    /// The longest input accepted, in bytes (1 MiB). App Store JWS are a few kilobytes; a notification carrying
    /// signed transactions, some tens.
    public static let maximumLength = 1 << 20

    /// The deepest nesting of JSON arrays and objects accepted in the header or payload.
    static let maximumDepth = 32

    /// The header, decoded from base64url: JSON text.
    public let headerJSON: [UInt8]
    /// The payload, decoded from base64url: JSON text.
    public let payloadJSON: [UInt8]
    /// The signature, decoded from base64url: R‖S, 64 bytes for ES256.
    public let signature: [UInt8]
    /// The header's `alg`, if it is a string.
    public let algorithm: String?
    /// The header's `kid`, if it is a string (Xcode signs with `Apple_Xcode_Key`).
    public let keyIdentifier: String?
    /// The header's `x5c`: base64 DER certificates, leaf first; nil when the header has no `x5c` array of strings.
    public let certificateChain: [String]?
    /// The bytes the signature covers: the first two segments and the dot between them, as ASCII.
    let signingInput: [UInt8]
    /// The payload's fields that verification reads.
    let fields: JWSPayloadFields

    /// Splits and decodes a compact JWS.
    ///
    /// - Parameter text: The JWS; surrounding whitespace (a trailing newline in a file) is ignored.
    /// - Throws: ``ReceiptError/Code/invalidJWS`` naming what is wrong.
    public init(_ text: String) throws(ReceiptError) {
        try self.init(bytes: Array(text.utf8))
    }

    /// Splits and decodes a compact JWS given as bytes (the contents of a `.jws` file).
    ///
    /// - Parameter bytes: The JWS as ASCII; surrounding whitespace is ignored.
    /// - Throws: ``ReceiptError/Code/invalidJWS`` naming what is wrong.
    public init(bytes: [UInt8]) throws(ReceiptError) {
        guard bytes.count <= Self.maximumLength else {
            throw ReceiptError(
                .invalidJWS, "the input is longer than \(Self.maximumLength) bytes, more than any JWS; it is refused")
        }
        var start = 0
        var end = bytes.count
        while start < end, Self.isWhitespace(bytes[start]) { start += 1 }
        while end > start, Self.isWhitespace(bytes[end - 1]) { end -= 1 }
        guard start < end else { throw ReceiptError(.invalidJWS, "the input is empty, not a JWS") }
        var dots: [Int] = []
        for index in start..<end where bytes[index] == UInt8(ascii: ".") {
            dots.append(index)
            if dots.count > 2 { break }
        }
        guard dots.count == 2 else {
            throw ReceiptError(
                .invalidJWS,
                "a compact JWS has three segments separated by dots (header.payload.signature); this input has "
                    + (dots.count > 2 ? "more than three" : "\(dots.count + 1)"))
        }
        let segments = [start..<dots[0], (dots[0] + 1)..<dots[1], (dots[1] + 1)..<end]
        let names = ["header", "payload", "signature"]
        var decoded: [[UInt8]] = []
        for (index, range) in segments.enumerated() {
            let value = bytes.withUnsafeBytes { Base64URL.decode(UnsafeRawBufferPointer(rebasing: $0[range])) }
            guard let value, !value.isEmpty else {
                throw ReceiptError(
                    .invalidJWS, "the \(names[index]) segment is " + (range.isEmpty ? "empty" : "not base64url"),
                    offset: range.lowerBound)
            }
            decoded.append(value)
        }
        guard decoded[2].count == 2 * ECDSASignature.coordinateSize else {
            throw ReceiptError(
                .invalidJWS,
                "the signature is \(decoded[2].count) bytes; an ES256 signature is 64 (R and S, 32 bytes each)",
                offset: segments[2].lowerBound)
        }
        let header = try Self.object(decoded[0], "header")
        let payload = try Self.object(decoded[1], "payload")
        headerJSON = decoded[0]
        payloadJSON = decoded[1]
        signature = decoded[2]
        algorithm = header["alg"]?.string
        keyIdentifier = header["kid"]?.string
        if case .array(let chain)? = header["x5c"] {
            let strings = chain.compactMap(\.string)
            certificateChain = strings.count == chain.count ? strings : nil
        } else {
            certificateChain = nil
        }
        signingInput = Array(bytes[start..<dots[1]])
        fields = JWSPayloadFields(payload)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Parses JSON text that must be an object.
    static func object(_ json: [UInt8], _ name: String) throws(ReceiptError) -> JSONTree {
        let value: JSONTree
        switch JSONTree.parse(json, maximumDepth: maximumDepth) {
        case .success(let parsed):
            value = parsed
        case .failure(.duplicateKey(let key)):
            let shown = key.count > 64 ? String(key.prefix(64)) + "..." : key
            throw ReceiptError(
                .invalidJWS,
                "the \(name) names the key \(shown.debugDescription) twice in one object; a JWS must name each key once"
            )
        case .failure(.invalid):
            throw ReceiptError(
                .invalidJWS,
                "the \(name) is not JSON (or nests arrays and objects deeper than \(maximumDepth) levels)")
        }
        guard case .object = value else { throw ReceiptError(.invalidJWS, "the \(name) is not a JSON object") }
        return value
    }

    /// Equal when the header, payload and signature are.
    public static func == (lhs: CompactJWS, rhs: CompactJWS) -> Bool {
        lhs.headerJSON == rhs.headerJSON && lhs.payloadJSON == rhs.payloadJSON && lhs.signature == rhs.signature
    }

    /// Hashes the header, payload and signature.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(headerJSON)
        hasher.combine(payloadJSON)
        hasher.combine(signature)
    }
}
