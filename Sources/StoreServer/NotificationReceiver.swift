#if Server
    public import Foundation
    public import ReceiptKit
    import Synchronization

    /// A backend's notification endpoint built in: an HTTP server on a loopback port of its own that takes Server
    /// Notifications V2 (`POST {"signedPayload": JWS}`), verifies each with `JWSVerifier` against the
    /// store's root, bundle identifier and environment (its `signedTransactionInfo` and `signedRenewalInfo` too), and
    /// keeps them in arrival order. It answers 200 to a notification that verifies and 400 to anything else, as a
    /// backend would.
    ///
    /// ```swift
    /// let receiver = try NotificationReceiver(
    ///     root: store.jwsSigner.identity.certificates.last!, bundleID: store.app.bundleIdentifier,
    ///     environment: store.jwsEnvironment)
    /// // StoreServerConfiguration(notificationsURL: receiver.url, ...)
    /// ```
    public final class NotificationReceiver: Sendable {
        /// The path notifications are POSTed to.
        public static let path = "/notifications"

        private let http: HTTPServer
        private let reader: Reader
        private let arrivals = Arrivals()

        /// Starts listening on 127.0.0.1, on a port the system picks.
        ///
        /// - Parameters:
        ///   - root: the root certificate every signature must chain to (the store signer's last certificate).
        ///   - bundleID: the bundle identifier the notifications must carry.
        ///   - environment: the environment they must name (the store's `SimulatedStore.jwsEnvironment`).
        /// - Throws: ``StoreServerError`` when it cannot listen, or `invalidOption` when the root cannot be trusted.
        public init(root: X509Certificate, bundleID: String, environment: JWSEnvironment) throws(StoreServerError) {
            let reader: Reader
            do throws(ReceiptError) {
                reader = try Reader(root: root, bundleID: bundleID, environment: environment)
            } catch {
                throw StoreServerError(.invalidOption, "the notification receiver cannot trust the root: \(error)")
            }
            self.reader = reader
            let arrivals = self.arrivals
            http = try HTTPServer(configuration: HTTPServerConfiguration()) { request in
                guard request.path == Self.path else { return .text(404, "Not Found\n") }
                guard request.method == "POST" else { return .text(405, "POST notifications here\n") }
                let notification = reader.read(body: request.body)
                arrivals.list.withLock { $0.append(notification) }
                return notification.verificationFailure == nil
                    ? .text(200, "") : .text(400, (notification.verificationFailure ?? "") + "\n")
            }
        }

        deinit { http.stop() }

        /// `http://127.0.0.1:PORT/notifications`: where to send notifications (`--notifications-url`).
        public var url: URL {
            // swift-format-ignore: NeverForceUnwrap
            URL(string: "http://127.0.0.1:\(http.port)\(Self.path)")!
        }

        /// Every notification received, in arrival order (a retry arrives again).
        public var received: [ReceivedNotification] {
            arrivals.list.withLock { $0 }
        }

        /// Reads and verifies a `signedPayload` as the receiver does when one arrives.
        public func read(signedPayload: String) -> ReceivedNotification {
            reader.read(signedPayload: signedPayload)
        }

        /// Stops listening (waiting for the requests being answered). Idempotent.
        public func stop() {
            http.stop()
        }
    }

    /// The notifications a ``NotificationReceiver`` received, shared with its request handler.
    private final class Arrivals: Sendable {
        let list = Mutex<[ReceivedNotification]>([])
    }

    /// Verifies and decodes notifications for a ``NotificationReceiver``.
    private struct Reader: Sendable {
        let verifier: JWSVerifier
        let options: JWSVerificationOptions
        let bundleID: String
        let environment: JWSEnvironment

        init(root: X509Certificate, bundleID: String, environment: JWSEnvironment) throws(ReceiptError) {
            verifier = try JWSVerifier(trustedRoots: [root])
            options = JWSVerificationOptions(
                bundleIdentifier: bundleID, environment: environment, allowsXcode: environment == .xcode)
            self.bundleID = bundleID
            self.environment = environment
        }

        func read(body: [UInt8]) -> ReceivedNotification {
            guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
                let signedPayload = object["signedPayload"] as? String
            else {
                return ReceivedNotification(
                    type: "", verificationFailure: #"the body is not a JSON object {"signedPayload": "..."}"#)
            }
            return read(signedPayload: signedPayload)
        }

        func read(signedPayload: String) -> ReceivedNotification {
            var read = ReceivedNotification(type: "")
            let payload: [String: Any]
            do throws(ReceiptError) {
                let verified = try verifier.verify(signedPayload, options: options)
                guard let object = try? JSONSerialization.jsonObject(with: Data(verified.payloadJSON)) as? [String: Any]
                else {
                    read.verificationFailure = "the signedPayload's payload is not a JSON object"
                    return read
                }
                payload = object
            } catch {
                read.verificationFailure = "signedPayload: \(error)"
                return read
            }
            read.type = payload["notificationType"] as? String ?? ""
            read.subtype = payload["subtype"] as? String
            read.notificationUUID = payload["notificationUUID"] as? String
            read.signedDate = (payload["signedDate"] as? NSNumber)?.int64Value ?? 0
            if let summary = payload["summary"] as? [String: Any] {
                read.productID = summary["productId"] as? String
                if summary["bundleId"] as? String != bundleID
                    || summary["environment"] as? String != environment.rawValue
                {
                    read.verificationFailure = "the summary is not for \(bundleID) in \(environment.rawValue)"
                }
                return read
            }
            guard let data = payload["data"] as? [String: Any] else {
                read.verificationFailure = read.type == "TEST" ? nil : "the payload has neither data nor summary"
                return read
            }
            if data["bundleId"] as? String != bundleID || data["environment"] as? String != environment.rawValue {
                read.verificationFailure = "data is not for \(bundleID) in \(environment.rawValue)"
                return read
            }
            read.status = (data["status"] as? NSNumber)?.intValue
            if let signed = data["signedTransactionInfo"] as? String {
                do throws(ReceiptError) {
                    let transaction = try verifier.verify(signed, options: options).decode(JWSTransaction.self)
                    read.transactionID = transaction.transactionId.flatMap { UInt64($0) }
                    read.originalTransactionID = transaction.originalTransactionId.flatMap { UInt64($0) }
                    read.productID = transaction.productId
                } catch {
                    read.verificationFailure = "signedTransactionInfo: \(error)"
                    return read
                }
            }
            if let signed = data["signedRenewalInfo"] as? String {
                do throws(ReceiptError) {
                    let renewal = try verifier.verify(signed, options: options).decode(JWSRenewalInfo.self)
                    if let original = read.originalTransactionID,
                        renewal.originalTransactionId.flatMap({ UInt64($0) }) != original
                    {
                        read.verificationFailure =
                            "signedRenewalInfo is for original transaction \(renewal.originalTransactionId ?? "none"), "
                            + "not \(original)"
                    }
                } catch {
                    read.verificationFailure = "signedRenewalInfo: \(error)"
                }
            }
            return read
        }
    }
#endif
