#if Server
    import Dispatch
    import FeedRunner
    import Foundation
    import ReceiptKit
    import StoreServer
    import StoreSimulator
    import Synchronization

    /// The server of `openstorekit run FEED --serve`: serves the feed's store with ``StoreServer/StoreServer`` and
    /// hands the feed the notifications it sent, as the built-in receiver got them (without `--notifications-url`)
    /// or as the sender's history has them (with it).
    final class FeedServerBridge: FeedServer {
        let configuration: StoreServerConfiguration
        let keepServing: Bool
        let output: CommandLineTool.Output
        private(set) var server: StoreServer?
        private(set) var receiver: NotificationReceiver?
        /// Checks what the sender's history holds when notifications go to `--notifications-url`.
        private var checker: NotificationReceiver?
        /// What the sender made, kept past its history window, when notifications go to `--notifications-url`.
        private let sent = SentNotifications()
        private var finished = false

        init(configuration: StoreServerConfiguration, keepServing: Bool, output: CommandLineTool.Output) {
            self.configuration = configuration
            self.keepServing = keepServing
            self.output = output
        }

        var bundleIdentifier: String? { configuration.bundleID }

        func start(serving store: SimulatedStore) -> String? {
            var configuration = configuration
            do throws(StoreServerError) {
                guard let root = store.jwsSigner.identity.certificates.last else {
                    return "the store's signer has no certificate to trust"
                }
                let reader = try NotificationReceiver(
                    root: root, bundleID: store.app.bundleIdentifier, environment: store.jwsEnvironment)
                if configuration.notificationsURL == nil {
                    configuration.notificationsURL = reader.url
                    receiver = reader
                } else {
                    reader.stop()
                    checker = reader
                }
                let server = try StoreServer(store: store, configuration: configuration)
                self.server = server
                if checker != nil {
                    // The sender drops notifications 180 days of store time after their first attempt, as Apple's
                    // history does; the feed's expectations still see them, as they stood after their attempts.
                    let sent = self.sent
                    server.notifications.observeAttempts { record in sent.capture([record]) }
                }
                // Before the URL shows: a signal sent on seeing it ends the kept server cleanly once the feed ran.
                if keepServing { TerminationSignal.install() }
                output.out(server.baseURL.absoluteString + "\n")
                if !configuration.http.isLoopback {
                    output.err(
                        "openstorekit: serving on \(configuration.http.host), reachable from other machines "
                            + "(--allow-remote); the control API still answers loopback clients only\n")
                }
                output.err(
                    "openstorekit: control API at \(server.baseURL.absoluteString)/openstorekit/v1/, token "
                        + "\(server.controlToken); notifications to "
                        + (receiver == nil
                            ? "\(configuration.notificationsURL?.absoluteString ?? "")" : "the built-in receiver")
                        + "\n")
                return nil
            } catch {
                receiver?.stop()
                return error.detail
            }
        }

        func openCancellationFlow(originalTransactionID: UInt64, locale: String)
            -> Result<ShownRetentionMessage, StoreSimulatorError>?
        {
            guard let server else { return nil }
            do {
                return .success(
                    try server.openCancellationFlow(originalTransactionID: originalTransactionID, locale: locale))
            } catch {
                return .failure(error)
            }
        }

        func notifications(within seconds: Double) -> [FeedNotification]? {
            guard let server else { return [] }
            let idle = DispatchSemaphore(value: 0)
            let sender = server.notifications
            Task {
                await sender.idle()
                idle.signal()
            }
            guard idle.wait(timeout: .now() + seconds) == .success else { return nil }
            if let receiver {
                var seen = Set<String>()
                return receiver.received.compactMap { notification in
                    if let uuid = notification.notificationUUID, !seen.insert(uuid).inserted { return nil }
                    return Self.feedNotification(notification, accepted: notification.verificationFailure == nil)
                }
            }
            sent.capture(sender.records)
            return sent.all.map { record in
                let read = checker?.read(signedPayload: record.signedPayload) ?? ReceivedNotification(type: "")
                var notification = Self.feedNotification(read, accepted: record.isDelivered)
                notification.type = record.notificationType
                notification.subtype = record.subtype
                notification.signedDate = record.signedDate
                notification.attempts = record.attempts.map(\.sendAttemptResult)
                return notification
            }
        }

        func finish() {
            guard !finished else { return }
            finished = true
            if keepServing, let server {
                output.err(
                    "openstorekit: the feed ended; serving \(server.baseURL.absoluteString) until SIGINT or SIGTERM\n")
                TerminationSignal.wait()
            }
            server?.stop()
            receiver?.stop()
        }

        /// What went wrong writing the notification history, if anything did.
        var historyProblem: String? { server?.notifications.historyError?.detail }

        private static func feedNotification(_ read: ReceivedNotification, accepted: Bool) -> FeedNotification {
            FeedNotification(
                type: read.type, subtype: read.subtype, transactionID: read.transactionID,
                originalTransactionID: read.originalTransactionID, productID: read.productID, status: read.status,
                signedDate: read.signedDate, verificationFailure: read.verificationFailure, accepted: accepted,
                attempts: accepted ? ["SUCCESS"] : [])
        }
    }

    /// Every notification a sender made, in the order it made them, each as it last stood in the sender's history.
    private final class SentNotifications: Sendable {
        private let entries = Mutex<(order: [String], records: [String: NotificationRecord])>(([], [:]))

        /// Takes in the sender's records: new ones after those known, known ones as they stand now.
        func capture(_ records: [NotificationRecord]) {
            entries.withLock { entries in
                for record in records {
                    if entries.records.updateValue(record, forKey: record.notificationUUID) == nil {
                        entries.order.append(record.notificationUUID)
                    }
                }
            }
        }

        /// Every record taken in, oldest first.
        var all: [NotificationRecord] {
            entries.withLock { entries in entries.order.compactMap { entries.records[$0] } }
        }
    }
#endif
