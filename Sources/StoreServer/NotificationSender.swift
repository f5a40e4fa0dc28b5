#if Server
    public import Foundation
    import ReceiptKit
    import Synchronization

    /// Signs Server Notifications V2 and POSTs them, one at a time in the order they were made, as
    /// `{"signedPayload": JWS}` with OpenSSL's HTTP client (`NotificationClient`); keeps every notification with its
    /// attempts.
    ///
    /// An attempt succeeds when the receiver, at the URL given, answers 200 to 206: a redirect is not followed (it is
    /// a failed attempt), the status line decides and the answer's body is not read (at most 64 KiB of the answer is
    /// read), and an attempt that takes longer than the timeout fails as `TIMED_OUT`. After a failure the notification is tried again at 1,
    /// 12, 24, 48 and 72 hours after the previous attempt, on the store's clock (Apple's production schedule, six
    /// attempts in all; with ``NotificationDelivery/sandbox`` delivery, never, as in Apple's sandbox): a retry happens
    /// when the store's clock reaches it, and is recorded at the time it was due. With
    /// a history file, nothing is lost across a restart: notifications never attempted are sent when the server starts
    /// again, and retries stay scheduled.
    ///
    /// Notifications are kept for ``historyWindow`` (Apple keeps Get Notification History for 180 days) on the store's
    /// clock, from their first attempt (when they were made, for one never sent because there is no URL): once the
    /// clock passes that, they are dropped from memory and from the history file. One being delivered or with a retry
    /// still due is kept until those attempts are made (each dated when it was due); then its first attempt counts.
    public final class NotificationSender: Sendable {
        /// The hours between attempts in production.
        public static let retryHours: [Int64] = [1, 12, 24, 48, 72]
        /// How long a notification is kept, in milliseconds of store time: 180 days.
        public static let historyWindow: Int64 = 180 * 86_400_000

        /// Where notifications go; nil sends nothing.
        public let url: URL?
        /// Whether failed notifications are retried (production) or not (sandbox).
        public let delivery: NotificationDelivery
        private let signer: JWSSigner
        private let client: NotificationClient
        private let state: Mutex<State>
        private let work: AsyncStream<String>.Continuation
        private let now: @Sendable () -> Date

        private struct State {
            var records: [NotificationRecord] = []
            var index: [String: Int] = [:]
            var history: NotificationHistory?
            var pending = 0
            var waiters: [CheckedContinuation<Void, Never>] = []
            var failure: StoreServerError?
            /// Set by stop(): no attempt is started after it, and one under way ends unrecorded.
            var stopped = false
            /// Told after each delivery that made attempts (observeAttempts(_:)).
            var attemptObservers: [@Sendable (NotificationRecord) -> Void] = []
            /// Notifications queued for an attempt and not yet back from it.
            var inFlight: Set<String> = []
            /// Records dropped from memory since the history file was last rewritten without them.
            var droppedSinceRewrite = 0
        }

        /// Creates a sender; with `history`, the history is read from and kept there.
        init(
            url: URL?, timeout: TimeInterval, signer: JWSSigner, delivery: NotificationDelivery,
            history place: NotificationHistory.Place?, now: @escaping @Sendable () -> Date
        ) throws(StoreServerError) {
            self.url = url
            self.delivery = delivery
            self.signer = signer
            self.now = now
            client = NotificationClient(timeout: timeout)
            var initial = State()
            if let place {
                let cutoff = JWSDate(now()).millisecondsSince1970 - Self.historyWindow
                let sends = url != nil
                let (history, records) = try NotificationHistory.open(place) { record in
                    !Self.isExpired(record, cutoff: cutoff, sends: sends)
                }
                initial.history = history
                initial.records = records
                for (position, record) in records.enumerated() { initial.index[record.notificationUUID] = position }
            }
            let unsent = url == nil ? [] : initial.records.filter(\.attempts.isEmpty).map(\.notificationUUID)
            initial.pending = unsent.count
            initial.inFlight = Set(unsent)
            state = Mutex(initial)
            let (stream, continuation) = AsyncStream<String>.makeStream()
            work = continuation
            for uuid in unsent { continuation.yield(uuid) }
            Task { [self] in
                for await uuid in stream { await deliver(uuid) }
            }
        }

        /// Stops sending; what was not attempted yet is attempted when a server opens the same history again.
        func stop() {
            work.finish()
            state.withLock { $0.stopped = true }
        }

        /// Every notification made, oldest first.
        public var records: [NotificationRecord] {
            state.withLock { $0.records }
        }

        /// The first error writing the history (its file, or the store's database) met, if any.
        public var historyError: StoreServerError? {
            state.withLock { $0.failure }
        }

        /// Returns once every notification made so far, and every retry due on the store's clock, has been attempted.
        public func idle() async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.pending == 0 { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        }

        /// Signs a notification, keeps it and queues its first attempt. Returns its record.
        @discardableResult
        func post(_ payload: NotificationPayload, originalTransactionID: UInt64?, testNotificationToken: String? = nil)
            throws(APIError) -> NotificationRecord
        {
            let jws: String
            do {
                jws = try signer.sign(payloadJSON: payload.json)
            } catch {
                throw APIError.generalInternal
            }
            let record = NotificationRecord(
                notificationUUID: payload.notificationUUID, notificationType: payload.notificationType,
                subtype: payload.subtype, signedDate: payload.signedDate, signedPayload: jws,
                originalTransactionID: originalTransactionID, testNotificationToken: testNotificationToken,
                attempts: [],
                nextAttemptDate: nil)
            let queued = state.withLock { state -> Bool in
                state.index[record.notificationUUID] = state.records.count
                state.records.append(record)
                Self.persist(record, in: &state)
                guard url != nil else { return false }
                state.pending += 1
                state.inFlight.insert(record.notificationUUID)
                return true
            }
            if queued { work.yield(record.notificationUUID) }
            return record
        }

        /// Queues the retries the store's clock has reached, then drops the notifications it took past the history
        /// window.
        func queueDueRetries() {
            let nowMilliseconds = JWSDate(now()).millisecondsSince1970
            let due = state.withLock { state -> [String] in
                var due: [String] = []
                for position in state.records.indices {
                    guard let next = state.records[position].nextAttemptDate, next <= nowMilliseconds else { continue }
                    state.records[position].nextAttemptDate = nil  // in flight; set again if it fails
                    due.append(state.records[position].notificationUUID)
                }
                state.pending += due.count
                state.inFlight.formUnion(due)
                dropExpired(in: &state, now: nowMilliseconds)
                return due
            }
            for uuid in due { work.yield(uuid) }
        }

        /// Whether a record is past the history window (`cutoff`: the store's time less the window): its first attempt
        /// (its creation, when the sender sends nothing) is older, and it has no attempt still to come.
        static func isExpired(_ record: NotificationRecord, cutoff: Int64, sends: Bool) -> Bool {
            guard record.nextAttemptDate == nil else { return false }
            guard let first = record.attempts.first else { return !sends && record.signedDate < cutoff }
            return first.attemptDate < cutoff
        }

        /// Drops the records past the history window, oldest first: a run from the start of the history, so it costs
        /// nothing while the oldest is within the window (records are made in store order, and each is first attempted
        /// when it was made). Stops at one still in flight or with a retry due; it goes once its attempts are over. The
        /// history file is rewritten without the dropped records once they make up a quarter of what is kept (and they
        /// are left out whenever it is opened), so that rewriting costs a bounded amount per record dropped.
        private func dropExpired(in state: inout State, now: Int64) {
            let cutoff = now - Self.historyWindow
            let sends = url != nil
            var count = 0
            while count < state.records.count {
                let record = state.records[count]
                guard !state.inFlight.contains(record.notificationUUID),
                    Self.isExpired(record, cutoff: cutoff, sends: sends)
                else { break }
                count += 1
            }
            guard count > 0 else { return }
            state.records.removeFirst(count)
            state.index = [:]
            for (position, record) in state.records.enumerated() { state.index[record.notificationUUID] = position }
            state.droppedSinceRewrite += count
            guard let history = state.history, state.droppedSinceRewrite * 4 >= state.records.count else { return }
            do throws(StoreServerError) {
                try history.rewrite(state.records)
                state.droppedSinceRewrite = 0
            } catch {
                if state.failure == nil { state.failure = error }
            }
        }

        /// The record of a notification.
        func record(_ uuid: String) -> NotificationRecord? {
            state.withLock { state in state.index[uuid].map { state.records[$0] } }
        }

        /// The record of a test notification.
        func record(testNotificationToken token: String) -> NotificationRecord? {
            state.withLock { state in state.records.last { $0.testNotificationToken == token } }
        }

        private func deliver(_ uuid: String) async {
            defer { finishOne(uuid) }
            guard let url, let record = record(uuid) else { return }
            var attemptDate =
                record.attempts.last.map { last in
                    last.attemptDate + Self.retryHours[min(record.attempts.count, Self.retryHours.count) - 1]
                        * 3_600_000
                } ?? record.signedDate
            var attempts = record.attempts
            let nowMilliseconds = JWSDate(now()).millisecondsSince1970
            let retryHours = delivery.retryHours
            while true {
                // Cancelled by stop(): not an attempt; it is made when a server opens the history again.
                guard let result = await send(record.signedPayload, to: url) else { break }
                attempts.append(NotificationRecord.Attempt(attemptDate: attemptDate, sendAttemptResult: result))
                guard result != "SUCCESS", attempts.count <= retryHours.count else { break }
                let next = attemptDate + retryHours[attempts.count - 1] * 3_600_000
                guard next <= nowMilliseconds else { break }
                attemptDate = next  // the store's clock already passed this retry: make it now, dated when it was due
            }
            let final = attempts
            let due = attemptDate
            let attempted = state.withLock { state -> (NotificationRecord, [@Sendable (NotificationRecord) -> Void])? in
                guard let position = state.index[uuid] else { return nil }
                guard final.count > record.attempts.count else {
                    // Nothing was attempted: a retry stays due when it was.
                    if !record.attempts.isEmpty { state.records[position].nextAttemptDate = due }
                    return nil
                }
                state.records[position].attempts = final
                let last = final[final.count - 1]
                state.records[position].nextAttemptDate =
                    last.sendAttemptResult == "SUCCESS" || final.count > retryHours.count
                    ? nil : last.attemptDate + retryHours[final.count - 1] * 3_600_000
                Self.persist(state.records[position], in: &state)
                return (state.records[position], state.attemptObservers)
            }
            if let (record, observers) = attempted {
                for observer in observers { observer(record) }
            }
        }

        /// Calls `observer` after every delivery that made attempts, with the notification's record as it then stands
        /// (its attempts so far), in the order the deliveries end (the order the notifications were made, retries
        /// later), on the sender's task. A record leaves ``records`` once past the history window; what an observer
        /// was handed stays its own.
        public func observeAttempts(_ observer: @escaping @Sendable (NotificationRecord) -> Void) {
            state.withLock { $0.attemptObservers.append(observer) }
        }

        private func finishOne(_ uuid: String) {
            let nowMilliseconds = JWSDate(now()).millisecondsSince1970
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.inFlight.remove(uuid)
                dropExpired(in: &state, now: nowMilliseconds)
                state.pending -= 1
                guard state.pending == 0 else { return [] }
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }

        private static func persist(_ record: NotificationRecord, in state: inout State) {
            guard let history = state.history else { return }
            do throws(StoreServerError) {
                try history.write(record)
            } catch {
                if state.failure == nil { state.failure = error }
            }
        }

        /// One POST, on a thread of its own; Apple's `sendAttemptResult` for how it went, or nil when the sender was
        /// stopped meanwhile.
        private func send(_ signedPayload: String, to url: URL) async -> String? {
            guard !state.withLock({ $0.stopped }) else { return nil }
            let body = #"{"signedPayload":""# + signedPayload + "\"}"
            let client = client
            return await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                Thread.detachNewThread { [self] in
                    let result = client.post(body, to: url) { state.withLock { $0.stopped } }
                    continuation.resume(returning: result)
                }
            }
        }
    }
#endif
