#if Server
    import Dispatch
    import FeedRunner
    import Foundation
    import ReceiptKit
    import StoreServer
    import StoreSimulator

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
            return sender.records.map { record in
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
                CommandLineTool.waitForTermination()
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
#endif
