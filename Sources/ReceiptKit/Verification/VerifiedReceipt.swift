public import Foundation

/// A receipt whose signature, chain and requested checks passed.
public struct VerifiedReceipt: Sendable, Hashable {
    /// The receipt's contents.
    public let receipt: AppReceipt
    /// The digest algorithm of the signature.
    public let digestAlgorithm: ReceiptDigestAlgorithm
    /// The instant at which the chain was found valid.
    public let verificationDate: Date
    /// Whether the receipt was signed Xcode-style, by a self-signed trusted certificate.
    public let isXcodeReceipt: Bool
    /// The verified chain: the signing certificate first, the trusted root last.
    public let certificateChain: [X509Certificate]
}
