import Dispatch
public import Foundation
import StoreModels
import Synchronization

extension SimulatedStore {
    /// The most renewals (and billing recoveries) one move of the clock may produce across the store: 1,000,000.
    ///
    /// A move that would produce more is refused before anything is applied, with the error `tooManyRenewals`; move
    /// the clock in shorter steps (running the lane and finishing transactions between them), or with fewer
    /// subscriptions. Each renewal is a transaction the history and the receipt keep, so this bounds what one call can
    /// allocate.
    public static let maximumRenewalsPerAdvance = 1_000_000

    /// Moves the store's clock forward by `interval` seconds, handling every subscription event on the way. See
    /// ``advance(to:)``. A negative or zero interval handles what is due now.
    ///
    /// - Throws: `dateOutOfRange` for a NaN or infinite interval, or one that would take the clock past
    ///   `ManualClock.latestDate`; `tooManyRenewals` as ``advance(to:)``.
    @discardableResult
    public func advance(by interval: TimeInterval) throws(StoreSimulatorError) -> [SubscriptionEvent] {
        let start = now
        guard interval.isFinite, interval <= ManualClock.latestDate.timeIntervalSince(start) else {
            throw Self.dateOutOfRange(
                "advancing by \(interval) seconds from \(start.ISO8601Format())", finite: interval.isFinite)
        }
        return try advance(to: start.addingTimeInterval(max(0, interval)))
    }

    /// Moves the store's clock to `date`, handling in time order every subscription event that falls due on the way:
    /// renewals, failed renewals, grace periods starting and ending, billing retry attempts, recoveries and expiries.
    /// The clock shows each event's instant while it is handled, then `date`; then the clock observers hear of the
    /// move (``addClockObserver(_:)``).
    ///
    /// Renewals and recoveries are new purchased transactions in the history; each device signed in to the account
    /// gets one as a new `.purchased` transaction, sent on the lane. Observers added with ``addChangeObserver(_:)``
    /// hear every change, on the lane, before the transactions of its instant.
    ///
    /// On a `.manual` lane, the store runs the lane at each instant that has something to tell, so that observers hear
    /// each event and renewal at its own time, with the clock showing that time; work already waiting on the lane runs
    /// first, at the time the clock showed before the move. (Called from inside lane work, the store cannot run the
    /// lane: the callbacks then wait for the outer run, and the clock shows `date` when they arrive.) On a dispatch
    /// lane the callbacks are sent as the events are handled and arrive when the queue runs them.
    ///
    /// A `ManualClock` and a ``TimeRateClock`` (by an offset over the wall clock) are moved. With any
    /// other clock nothing moves: the events due by the clock's own time are handled
    /// (``startProcessingDueEvents(every:)`` does that as time passes).
    ///
    /// - Throws: `dateOutOfRange` for a NaN or infinite date, or one past `ManualClock.latestDate`;
    ///   `tooManyRenewals` if the move would produce more than ``maximumRenewalsPerAdvance`` renewals (by an upper
    ///   estimate: every period that could renew in the span, at its shortest length). Both are thrown before anything
    ///   is applied: the clock and the history stay as they were. If observers subscribe during the move (from their
    ///   callbacks) so that it would go past the limit, the move stops at the last instant handled: everything up to
    ///   that instant is applied and told, the clock shows that instant, and `tooManyRenewals` is thrown.
    /// - Returns: the events, in time order.
    @discardableResult
    public func advance(to date: Date) throws(StoreSimulatorError) -> [SubscriptionEvent] {
        try advance(to: date, limitingRenewals: true)
    }

    /// Moves the store's clock to `date` as ``advance(to:)`` does, handing `report` the subscription events as they are
    /// handled: each batch, in time order, before the callbacks they cause run on the lane. A caller that records both
    /// (a feed's event log) sees a renewal before what the app heard of it, and January's renewal before February's
    /// callbacks. Events of a move that stops at the renewal limit are reported up to where it stopped.
    ///
    /// - Throws: as ``advance(to:)``.
    /// - Returns: the events, in time order.
    @discardableResult
    public func advance(
        to date: Date, reporting report: ([SubscriptionEvent]) -> Void
    ) throws(StoreSimulatorError) -> [SubscriptionEvent] {
        try advance(to: date, limitingRenewals: true, reporting: report)
    }

    /// Moves the clock as ``advance(to:)`` does; a replay of the journal does not check the renewal limit, since the
    /// recorded move was within it when made.
    func advance(
        to date: Date, limitingRenewals: Bool, reporting report: ([SubscriptionEvent]) -> Void = { _ in }
    ) throws(StoreSimulatorError) -> [SubscriptionEvent] {
        guard date.timeIntervalSinceReferenceDate.isFinite, date <= ManualClock.latestDate else {
            throw Self.dateOutOfRange(
                "moving the clock to \(date.timeIntervalSince1970) seconds after 1970",
                finite: date.timeIntervalSinceReferenceDate.isFinite)
        }
        journal?.enter()
        defer { journal?.end() }
        let movable = clock as? any MovableClock
        let limit = movable == nil ? min(date, clock.now) : date
        let budget = limitingRenewals ? Self.maximumRenewalsPerAdvance : Int.max
        try state.withLock { state throws(StoreSimulatorError) in
            let bound = limitingRenewals ? state.renewalBound(until: limit) : 0
            guard bound <= budget else { throw Self.tooManyRenewals(bound, until: limit) }
        }
        // The move is recorded in steps, each before anyone hears of it, and only as far as it goes: a move that
        // stops over the renewal limit is recorded up to where it stopped, so that a replay stops there too. On the
        // manual lane callbacks run during the move and may change the store, and the steps make a replay apply those
        // changes at the same instants; on a dispatch lane nothing else changes the store during the move (the
        // journal's gate is held), so a step is recorded before each slice is dispatched.
        let recordStep: ((Date) -> Void)? = journal.map { journal in { journal.record(.operation(.advance(to: $0))) } }
        return try handleDue(
            until: limit, finally: date, movable: movable, budget: budget, recordStep: recordStep, report: report)
    }

    private enum Slice {
        case more
        case done
        case overBudget
    }

    private func handleDue(
        until limit: Date,
        finally date: Date,
        movable: (any MovableClock)?,
        budget: Int,
        recordStep: ((Date) -> Void)?,
        report: ([SubscriptionEvent]) -> Void
    ) throws(StoreSimulatorError) -> [SubscriptionEvent] {
        let stepwise: Bool
        if case .manual = lane.mode { stepwise = true } else { stepwise = false }
        if stepwise, let next = nextSubscriptionEventDate, next <= limit {
            lane.runUntilIdle()  // what waits runs at the time it was asked for, before the clock moves
        }
        var events: [SubscriptionEvent] = []
        var renewals = 0
        var instant: Date?
        var recorded: Date?
        func step(_ date: Date) {
            guard date != recorded else { return }
            recordStep?(date)
            recorded = date
        }
        var slice = Slice.more
        while slice == .more {
            var outcome = SubscriptionOutcome()
            // Whether an open queue or a change observer hears of this slice: only then does the lane run at
            // its instant, and does the slice end with the instant.
            var heard = false
            let listening = stepwise && hasChangeObservers
            slice = state.withLock { state -> Slice in
                // Work in slices so that other threads get the lock between them.
                for _ in 0..<512 {
                    guard let due = state.subscriptions.nextDueDate(), due <= limit else { return .done }
                    if heard, let instant, due > instant { return .more }
                    guard renewals < budget else { return .overBudget }
                    guard let (slot, due) = state.subscriptions.popDue(notAfter: limit) else { return .done }
                    instant = due
                    movable?.advance(to: due)
                    let (eventCount, deliveryCount) = (outcome.events.count, outcome.deliveries.count)
                    state.processDue(slot: slot, at: due, into: &outcome)
                    for event in outcome.events[eventCount...] where event.transactionID != nil { renewals += 1 }
                    if stepwise, !heard {
                        heard =
                            (listening && outcome.events.count > eventCount)
                            || outcome.deliveries[deliveryCount...].contains {
                                state.devices[$0.deviceID]?.hasListeners == true
                            }
                    }
                }
                return .more
            }
            events.append(contentsOf: outcome.events)
            if !outcome.events.isEmpty { report(outcome.events) }
            guard heard, let instant else {
                if !stepwise, let instant { step(instant) }
                dispatch(outcome)
                continue
            }
            step(instant)
            dispatch(outcome)
            // Callbacks may connect devices: renewals from here on reach them too (the store files devices under their
            // accounts as they connect).
            lane.runUntilIdle()
        }
        if slice == .overBudget, let instant {
            step(instant)
            clockDidMove()
            throw Self.tooManyRenewals(renewals, until: limit, stoppedAt: instant)
        }
        step(date)
        movable?.advance(to: date)
        clockDidMove()
        return events
    }

    static func dateOutOfRange(_ what: String, finite: Bool = true) -> StoreSimulatorError {
        let problem =
            finite
            ? "goes past \(ManualClock.latestDate.ISO8601Format()), the latest time the store's clock can show"
            : "is not a finite number of seconds"
        return StoreSimulatorError(
            .dateOutOfRange, "\(what) \(problem); move the clock by a shorter, finite interval")
    }

    static func tooManyRenewals(_ count: Int, until limit: Date, stoppedAt: Date? = nil) -> StoreSimulatorError {
        let when = limit.ISO8601Format()
        guard let stoppedAt else {
            return StoreSimulatorError(
                .tooManyRenewals,
                "moving the clock to \(when) would renew subscriptions up to \(count) times, more than the "
                    + "\(maximumRenewalsPerAdvance) one move may; nothing was applied: move the clock in shorter steps"
            )
        }
        return StoreSimulatorError(
            .tooManyRenewals,
            "moving the clock to \(when) renewed subscriptions \(count) times, the most one move may, and stopped at "
                + "\(stoppedAt.ISO8601Format()) (everything up to then is applied); move the clock on in shorter steps"
        )
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
    /// check. Does nothing on a manual lane: call ``advance(by:)`` there. The interval is taken between 1 millisecond
    /// and a day (a NaN interval as 0.25 seconds); a check that fails (too many renewals at once) is reported on
    /// standard error.
    public func startProcessingDueEvents(every interval: TimeInterval = 0.25) {
        guard case .dispatch(let queue) = lane.mode else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // From 1 ms to a day; a NaN interval counts as the default.
        let milliseconds = interval.isNaN ? 250 : min(max(interval * 1000, 1), 86_400_000)
        let step = DispatchTimeInterval.milliseconds(Int(milliseconds))
        timer.schedule(deadline: .now() + step, repeating: step)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            do {
                try advance(to: clock.now)
            } catch {
                FileHandle.standardError.write(Data("openstorekit: handling due subscription events: \(error)\n".utf8))
            }
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
