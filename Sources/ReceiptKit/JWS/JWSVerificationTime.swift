public import Foundation

/// The instant at which a JWS's certificate chain must be valid.
public enum JWSVerificationTime: Sendable, Hashable {
    /// The payload's `signedDate` (an app transaction's `receiptCreationDate`), milliseconds truncated to seconds,
    /// as Apple's server libraries do offline; the current time when the payload has neither. The date is read only
    /// after the signature has been checked.
    case signedDate
    /// The current wall-clock time, read when ``JWSVerifier/verify(_:options:)-(String,_)`` runs.
    case now
    /// A fixed instant.
    case date(Date)
}
