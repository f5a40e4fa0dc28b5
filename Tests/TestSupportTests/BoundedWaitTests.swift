import TestSupport
import Testing

private struct Refusal: Error, Equatable {}

@Suite("Bounded waits")
struct BoundedWaitTests {
    @Test("A prompt operation's value comes back")
    func prompt() async throws {
        #expect(try await bounded("a value") { 42 } == 42)
    }

    @Test("The operation's own error comes back")
    func operationError() async throws {
        await #expect(throws: Refusal()) { try await bounded("a refusal") { throw Refusal() } }
    }

    @Test("A stream's elements come back in order, then nil when it finishes")
    func streamInOrder() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.yield(1)
        continuation.yield(2)
        #expect(try await next(stream) == 1)
        #expect(try await next(stream) == 2)
        continuation.yield(3)
        continuation.finish()
        #expect(try await next(stream) == 3)
        #expect(try await next(stream) == nil)
    }

    @Test("Waiting for a stream nobody feeds is reported as a failure at the bound, not a hang")
    func silentStream() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        defer { continuation.finish() }
        let clock = ContinuousClock()
        let start = clock.now
        var thrown: (any Error)?
        await withKnownIssue("the wait gives up and records an issue") {
            do {
                _ = try await next(stream, "an element nobody sends", within: .milliseconds(200))
            } catch {
                thrown = error
                throw error
            }
        }
        let elapsed = clock.now - start
        #expect(elapsed >= .milliseconds(200))
        let timeout = try #require(thrown as? WaitTimedOut)
        #expect(timeout.description == "gave up waiting for an element nobody sends after 0.2 seconds")
    }

    @Test("An operation that ignores cancellation cannot hold the test past the bound")
    func ignoresCancellation() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        defer { continuation.finish() }
        await withKnownIssue("the wait gives up and records an issue") {
            _ = try await bounded("an operation that never ends", within: .milliseconds(100)) {
                // Ends only when the stream finishes (at the end of the test), whatever cancellation says.
                for await _ in stream {}
                return 0
            }
        }
    }
}
