internal import COpenSSL

/// A digest algorithm a receipt signature can use. App Store receipts used SHA-1 until 2023 and SHA-256 since.
public enum ReceiptDigestAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// SHA-1 (receipts before mid-2023).
    case sha1
    /// SHA-256 (receipts since mid-2023; the default for issuing).
    case sha256
    /// SHA-384.
    case sha384
    /// SHA-512.
    case sha512

    /// The DER content octets of the algorithm's OBJECT IDENTIFIER.
    var oidContents: [UInt8] {
        switch self {
        case .sha1: return [0x2B, 0x0E, 0x03, 0x02, 0x1A]
        case .sha256: return [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
        case .sha384: return [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02]
        case .sha512: return [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03]
        }
    }

    /// The algorithm whose OID content octets fill `range` of a scanner's buffer, if supported.
    static func find(_ scanner: BERScanner, _ range: Range<Int>) -> ReceiptDigestAlgorithm? {
        for algorithm in allCases where scanner.equals(range, algorithm.oidContents) { return algorithm }
        return nil
    }

    /// OpenSSL's digest (a static object; never freed).
    var evpMD: OpaquePointer? {
        switch self {
        case .sha1: return EVP_sha1()
        case .sha256: return EVP_sha256()
        case .sha384: return EVP_sha384()
        case .sha512: return EVP_sha512()
        }
    }
}
