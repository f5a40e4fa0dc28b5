import OpenStoreKit2
import TestSupport
import Testing

/// Listens to `Transaction.updates` in a task of its own (which inherits the store binding), as an app's listener
/// does; a test reads what it heard, one element at a time, with a bounded wait.
final class UpdatesTap: Sendable {
    let stream: AsyncStream<VerificationResult<Transaction>>
    private let task: Task<Void, Never>

    /// Starts listening now: the iterator is made (and listens) before the task that reads it starts.
    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: VerificationResult<Transaction>.self)
        self.stream = stream
        let iterator = Transaction.updates.makeAsyncIterator()
        task = Task {
            var iterator = iterator
            while let update = await iterator.next() { continuation.yield(update) }
            continuation.finish()
        }
    }

    deinit { task.cancel() }

    /// The next update, waited for at most the default limit.
    func next(sourceLocation: SourceLocation = #_sourceLocation) async throws -> VerificationResult<Transaction> {
        let update = try await TestSupport.next(
            stream, "the next Transaction.updates element", sourceLocation: sourceLocation)
        return try #require(update, sourceLocation: sourceLocation)
    }

    /// Stops listening.
    func stop() { task.cancel() }
}

/// The product with an identifier, looked up in the bound store.
func product(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Product {
    try #require(try await Product.products(for: [id]).first, sourceLocation: sourceLocation)
}

/// The transaction of a successful purchase, verified.
func purchased(_ result: Product.PurchaseResult, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> Transaction
{
    guard case .success(let verification) = result else {
        Issue.record("expected .success, got \(result)", sourceLocation: sourceLocation)
        throw PurchaseDidNotSucceed()
    }
    return try verification.payloadValue
}

/// A purchase that was expected to succeed did not.
struct PurchaseDidNotSucceed: Error {}

/// Every element of a finite sequence of transactions.
func collect(_ transactions: Transaction.Transactions) async -> [VerificationResult<Transaction>] {
    var all: [VerificationResult<Transaction>] = []
    for await result in transactions { all.append(result) }
    return all
}
