import Synchronization

/// Chains that passed verification, keyed by the bytes of a JWS's leaf certificate, so that the next JWS from the
/// same signer skips certificate decoding and chain building.
///
/// An entry also remembers the other `x5c` certificates' bytes (a JWS whose chain differs in any byte is verified
/// in full) and the interval in which every certificate of its chain is valid; a JWS verified at an instant outside
/// it goes through full verification again, and gets the precise error.
final class JWSChainCache: Sendable {
    /// One verified chain.
    struct Entry: Sendable {
        /// The DER bytes of `x5c[0]`.
        var leafBytes: [UInt8]
        /// The DER bytes of the other `x5c` entries, in order.
        var otherBytes: [[UInt8]]
        /// The decoded leaf.
        var leaf: X509Certificate
        /// The verified chain, leaf first.
        var chain: [X509Certificate]
        /// The first second (since 1970) at which every certificate of the chain is valid.
        var validFrom: Int64
        /// The last second at which every certificate of the chain is valid.
        var validUntil: Int64
        /// Whether the chain is one Xcode-style self-signed trusted certificate.
        var isXcodeStyle: Bool
        /// Whether the chain passed OpenSSL's strict X.509 rules.
        var strict: Bool
    }

    /// How many chains are kept; the oldest goes first.
    static let capacity = 64

    private let entries = Mutex<[Entry]>([])

    /// The entry for this leaf and these other certificates, if any.
    func lookup(leaf: [UInt8], others: [[UInt8]]) -> Entry? {
        entries.withLock { entries in
            entries.first { $0.leafBytes == leaf && $0.otherBytes == others }
        }
    }

    /// Remembers a verified chain.
    func insert(_ entry: Entry) {
        entries.withLock { entries in
            entries.removeAll { $0.leafBytes == entry.leafBytes && $0.otherBytes == entry.otherBytes }
            if entries.count >= Self.capacity { entries.removeFirst() }
            entries.append(entry)
        }
    }

    /// The number of chains held.
    var count: Int {
        entries.withLock { $0.count }
    }
}
