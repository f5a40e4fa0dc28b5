/// DER content octets of the OBJECT IDENTIFIERs a receipt container uses.
enum ObjectIdentifiers {
    /// 1.2.840.113549.1.7.2 signedData.
    static let signedData: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    /// 1.2.840.113549.1.7.1 data.
    static let data: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    /// 1.2.840.113549.1.9.3 contentType (signed attribute).
    static let contentType: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03]
    /// 1.2.840.113549.1.9.4 messageDigest (signed attribute).
    static let messageDigest: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x04]
    /// 1.2.840.113549.1.1.1 rsaEncryption, as Apple writes in SignerInfo.
    static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    /// The prefix 1.2.840.113549.1.1 of the RSA signature algorithms (sha1WithRSAEncryption is .5, sha256 .11, ...).
    static let pkcs1Prefix: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01]
    /// 1.2.840.10045.2.1 ecPublicKey.
    static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    /// The prefix 1.2.840.10045.4.3 of ecdsa-with-SHA2 algorithms.
    static let ecdsaPrefix: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03]

    /// The leaf marker extension of Apple's receipt-signing certificates.
    static let receiptSigningMarker = "1.2.840.113635.100.6.11.1"
    /// The marker extension of Apple's Worldwide Developer Relations intermediate.
    static let intermediateMarker = "1.2.840.113635.100.6.2.1"
}
