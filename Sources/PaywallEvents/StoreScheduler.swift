public import Foundation
public import StoreModels
import Synchronization

/// Work to do at a moment of store time: the 2-second retry of a failed products load, the ticks of profile polling.
///
/// Nothing runs by itself and nothing sleeps: ``runDue()`` runs what the clock has reached, and
/// `PresentationContext.advance(by:)` (module `PaywallEventsTest`) moves the store's clock and runs each piece of work
/// at its moment.
public final class StoreScheduler: Sendable {
    /// Identifies scheduled work, to cancel it.
    public struct Token: Sendable, Hashable {
        let value: UInt64
    }

    private struct Item {
        let token: Token
        let due: Date
        let work: @Sendable () -> Void
    }

    private struct State {
        var items: [Item] = []
        var next: UInt64 = 1
    }

    /// The clock that says what is due.
    public let clock: any StoreClock
    private let state = Mutex(State())

    /// Creates a scheduler on a clock (a store's).
    public init(clock: any StoreClock) {
        self.clock = clock
    }

    /// Schedules work `delay` seconds of store time from now.
    @discardableResult
    public func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> Token {
        schedule(at: clock.now.addingTimeInterval(max(0, delay)), work)
    }

    /// Schedules work at a moment of store time. Work due at the same moment runs in the order it was scheduled.
    @discardableResult
    public func schedule(at date: Date, _ work: @escaping @Sendable () -> Void) -> Token {
        state.withLock { state in
            let token = Token(value: state.next)
            state.next += 1
            let index = state.items.firstIndex { $0.due > date } ?? state.items.count
            state.items.insert(Item(token: token, due: date, work: work), at: index)
            return token
        }
    }

    /// Cancels scheduled work; cancelling work that ran or was cancelled does nothing.
    public func cancel(_ token: Token) {
        state.withLock { state in state.items.removeAll { $0.token == token } }
    }

    /// When the earliest scheduled work is due; `nil` when nothing is scheduled.
    public var nextDueDate: Date? { state.withLock { $0.items.first?.due } }

    /// How many pieces of work wait.
    public var pendingCount: Int { state.withLock { $0.items.count } }

    /// Runs, in time order, every piece of work due by the clock's time, including work that due work schedules for
    /// a moment already reached. Returns how many ran.
    @discardableResult
    public func runDue() -> Int {
        var ran = 0
        while let item = takeDue() {
            item.work()
            ran += 1
        }
        return ran
    }

    private func takeDue() -> Item? {
        let now = clock.now
        return state.withLock { state in
            guard let first = state.items.first, first.due <= now else { return nil }
            return state.items.removeFirst()
        }
    }
}
