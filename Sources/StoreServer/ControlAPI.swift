#if Server
    import Dispatch
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreSimulator

    /// The control API: drives the served store as the app side would (purchases, refunds, renewal settings, billing,
    /// time), under `/openstorekit/v1/`, for loopback clients holding the control token only. JSON in and out; errors are
    /// `{"error": {"code": …, "message": …}}` with the store's error codes.
    struct ControlAPI: Sendable {
        /// The path prefix.
        static let prefix = "/openstorekit/v1/"

        let store: SimulatedStore
        let driver: StoreDriver
        let notifications: NotificationSender
        let token: String
        /// Sends Retention Messaging's real-time requests.
        let realtime: RetentionRealtime

        func handle(_ request: HTTPRequest) -> HTTPResponse {
            guard request.isFromLoopback else {
                return Self.error(403, 0, "the control API answers loopback clients only")
            }
            guard request.header("Authorization") == "Bearer " + token else {
                return Self.error(401, 0, "the control API needs Authorization: Bearer <control token>")
            }
            let parts = request.path.dropFirst(Self.prefix.count).split(separator: "/").map(String.init)
            do {
                return try route(request.method, parts, try ControlBody(request.body))
            } catch let error as StoreSimulatorError {
                if Self.durabilityCodes.contains(error.code) { return Self.storeFailed(error) }
                let status =
                    [StoreSimulatorError.Code.unknownTransaction, .unknownProduct].contains(error.code) ? 404 : 400
                return Self.error(status, error.code.rawValue, error.detail)
            } catch let error as ControlError {
                return Self.error(error.status, 0, error.message)
            } catch {
                return Self.error(500, 0, "\(error)")
            }
        }

        private func route(_ method: String, _ route: [String], _ body: ControlBody) throws -> HTTPResponse {
            switch (method, route.count) {
            case ("GET", 1) where route[0] == "store":
                return Self.ok([
                    "now": JWSDate(store.now).millisecondsSince1970, "bundleId": store.app.bundleIdentifier,
                    "transactions": store.allTransactions().count,
                ])
            case ("POST", 1) where route[0] == "purchases":
                let product = try body.requiredString("productId")
                let account = try body.string("account") ?? SimulatedStore.defaultAccount
                let range = PaymentRequest.quantityRange
                let quantity = try Int(
                    body.integer(
                        "quantity", in: Int64(range.lowerBound)...Int64(range.upperBound),
                        "a whole number from \(range.lowerBound) to \(range.upperBound)") ?? 1)
                let plan = try body.oneOf("billingPlan", BillingPlan.Kind.allCases.map(\.rawValue))
                    .flatMap(BillingPlan.Kind.init(rawValue:))
                let outcome = try driver.perform(
                    plan == nil
                        ? .buyProduct(productID: product, quantity: quantity, account: account)
                        : .buyProductForTesting(
                            productID: product, quantity: quantity, account: account,
                            options: TestPurchaseOptions(billingPlan: plan)))
                guard let record = outcome.transaction else { throw ControlError("the purchase made no transaction") }
                return Self.ok(["transactionId": String(record.id), "originalTransactionId": String(record.originalID)])
            case ("POST", 1) where route[0] == "family":
                let name = try body.requiredString("family")
                let accounts = try body.requiredStrings("accounts")
                try driver.perform(.joinFamily(name, accounts: accounts))
                return Self.ok(["family": name, "accounts": store.familyMembers(name)])
            case ("POST", 2) where route[0] == "family" && route[1] == "leave":
                let account = try body.requiredString("account")
                try driver.perform(.leaveFamily(account: account))
                return Self.ok(["account": account])
            case ("POST", 1) where route[0] == "advance":
                let now = JWSDate(store.now).millisecondsSince1970
                let target: Date
                guard body.has("seconds") || body.has("to") else {
                    throw ControlError(
                        "give one of seconds (to move forward by) or to (milliseconds since 1970); neither was given")
                }
                guard !(body.has("seconds") && body.has("to")) else {
                    throw ControlError(
                        "give either seconds (to move forward by) or to (milliseconds since 1970), not both")
                }
                if let seconds = try body.integer("seconds", in: 1...Int64.max, "a whole number of seconds above 0") {
                    target = store.now.addingTimeInterval(Double(seconds))
                } else {
                    let to = try body.integer(
                        "to", in: (now + 1)...Int64.max,
                        "a whole number of milliseconds since 1970 after the store's clock (now \(now))")
                    target = Date(timeIntervalSince1970: Double(to ?? now) / 1000)
                }
                let events = try driver.perform(.advance(to: target)).subscriptionEvents
                return Self.ok(["now": JWSDate(store.now).millisecondsSince1970, "subscriptionEvents": events.count])
            case ("POST", 1) where route[0] == "settings":
                let retry = try body.bool("billingRetryOnRenewal")
                let grace = try body.bool("billingGracePeriodEnabled")
                try driver.perform { store in
                    var settings = store.settings
                    if let retry { settings.billingRetryOnRenewal = retry }
                    if let grace { settings.billingGracePeriodEnabled = grace }
                    return .updateSettings(settings)
                }
                return Self.ok([:])
            case ("GET", 1) where route[0] == "notifications":
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                return .json(200, [UInt8]((try? encoder.encode(notifications.records)) ?? Data("[]".utf8)))
            case ("POST", 2) where route == ["notifications", "wait"]:
                let done = DispatchSemaphore(value: 0)
                let sender = notifications
                Task {
                    await sender.idle()
                    done.signal()
                }
                guard done.wait(timeout: .now() + 30) == .success else {
                    throw ControlError("deliveries are still going on after 30 s", status: 504)
                }
                return Self.ok(["notifications": notifications.records.count])
            case (_, _) where route.first == "retention":
                return try retention(method, Array(route.dropFirst()), body)
            case (_, 3) where route[0] == "transactions":
                guard let id = APIRequest.transactionID(route[1]) else { throw ControlError("not a transaction id") }
                return try transaction(id, action: route[2], method: method, body: body)
            default:
                throw ControlError(
                    "no control endpoint \(method) \(Self.prefix)\(route.joined(separator: "/"))", status: 404)
            }
        }

        private func transaction(_ id: UInt64, action: String, method: String, body: ControlBody) throws
            -> HTTPResponse
        {
            switch (method, action) {
            case ("POST", "refund"):
                let raw = try body.integer("reason", in: 0...1, "0 (other) or 1 (an issue in the app)") ?? 0
                let reason = TransactionRecord.RevocationReason(rawValue: Int(raw)) ?? .other
                let range = TransactionRecord.revocationPercentageRange
                let percentage = try body.integer(
                    "percentage", in: Int64(range.lowerBound)...Int64(range.upperBound),
                    "a prorated refund's share in thousandths of a percent, 1 to 100000 (50000 is 50 %)")
                try driver.perform(.refund(id, reason: reason, percentage: percentage.map { Int($0) }))
            case ("POST", "refund-reverse"):
                try driver.perform(.reverseRefund(id))
            case ("POST", "refund-request"):
                let reasons = RefundRequestReason.allCases.map(\.rawValue).joined(separator: ", ")
                let raw = try body.string("reason") ?? RefundRequestReason.unsatisfiedWithPurchase.rawValue
                guard let reason = RefundRequestReason(rawValue: raw) else {
                    throw ControlError("reason must be one of \(reasons), not \"\(raw)\"")
                }
                try driver.perform(.requestRefund(id, reason: reason))
            case ("POST", "refund-decline"):
                try driver.perform(.declineRefund(id))
            case ("POST", "auto-renew"):
                guard let enabled = try body.bool("enabled") else {
                    throw ControlError("enabled (true or false) is required")
                }
                try driver.perform(.setAutoRenew(enabled, transactionID: id))
            case ("POST", "resolve-billing"):
                try driver.perform(.resolveIssue(id))
            case ("POST", "price-increase"):
                switch try body.string("action") {
                case "request": try driver.perform(.requestPriceIncreaseConsent(id))
                case "consent": try driver.perform(.consentToPriceIncrease(id))
                case "decline": try driver.perform(.declinePriceIncrease(id))
                default: throw ControlError("action is required: request, consent or decline")
                }
            case ("GET", "consumption"):
                guard let info = store.consumptionInformation(forTransaction: id) else {
                    throw ControlError("no consumption information was sent for \(id)", status: 404)
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                return .json(200, [UInt8]((try? encoder.encode(info)) ?? Data("{}".utf8)))
            default:
                throw ControlError("no control endpoint \(method) transactions/\(id)/\(action)", status: 404)
            }
            return Self.ok([:])
        }

        private static func ok(_ object: [String: Any]) -> HTTPResponse {
            .json(200, [UInt8]((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()))
        }

        /// The codes of a durable store that can no longer record its changes.
        private static let durabilityCodes: Set<StoreSimulatorError.Code> = [
            .stateWriteFailed, .stateUnavailable, .stateCorrupt,
        ]

        /// The answer while the store's database has failed (503): its error, and that the server must be restarted.
        static func storeFailed(_ failure: StoreSimulatorError) -> HTTPResponse {
            error(
                503, failure.code.rawValue,
                "the store can no longer record its changes (\(failure.detail)); it answers nothing until the server "
                    + "is restarted, which reopens the store as it was last recorded")
        }

        private static func error(_ status: Int, _ code: Int, _ message: String) -> HTTPResponse {
            var inner = JSONObjectWriter()
            inner.add("code", code)
            inner.add("message", .string(message))
            var outer = JSONObjectWriter()
            outer.add("error", object: inner)
            return .json(status, Array(outer.jsonString.utf8))
        }
    }
#endif
