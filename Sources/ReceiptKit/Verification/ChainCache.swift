import Synchronization

/// Chains that passed verification, with what the verifier needs to recognise the signed data that brought them
/// (the exact bytes of its certificates) and the certificates it decoded, so that the next receipt or JWS from the
/// same signer skips certificate decoding and chain building.
///
/// Each verifier keeps entries of its own type and finds them with a predicate over the bytes; the cache only holds
/// them, under a lock, oldest first out. An entry's chain remembers the interval in which every certificate is valid;
/// a verification at an instant outside it goes through full verification again, and gets the precise error.
final class ChainCache<Entry: Sendable>: Sendable {
    /// How many chains are kept; the oldest goes first.
    static var capacity: Int { 64 }

    private let entries = Mutex<[Entry]>([])

    /// The first entry that `matches`, if any.
    func lookup(where matches: (Entry) -> Bool) -> Entry? {
        entries.withLock { entries in
            entries.first(where: matches)
        }
    }

    /// Remembers a verified chain in place of any entry for which `replaces` is true.
    func insert(_ entry: Entry, replacing replaces: (Entry) -> Bool) {
        entries.withLock { entries in
            entries.removeAll(where: replaces)
            if entries.count >= Self.capacity { entries.removeFirst() }
            entries.append(entry)
        }
    }

    /// The number of chains held.
    var count: Int {
        entries.withLock { $0.count }
    }
}
