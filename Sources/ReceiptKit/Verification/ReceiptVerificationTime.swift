public import Foundation

/// The instant at which a receipt's certificate chain must be valid.
public enum ReceiptVerificationTime: Sendable, Hashable {
    /// The receipt's own creation date (attribute 12), as Apple's verifiers do. Every stored receipt eventually
    /// outlives its signing certificate; at its creation date it stays verifiable. The date is read from the payload
    /// only after the payload's signature has been checked.
    case creationDate
    /// The current wall-clock time, read when ``ReceiptVerifier/verify(_:options:)`` runs.
    case now
    /// A fixed instant.
    case date(Date)
}
