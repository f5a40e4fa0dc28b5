import Foundation
import Synchronization

/// Chains that passed verification, keyed by the exact bytes of a receipt's certificates, so that the next receipt
/// from the same signer skips certificate decoding and chain building.
///
/// An entry remembers the interval in which every certificate of its chain is valid; a receipt verified at an
/// instant outside it goes through full verification again (and gets the precise error).
final class ChainCache: Sendable {
    /// One verified chain.
    struct Entry: Sendable {
        /// The bytes of the receipt's certificates field (all certificates, back to back).
        var certificateSet: [UInt8]
        /// Which embedded certificate signs.
        var signerIndex: Int
        /// The embedded certificates, decoded, in receipt order.
        var certificates: [X509Certificate]
        /// The verified chain, signer first.
        var chain: [X509Certificate]
        /// The first second (since 1970) at which every certificate of the chain is valid.
        var validFrom: Int64
        /// The last second at which every certificate of the chain is valid.
        var validUntil: Int64
        /// Whether the chain is an Xcode-style self-signed trusted certificate.
        var isXcodeStyle: Bool
    }

    /// How many chains are kept; the oldest goes first.
    static let capacity = 64

    private let entries = Mutex<[Entry]>([])

    /// The entry for these certificate bytes and signer, if any.
    func lookup(_ certificateSet: UnsafeRawBufferPointer, signerIndex: Int) -> Entry? {
        entries.withLock { entries in
            for entry in entries
            where entry.signerIndex == signerIndex && entry.certificateSet.count == certificateSet.count {
                let equal = entry.certificateSet.withUnsafeBytes { stored in
                    stored.count == 0 || memcmp(stored.baseAddress!, certificateSet.baseAddress!, stored.count) == 0
                }
                if equal { return entry }
            }
            return nil
        }
    }

    /// Remembers a verified chain.
    func insert(_ entry: Entry) {
        entries.withLock { entries in
            entries.removeAll { $0.signerIndex == entry.signerIndex && $0.certificateSet == entry.certificateSet }
            if entries.count >= Self.capacity { entries.removeFirst() }
            entries.append(entry)
        }
    }

    /// The number of chains held.
    var count: Int {
        entries.withLock { $0.count }
    }
}
