import Foundation

/// A certificate chain that passed ``CertificateChainVerifier``, and the seconds in which it stays valid.
struct VerifiedChain: Sendable {
    /// The chain, leaf first, root last.
    var certificates: [X509Certificate]
    /// The first second (since 1970) at which every certificate of the chain is valid.
    var validFrom: Int64
    /// The last second at which every certificate of the chain is valid.
    var validUntil: Int64

    /// Wraps a chain and works out the interval in which all its certificates are valid.
    init(_ certificates: [X509Certificate]) {
        self.certificates = certificates
        self.validFrom = certificates.map { Int64($0.notBefore.timeIntervalSince1970) }.max() ?? 0
        self.validUntil = certificates.map { Int64($0.notAfter.timeIntervalSince1970) }.min() ?? 0
    }

    /// Whether every certificate of the chain is valid at `seconds` since 1970.
    func isValid(at seconds: Int64) -> Bool {
        validFrom <= seconds && seconds <= validUntil
    }
}
