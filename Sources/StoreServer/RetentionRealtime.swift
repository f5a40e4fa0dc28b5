#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreSimulator

    /// The App Store's side of Retention Messaging's real-time flow: when a customer opens a subscription's
    /// cancellation flow, signs Apple's real-time request (`DecodedRealtimeRequestBody`, with the store's chain, as
    /// notifications are signed), POSTs it as `{"signedPayload": JWS}` to the configured Get Retention Message
    /// endpoint, reads the answer (`RealtimeResponseBody`) within the timeout, and has the store record what was
    /// shown (``StoreSimulator/RetentionMessagingChange/openCancellationFlow(originalTransactionID:locale:requestIdentifier:choice:failure:)``).
    /// It also runs performance tests of the endpoint.
    struct RetentionRealtime: Sendable {
        /// The requests a performance test sends, one at a time (docs/decisions.md 103).
        static let performanceTestRequests = 5
        /// The percentage of successes a performance test needs (docs/decisions.md 103).
        static let performanceTestSuccessRate = 90

        let store: SimulatedStore
        let driver: StoreDriver
        let client: RealtimeClient

        /// The signed real-time request for a subscription, as Apple's `RealtimeRequestBody` (`signedPayload`).
        func requestBody(for record: TransactionRecord, locale: String, requestIdentifier: UUID) throws(APIError)
            -> [UInt8]
        {
            var payload = JSONObjectWriter()
            payload.add("appAppleId", 0)
            payload.add("environment", .string(store.jwsEnvironment.rawValue))
            payload.add("originalTransactionId", .string(String(record.originalID)))
            payload.add("productId", .string(record.productID))
            payload.add("requestIdentifier", .string(requestIdentifier.uuidString.lowercased()))
            payload.add("signedDate", Int(JWSDate(store.now).millisecondsSince1970))
            payload.add("userLocale", .string(locale))
            let jws: String
            do {
                jws = try store.jwsSigner.sign(payloadJSON: Array(payload.jsonString.utf8))
            } catch {
                throw .generalInternal
            }
            return APIRequest.object(key: "signedPayload", string: jws)
        }

        /// The backend's choice in an answer, or why there is none (a `sendAttemptResult`).
        static func choice(in answer: RealtimeClient.Answer) -> Result<RetentionChoice, RealtimeFailure> {
            guard answer.result == "SUCCESS" else { return .failure(RealtimeFailure(answer.result)) }
            guard let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any] else {
                return .failure(RealtimeFailure("INVALID_RESPONSE"))
            }
            let kinds = ["message", "alternateProduct", "promotionalOffer", "advancedCommerceInfo"].filter {
                object[$0] != nil
            }
            guard kinds.count == 1, let inner = object[kinds[0]] as? [String: Any],
                let text = inner["messageIdentifier"] as? String, let id = UUID(uuidString: text)
            else { return .failure(RealtimeFailure("INVALID_RESPONSE")) }
            switch kinds[0] {
            case "message":
                return .success(.message(id))
            case "alternateProduct":
                guard let product = inner["productId"] as? String, !product.isEmpty else {
                    return .failure(RealtimeFailure("INVALID_RESPONSE"))
                }
                return .success(.alternateProduct(messageIdentifier: id, productID: product))
            case "promotionalOffer":
                guard
                    inner["promotionalOfferSignatureV2"] is String
                        || inner["promotionalOfferSignatureV1"] is [String: Any]
                else { return .failure(RealtimeFailure("INVALID_RESPONSE")) }
                return .success(.promotionalOffer(messageIdentifier: id))
            default:
                return .failure(RealtimeFailure("INVALID_RESPONSE"))
            }
        }

        /// A customer opens the cancellation flow of the subscription whose original transaction is `originalID`, in
        /// `locale`: the real-time request is sent (when a URL is configured) and the store records what was shown.
        ///
        /// - Throws: The store's `unknownTransaction` when `originalID` is no purchased subscription's original
        ///   transaction.
        func openCancellationFlow(originalTransactionID originalID: UInt64, locale: String)
            throws(StoreSimulatorError) -> ShownRetentionMessage
        {
            let requestIdentifier = UUID()
            let probe = RetentionMessagingChange.openCancellationFlow(
                originalTransactionID: originalID, locale: locale, requestIdentifier: requestIdentifier, choice: nil,
                failure: nil)
            if let problem = store.retentionMessagingProblem(probe) {
                throw StoreSimulatorError(.unknownTransaction, problem.description)
            }
            var choice: RetentionChoice?
            var failure: String?
            if let text = store.retentionMessaging.realtimeURL, let url = URL(string: text),
                let record = store.transaction(originalID)
            {
                do {
                    let body = try requestBody(for: record, locale: locale, requestIdentifier: requestIdentifier)
                    switch Self.choice(in: client.post(body, to: url)) {
                    case .success(let chosen): choice = chosen
                    case .failure(let reason): failure = reason.result
                    }
                } catch {
                    failure = "OTHER"
                }
            }
            try driver.perform(
                .retentionMessaging(
                    .openCancellationFlow(
                        originalTransactionID: originalID, locale: locale, requestIdentifier: requestIdentifier,
                        choice: choice, failure: failure)))
            guard let shown = store.retentionMessaging.shown.last(where: { $0.requestIdentifier == requestIdentifier })
            else { throw StoreSimulatorError(.invalidAction, "the store recorded nothing for the cancellation flow") }
            return shown
        }

        /// Runs a performance test of the configured endpoint with requests naming `record`'s subscription, one at a
        /// time, and records it in the store.
        func runPerformanceTest(for record: TransactionRecord, url: String) throws(APIError) -> RetentionPerformanceTest
        {
            let timeoutMilliseconds = Int(client.timeout * 1000)
            let config = RetentionPerformanceTest.Config(
                maxConcurrentRequests: 1, totalRequests: Self.performanceTestRequests,
                totalDuration: Self.performanceTestRequests * timeoutMilliseconds,
                responseTimeThreshold: timeoutMilliseconds, successRateThreshold: Self.performanceTestSuccessRate)
            var attempts: [RetentionPerformanceTest.Attempt] = []
            for _ in 0..<Self.performanceTestRequests {
                let body = try requestBody(for: record, locale: "en-US", requestIdentifier: UUID())
                let start = ContinuousClock.now
                let answer = URL(string: url).map { client.post(body, to: $0) } ?? .init(result: "OTHER")
                let elapsed = ContinuousClock.now - start
                let milliseconds = Int(
                    elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
                let result: String
                switch Self.choice(in: answer) {
                case .success: result = "SUCCESS"
                case .failure(let reason): result = reason.result
                }
                attempts.append(RetentionPerformanceTest.Attempt(result: result, milliseconds: milliseconds))
            }
            let test = RetentionPerformanceTest(
                requestID: UUID().uuidString.lowercased(), target: url, originalTransactionID: record.originalID,
                config: config, attempts: attempts)
            do {
                try driver.perform(.retentionMessaging(.recordPerformanceTest(test)))
            } catch {
                throw .generalInternal
            }
            return test
        }

        /// Why a backend's answer gave no choice: Apple's `sendAttemptResult`.
        struct RealtimeFailure: Error, Equatable {
            let result: String
            init(_ result: String) { self.result = result }
        }
    }
#endif
