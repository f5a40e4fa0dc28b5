import Foundation

extension FeedExpectationChecker {
    /// Waits for the last notifications at the end of a served run; returns a failure message if they were not all
    /// attempted in time.
    func notificationsSettled() -> String? {
        recorder.settledNotifications() == nil ? timedOut : nil
    }

    private var timedOut: String {
        "the server had not attempted every notification after \(Int(FeedRecorder.notificationWait)) seconds "
            + "(a receiver that does not answer costs 10 seconds an attempt)"
    }

    /// Checks an `expect notification`, `expect notifications` or `expect no notification`.
    func checkNotification(_ expectation: FeedStep.NotificationExpectation) -> String? {
        guard let notifications = recorder.settledNotifications() else { return timedOut }
        let unmatched = notifications[min(notificationsMatched, notifications.count)...]
        switch expectation {
        case .count(let count):
            return notifications.count == count
                ? nil
                : "expected \(count) notifications so far, \(notifications.count) were sent"
                    + Self.listing(notifications[...], prefix: ": ")
        case .none:
            return unmatched.isEmpty
                ? nil : "expected no notification not yet matched, found" + Self.listing(unmatched, prefix: " ")
        case .next(let pattern):
            let expected = describe(pattern)
            guard let next = unmatched.first else {
                return "expected \(expected), but no other notification was sent (\(notifications.count) so far, "
                    + "all matched)"
            }
            if let mismatch = mismatch(next, pattern) {
                return "expected \(expected), the next notification is \(next.summary) (\(mismatch))"
                    + Self.listing(unmatched.dropFirst(), prefix: "; after it: ")
            }
            if let failure = next.verificationFailure {
                return "\(next.summary) arrived, but it does not verify: \(failure)"
            }
            guard next.accepted else {
                return "\(next.summary) was sent, but the receiver did not accept it (attempts: "
                    + (next.attempts.isEmpty ? "none" : next.attempts.joined(separator: ", ")) + ")"
            }
            notificationsMatched += 1
            return nil
        }
    }

    /// What differs between a notification and the pattern it is expected to match, or nil when it matches.
    private func mismatch(_ notification: FeedNotification, _ pattern: FeedStep.NotificationExpectation.Pattern)
        -> String?
    {
        if notification.type != pattern.type || notification.subtype != pattern.subtype {
            return pattern.subtype == nil && notification.type == pattern.type
                ? "it has the subtype \(notification.subtype ?? "")" : "another type"
        }
        if let reference = pattern.reference {
            guard let id = world.resolve(reference) else { return "no transaction \(reference) was seen" }
            guard notification.transactionID == id || notification.originalTransactionID == id else {
                return "it carries transaction \(notification.transactionID.map { String($0) } ?? "none"), "
                    + "not \(reference) (\(id))"
            }
        }
        if let product = pattern.product, notification.productID != product {
            return "it is for \(notification.productID ?? "no product"), not \(product)"
        }
        if let status = pattern.status, notification.status != status {
            return "its status is \(notification.status.map { String($0) } ?? "absent"), not \(status)"
        }
        return nil
    }

    private func describe(_ pattern: FeedStep.NotificationExpectation.Pattern) -> String {
        var text = pattern.subtype.map { "\(pattern.type)/\($0)" } ?? pattern.type
        if let reference = pattern.reference { text += " for \(reference)" }
        if let product = pattern.product { text += " for \(product)" }
        if let status = pattern.status { text += " status \(status)" }
        return text
    }

    private static func listing(_ notifications: ArraySlice<FeedNotification>, prefix: String) -> String {
        guard !notifications.isEmpty else { return "" }
        let shown = notifications.prefix(5).map(\.summary).joined(separator: ", ")
        return prefix + shown + (notifications.count > 5 ? " and \(notifications.count - 5) more" : "")
    }
}
