/// The one error type of ReceiptKit.
///
/// Every failure carries a ``Code`` whose `rawValue` is stable across releases (numbers are never reused), a
/// human-readable ``detail`` that is not stable, and, where it applies, the byte ``offset`` in the input and the
/// ``file`` the input came from. Two errors compare equal when their codes are equal, so tests and callers can write
/// `#expect(throws: ReceiptError(.certificateExpired)) { ... }` or `catch let error where error.code == .signatureInvalid`.
public struct ReceiptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable error code. Compare with the static members, or log ``rawValue``.
    public struct Code: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
        /// The stable number of this code.
        public let rawValue: Int

        /// Creates a code from its stable number.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        // MARK: ASN.1 (1...99)

        /// The input ends before an element, a length or an end-of-contents marker does.
        public static let truncated = Code(rawValue: 1)
        /// Bytes follow the last element where the input should end.
        public static let trailingBytes = Code(rawValue: 2)
        /// Elements are nested deeper than ``ASN1EncodingRules/maximumDepth``.
        public static let nestingTooDeep = Code(rawValue: 3)
        /// A length is malformed: reserved, too large, not minimal in DER, or indefinite where not allowed.
        public static let invalidLength = Code(rawValue: 4)
        /// A tag is malformed, or an end-of-contents marker appears where no indefinite length is open.
        public static let invalidTag = Code(rawValue: 5)
        /// An element has a different tag than the structure requires, or a required element is missing.
        public static let unexpectedElement = Code(rawValue: 6)
        /// An INTEGER is empty, not minimally encoded in DER, or does not fit in 64 bits.
        public static let invalidInteger = Code(rawValue: 7)
        /// A string is not valid for its type (for example, invalid UTF-8).
        public static let invalidString = Code(rawValue: 8)
        /// A date is not an RFC 3339 timestamp of a form seen in receipts.
        public static let invalidDate = Code(rawValue: 9)
        /// An element's length runs past the end of the element that contains it, though the input goes on.
        public static let lengthExceedsParent = Code(rawValue: 10)

        // MARK: Receipt container and payload (100...199)

        /// The input is not a PKCS#7 receipt at all (for example, an iOS 6 style property list).
        public static let notPKCS7 = Code(rawValue: 100)
        /// The input is PKCS#7, but not SignedData over `data` content.
        public static let unsupportedContentType = Code(rawValue: 101)
        /// The SignedData carries no payload (detached signature).
        public static let missingPayload = Code(rawValue: 102)
        /// The SignedData is well-formed ASN.1 but breaks PKCS#7 rules (for example, no signer or several signers).
        public static let invalidSignedData = Code(rawValue: 103)
        /// A required payload attribute (for example, 2 bundle id or 12 creation date) is missing.
        public static let missingAttribute = Code(rawValue: 110)
        /// A documented payload attribute appears more than once.
        public static let duplicateAttribute = Code(rawValue: 111)

        // MARK: Signature (200...299)

        /// No embedded certificate matches the signer's issuer and serial number.
        public static let signerNotFound = Code(rawValue: 200)
        /// The signature over the payload does not verify with the signer's key.
        public static let signatureInvalid = Code(rawValue: 201)
        /// The digest or signature algorithm is not supported.
        public static let unsupportedAlgorithm = Code(rawValue: 202)
        /// An embedded certificate cannot be decoded.
        public static let certificateMalformed = Code(rawValue: 203)

        // MARK: Certificate chain (300...399)

        /// The signer's certificate does not chain to any trusted root.
        public static let chainNotTrusted = Code(rawValue: 300)
        /// A certificate in the chain had expired at the verification time.
        public static let certificateExpired = Code(rawValue: 301)
        /// A certificate in the chain was not yet valid at the verification time.
        public static let certificateNotYetValid = Code(rawValue: 302)
        /// A certificate's signature in the chain does not verify with its issuer's key.
        public static let certificateSignatureInvalid = Code(rawValue: 303)
        /// A certificate in the chain may not be used for signing receipts (key usage, extended key usage).
        public static let certificatePurposeInvalid = Code(rawValue: 304)
        /// The chain fails verification for another reason; ``ReceiptError/detail`` names it.
        public static let chainInvalid = Code(rawValue: 305)
        /// The signing certificate lacks the receipt-signing marker extension 1.2.840.113635.100.6.11.1.
        public static let missingReceiptSigningMarker = Code(rawValue: 306)
        /// The intermediate certificate lacks the marker extension 1.2.840.113635.100.6.2.1.
        public static let missingIntermediateMarker = Code(rawValue: 307)
        /// The verified chain is not leaf, intermediate, root.
        public static let unexpectedChainLength = Code(rawValue: 308)
        /// The receipt is signed by a self-signed (Xcode-style) certificate, and Xcode receipts were not allowed.
        public static let xcodeReceiptNotAllowed = Code(rawValue: 309)
        /// The receipt carries a certificate that is not part of the verified chain.
        public static let extraneousCertificate = Code(rawValue: 310)

        // MARK: Application checks (400...499)

        /// The receipt's bundle identifier is not the expected one.
        public static let bundleIdentifierMismatch = Code(rawValue: 400)
        /// The receipt's application version is not the expected one.
        public static let applicationVersionMismatch = Code(rawValue: 401)
        /// The receipt's SHA-1 hash does not match the given device identifier.
        public static let deviceHashMismatch = Code(rawValue: 402)
        /// A device identifier is neither a 16-byte UUID nor a 6-byte MAC address.
        public static let invalidDeviceIdentifier = Code(rawValue: 403)
        /// Signed data (a JWS) is for another environment than the expected one (`Sandbox`, `Production`, `Xcode`,
        /// `LocalTesting`), or names none.
        public static let environmentMismatch = Code(rawValue: 404)

        // MARK: Files and keys (500...599)

        /// A file cannot be read.
        public static let fileUnreadable = Code(rawValue: 500)
        /// A receipt file is neither DER nor base64.
        public static let invalidEncoding = Code(rawValue: 501)
        /// A certificate is neither DER nor PEM, or cannot be decoded.
        public static let certificateUnreadable = Code(rawValue: 502)
        /// A private key cannot be decoded.
        public static let privateKeyUnreadable = Code(rawValue: 503)
        /// A signing identity is inconsistent (no certificate, or the key does not match the leaf).
        public static let invalidSigningIdentity = Code(rawValue: 504)
        /// A public key cannot be decoded, or is not of the kind required (a P-256 key for promotional offers).
        public static let publicKeyUnreadable = Code(rawValue: 505)

        // MARK: JWS (600...699)

        /// The input is not a compact JWS: not three dot-separated base64url segments, a header or payload that is not
        /// a JSON object, a signature of the wrong size, or more than ``CompactJWS/maximumLength`` bytes.
        public static let invalidJWS = Code(rawValue: 600)
        /// The JWS header has no `x5c` certificate chain (or one that is not an array of base64 strings).
        public static let missingCertificateChain = Code(rawValue: 601)
        /// The JWS is signed Xcode-style (one self-signed certificate in `x5c`), and Xcode-signed data was not
        /// allowed.
        public static let xcodeJWSNotAllowed = Code(rawValue: 602)
        /// A signed request (``SignedOfferRequest``) lacks a claim its audience requires.
        public static let missingClaim = Code(rawValue: 603)
        /// A signed request's `iat` is older than ``SignedOfferRequestVerifier/maximumAge`` or further ahead of the
        /// verifier's clock than ``SignedOfferRequestVerifier/allowedSkew``.
        public static let requestExpired = Code(rawValue: 604)

        // MARK: Internal (900...)

        /// OpenSSL failed where it should not have; ``ReceiptError/detail`` holds its error queue.
        public static let openSSLFailure = Code(rawValue: 900)

        private static let names: [Int: String] = [
            1: "truncated", 2: "trailingBytes", 3: "nestingTooDeep", 4: "invalidLength", 5: "invalidTag",
            6: "unexpectedElement", 7: "invalidInteger", 8: "invalidString", 9: "invalidDate",
            10: "lengthExceedsParent",
            100: "notPKCS7", 101: "unsupportedContentType", 102: "missingPayload", 103: "invalidSignedData",
            110: "missingAttribute", 111: "duplicateAttribute",
            200: "signerNotFound", 201: "signatureInvalid", 202: "unsupportedAlgorithm", 203: "certificateMalformed",
            300: "chainNotTrusted", 301: "certificateExpired", 302: "certificateNotYetValid",
            303: "certificateSignatureInvalid", 304: "certificatePurposeInvalid", 305: "chainInvalid",
            306: "missingReceiptSigningMarker", 307: "missingIntermediateMarker", 308: "unexpectedChainLength",
            309: "xcodeReceiptNotAllowed", 310: "extraneousCertificate",
            400: "bundleIdentifierMismatch", 401: "applicationVersionMismatch", 402: "deviceHashMismatch",
            403: "invalidDeviceIdentifier", 404: "environmentMismatch",
            500: "fileUnreadable", 501: "invalidEncoding", 502: "certificateUnreadable", 503: "privateKeyUnreadable",
            504: "invalidSigningIdentity", 505: "publicKeyUnreadable",
            600: "invalidJWS", 601: "missingCertificateChain", 602: "xcodeJWSNotAllowed", 603: "missingClaim",
            604: "requestExpired",
            900: "openSSLFailure",
        ]

        /// Every code ReceiptKit defines, in numeric order.
        public static var allCodes: [Code] {
            names.keys.sorted().map { Code(rawValue: $0) }
        }

        /// The code's symbolic name, for example `certificateExpired`.
        public var name: String {
            Self.names[rawValue] ?? "code\(rawValue)"
        }

        /// The symbolic name and number, for example `certificateExpired (301)`.
        public var description: String {
            "\(name) (\(rawValue))"
        }
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// A human-readable explanation. Not stable: do not match on it.
    public let detail: String
    /// The byte offset in the input where the problem was found, when it has one.
    public let offset: Int?
    /// The file the input came from, when it came from a file.
    public let file: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The stable code.
    ///   - detail: A human-readable explanation.
    ///   - offset: The byte offset in the input, if any.
    ///   - file: The file the input came from, if any.
    public init(_ code: Code, _ detail: String = "", offset: Int? = nil, file: String? = nil) {
        self.code = code
        self.detail = detail
        self.offset = offset
        self.file = file
    }

    /// A one-line message for people: the detail, the offset and the file.
    public var message: String {
        var text = detail.isEmpty ? code.name : detail
        if let offset { text += " (at byte offset \(offset))" }
        if let file { text += " in \(file)" }
        return text
    }

    /// The code and the message.
    public var description: String {
        "ReceiptError.\(code.name) (\(code.rawValue)): \(message)"
    }

    /// The same error, attributed to a file.
    ///
    /// - Parameter file: The path of the file the input came from.
    /// - Returns: A copy of this error whose ``file`` is `file`.
    public func inFile(_ file: String) -> ReceiptError {
        ReceiptError(code, detail, offset: offset, file: file)
    }

    /// Errors are equal when their codes are equal.
    public static func == (lhs: ReceiptError, rhs: ReceiptError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}
