import ReceiptKit

/// The JWS a store signed, by what they sign, with the payload each was signed from without its signing date, so
/// that a payload is signed again only after it changed.
struct JWSCache: Sendable {
    /// One signed payload.
    struct Entry<Payload: Sendable & Hashable>: Sendable {
        /// The payload without its signing date.
        var unsigned: Payload
        /// The honest JWS and the payload with its signing date.
        var signed: StoreSignedValue<Payload>
    }

    /// Signed transactions by transaction identifier.
    var transactions: [UInt64: Entry<JWSTransaction>] = [:]
    /// Signed renewal info by original transaction identifier.
    var renewals: [UInt64: Entry<JWSRenewalInfo>] = [:]
    /// Signed app transactions by account.
    var apps: [String: Entry<JWSAppTransaction>] = [:]
}
