import Dispatch
public import Foundation
import StoreModels
import Synchronization

extension SimulatedStore {
    /// Moves the store's clock forward by `interval` seconds, handling every subscription event on the way. See
    /// ``advance(to:)``.
    @discardableResult
    public func advance(by interval: TimeInterval) -> [SubscriptionEvent] {
        advance(to: now.addingTimeInterval(max(0, interval)))
    }

    /// Moves the store's clock to `date`, handling in time order every subscription event that falls due on the way:
    /// renewals, failed renewals, grace periods starting and ending, billing retry attempts, recoveries and expiries.
    /// The clock shows each event's instant while it is handled, then `date`; then the clock observers hear of the
    /// move (``addClockObserver(_:)``).
    ///
    /// Renewals and recoveries are new purchased transactions in the history; each device signed in to the account
    /// gets one as a new `.purchased` transaction, sent on the lane (run it to deliver them).
    ///
    /// Only a ``StoreModels/ManualClock`` can be moved. With any other clock nothing moves: the events due by the
    /// clock's own time are handled (``startProcessingDueEvents(every:)`` does that as time passes).
    ///
    /// - Returns: the events, in time order.
    @discardableResult
    public func advance(to date: Date) -> [SubscriptionEvent] {
        journal?.begin(.advance(to: date))
        defer { journal?.end() }
        let manual = clock as? ManualClock
        let limit = manual == nil ? min(date, clock.now) : date
        let devicesByAccount = state.withLock { $0.devicesByAccount() }
        var events: [SubscriptionEvent] = []
        var more = true
        while more {
            var outcome = SubscriptionOutcome()
            more = state.withLock { state in
                // Work in slices so that other threads get the lock between them.
                for _ in 0..<512 {
                    guard let (slot, due) = state.subscriptions.popDue(notAfter: limit) else { return false }
                    manual?.advance(to: due)
                    state.processDue(slot: slot, at: due, devicesByAccount: devicesByAccount, into: &outcome)
                }
                return true
            }
            events.append(contentsOf: outcome.events)
            dispatch(outcome)
        }
        manual?.advance(to: date)
        clockDidMove()
        return events
    }

    /// When the next subscription event falls due (a renewal or expiry, a billing retry attempt, the end of a grace
    /// period or of billing retry); `nil` if none is scheduled.
    public var nextSubscriptionEventDate: Date? {
        state.withLock { $0.subscriptions.nextDueDate() }
    }

    /// The session time rate: how long grace periods and billing retry last and, with a ``TimeRateClock``, how fast the
    /// clock runs. Set it with ``setTimeRate(_:)``.
    public var timeRate: TimeRate {
        TimeRate(rawValue: settings.timeRate) ?? .realTime
    }

    /// Sets the session time rate, and the rate of the store's clock if it is a ``TimeRateClock``.
    public func setTimeRate(_ rate: TimeRate) {
        updateSettings { $0.timeRate = rate.rawValue }
        (clock as? TimeRateClock)?.rate = rate.clockRate
    }

    /// Makes the clock of a ``TimeRateClock`` run at the rate the settings name (after ``reconfigure(_:)`` or
    /// ``resetSettings()``).
    public func applyTimeRateToClock() {
        (clock as? TimeRateClock)?.rate = timeRate.clockRate
    }

    /// For stores on a dispatch lane whose clock runs by itself: checks every `interval` wall-clock seconds, on the
    /// lane, for subscription events that fell due, and handles them as ``advance(to:)`` does. Replaces an earlier
    /// check. Does nothing on a manual lane: call ``advance(by:)`` there.
    public func startProcessingDueEvents(every interval: TimeInterval = 0.25) {
        guard case .dispatch(let queue) = lane.mode else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let step = DispatchTimeInterval.milliseconds(max(1, Int(interval * 1000)))
        timer.schedule(deadline: .now() + step, repeating: step)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            advance(to: clock.now)
        }
        let replaced = state.withLock { state in
            defer { state.dueEventTimer = DueEventTimer(timer) }
            return state.dueEventTimer
        }
        replaced?.cancel()
        timer.resume()
    }

    /// Stops the checks ``startProcessingDueEvents(every:)`` started.
    public func stopProcessingDueEvents() {
        let timer = state.withLock { state in
            defer { state.dueEventTimer = nil }
            return state.dueEventTimer
        }
        timer?.cancel()
    }

    /// Whether ``startProcessingDueEvents(every:)`` is on.
    public var isProcessingDueEvents: Bool {
        state.withLock { $0.dueEventTimer != nil }
    }
}
