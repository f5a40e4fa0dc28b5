#if Server
    import Foundation
    import StoreModels
    import StoreSimulator

    extension ControlAPI {
        /// The control API's Retention Messaging endpoints under `/openstorekit/v1/retention/`: a customer opening a
        /// subscription's cancellation flow (`POST cancellation-flow`, `{"originalTransactionId", "locale"}`), what
        /// customers were shown (`GET shown`), and a review of an image or a message (`POST review`,
        /// `{"identifier", "state"}`).
        func retention(_ method: String, _ route: [String], _ body: ControlBody) throws -> HTTPResponse {
            switch (method, route) {
            case ("POST", ["cancellation-flow"]):
                let text = try body.requiredString("originalTransactionId")
                guard let id = APIRequest.transactionID(text) else {
                    throw ControlError("originalTransactionId must be a transaction id, not \"\(text)\"")
                }
                let locale = try body.string("locale") ?? "en-US"
                guard AppStoreServerAPI.isLocale(locale) else {
                    throw ControlError("locale must be a locale such as en-US, not \"\(locale)\"")
                }
                let shown = try realtime.openCancellationFlow(originalTransactionID: id, locale: locale)
                return Self.json(ShownMessage(shown))
            case ("GET", ["shown"]):
                return Self.json(store.retentionMessaging.shown.map(ShownMessage.init))
            case ("POST", ["review"]):
                let text = try body.requiredString("identifier")
                guard let id = UUID(uuidString: text) else {
                    throw ControlError("identifier must be an image's or a message's UUID, not \"\(text)\"")
                }
                let raw = try body.requiredString("state")
                guard let state = RetentionMessaging.ReviewState(rawValue: raw) else {
                    throw ControlError("state must be PENDING, APPROVED or REJECTED, not \"\(raw)\"")
                }
                if let problem = store.retentionMessagingProblem(.review(id, state: state)) {
                    throw ControlError("\(text): \(problem)", status: 404)
                }
                try driver.perform(.retentionMessaging(.review(id, state: state)))
                return Self.json([String: String]())
            default:
                throw ControlError(
                    "no control endpoint \(method) \(Self.prefix)retention/\(route.joined(separator: "/"))",
                    status: 404)
            }
        }

        /// What a customer was shown, as the control API answers it.
        struct ShownMessage: Encodable {
            let originalTransactionId: String
            let productId: String
            let locale: String
            let requestIdentifier: String
            let date: Int64
            let source: String
            let messageIdentifier: String?
            let alternateProductId: String?
            let promotionalOffer: Bool
            let failure: String?

            init(_ shown: ShownRetentionMessage) {
                originalTransactionId = String(shown.originalTransactionID)
                productId = shown.productID
                locale = shown.locale
                requestIdentifier = shown.requestIdentifier.uuidString.lowercased()
                date = Int64((shown.date.timeIntervalSince1970 * 1000).rounded())
                source = shown.source.rawValue
                messageIdentifier = shown.messageIdentifier?.uuidString.lowercased()
                alternateProductId = shown.alternateProductID
                promotionalOffer = shown.offersPromotionalOffer
                failure = shown.failure
            }
        }

        private static func json(_ value: some Encodable) -> HTTPResponse {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return .json(200, [UInt8]((try? encoder.encode(value)) ?? Data("{}".utf8)))
        }
    }
#endif
