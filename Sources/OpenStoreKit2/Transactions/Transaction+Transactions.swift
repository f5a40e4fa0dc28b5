extension Transaction {
    /// A sequence of signed transactions: ``Transaction/updates`` (endless) or a snapshot such as
    /// ``Transaction/all`` (finite, current to the moment iteration starts). Iterating never throws.
    public struct Transactions: AsyncSequence, Sendable {
        /// Each element is a signed transaction with the outcome of its verification.
        public typealias Element = VerificationResult<Transaction>

        enum Source: Sendable {
            case updates
            case snapshot(@Sendable (StoreKitClient) async -> [VerificationResult<Transaction>])
        }

        let client: StoreKitClient
        let source: Source

        /// Iterates the sequence.
        public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
            let client: StoreKitClient
            let source: Source
            var listener: UpdatesListener?
            var snapshot: [VerificationResult<Transaction>]?
            var position = 0

            /// The next transaction, or `nil` at the end (a snapshot's, or when the task is cancelled).
            public mutating func next() async -> VerificationResult<Transaction>? {
                switch source {
                case .updates:
                    if listener == nil { listener = client.addListener() }
                    return await listener?.next()
                case .snapshot(let make):
                    if snapshot == nil { snapshot = await make(client) }
                    guard let snapshot, position < snapshot.count, !Task.isCancelled else { return nil }
                    position += 1
                    return snapshot[position - 1]
                }
            }
        }

        /// Makes an iterator; an iterator of ``Transaction/updates`` listens from now on.
        public func makeAsyncIterator() -> AsyncIterator {
            guard case .updates = source else { return AsyncIterator(client: client, source: source) }
            return AsyncIterator(client: client, source: source, listener: client.addListener())
        }
    }
}
