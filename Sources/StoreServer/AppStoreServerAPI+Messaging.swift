#if Server
    import Foundation
    import StoreModels
    import StoreSimulator

    extension AppStoreServerAPI {
        /// The Retention Messaging API under `/inApps/v1/messaging/`: images, messages, default messages, the
        /// real-time URL and performance tests, with Apple's errors. `route` is the path after `/inApps`.
        func messaging(_ request: HTTPRequest, route: [String]) throws(APIError) -> HTTPResponse {
            let parts = Array(route.dropFirst(2))
            switch (request.method, parts.count) {
            case ("GET", 2) where parts == ["image", "list"]:
                return imageList()
            case ("PUT", 2) where parts[0] == "image":
                return try uploadImage(parts[1], size: request.query["imageSize"]?.first, body: request.body)
            case ("DELETE", 2) where parts[0] == "image":
                return try change(.deleteImage(try identifier(parts[1])))
            case ("GET", 2) where parts == ["message", "list"]:
                return messageList()
            case ("PUT", 2) where parts[0] == "message":
                return try uploadMessage(parts[1], body: request.body)
            case ("DELETE", 2) where parts[0] == "message":
                return try change(.deleteMessage(try identifier(parts[1])))
            case (_, 3) where parts[0] == "default":
                return try defaultMessage(request.method, productID: parts[1], locale: parts[2], body: request.body)
            case (_, 2) where parts == ["realtime", "url"]:
                return try realtimeURL(request.method, body: request.body)
            case ("POST", 1) where parts == ["performanceTest"]:
                return try initiatePerformanceTest(body: request.body)
            case ("GET", 3) where parts[0] == "performanceTest" && parts[1] == "result":
                return try performanceTestResult(parts[2])
            default:
                return .text(404, "Not Found\n")
            }
        }

        // MARK: Images

        private func uploadImage(_ text: String, size: String?, body: [UInt8]) throws(APIError) -> HTTPResponse {
            let id = try identifier(text)
            guard let size = RetentionMessaging.ImageSize(rawValue: size ?? "FULL_SIZE") else {
                throw .badRequestImageSize
            }
            let image: PNGImage
            switch PNGImage.read(body) {
            case .success(let read): image = read
            case .failure(let problem): throw APIError(APIError.invalidImage.errorCode, "Invalid image: \(problem).")
            }
            guard !image.hasTransparency else {
                throw APIError(APIError.invalidImage.errorCode, "Invalid image: the PNG has transparency.")
            }
            if size == .fullSize, image.width != 3840 || !(160...2160).contains(image.height) {
                throw APIError(
                    APIError.invalidImage.errorCode,
                    "Invalid image: a FULL_SIZE image is 3840 pixels wide and 160 to 2160 high, not "
                        + "\(image.width) x \(image.height).")
            }
            if size == .bulletPoint, image.width > 3840 || image.height > 2160 {
                throw APIError(
                    APIError.invalidImage.errorCode,
                    "Invalid image: \(image.width) x \(image.height) is larger than 3840 x 2160.")
            }
            return try change(.uploadImage(id, size: size))
        }

        private func imageList() -> HTTPResponse {
            struct Item: Encodable {
                let imageIdentifier: String
                let imageState: String
                let imageSize: String
            }
            struct Response: Encodable { let imageIdentifiers: [Item] }
            return APIRequest.json(
                Response(
                    imageIdentifiers: store.retentionMessaging.images.map {
                        Item(
                            imageIdentifier: $0.identifier.uuidString.lowercased(), imageState: $0.state.rawValue,
                            imageSize: $0.size.rawValue)
                    }))
        }

        // MARK: Messages

        private func uploadMessage(_ text: String, body: [UInt8]) throws(APIError) -> HTTPResponse {
            struct Image: Decodable {
                let imageIdentifier: String?
                let altText: String?
            }
            struct BulletPoint: Decodable {
                let text: String?
                let imageIdentifier: String?
                let altText: String?
            }
            struct Request: Decodable {
                let header: String?
                let body: String?
                let image: Image?
                let headerPosition: String?
                let bulletPoints: [BulletPoint]?
            }
            let id = try identifier(text)
            let request = try APIRequest.decode(Request.self, from: body)
            guard let header = request.header, let text = request.body else {
                throw APIError(APIError.generalBadRequest.errorCode, "Invalid request. header and body are required.")
            }
            guard header.unicodeScalars.count <= RetentionMessaging.headerLimit else { throw .headerTooLong }
            guard text.unicodeScalars.count <= RetentionMessaging.bodyLimit else { throw .bodyTooLong }
            func reference(_ image: String?, _ altText: String?) throws(APIError) -> RetentionMessaging.ImageReference {
                guard let image, let imageID = UUID(uuidString: image), let altText else {
                    throw APIError(
                        APIError.generalBadRequest.errorCode,
                        "Invalid request. An image needs an imageIdentifier (a UUID) and altText.")
                }
                guard altText.unicodeScalars.count <= RetentionMessaging.altTextLimit else { throw .altTextTooLong }
                return RetentionMessaging.ImageReference(imageIdentifier: imageID, altText: altText)
            }
            let image: RetentionMessaging.ImageReference? =
                if let given = request.image { try reference(given.imageIdentifier, given.altText) } else { nil }
            if let position = request.headerPosition {
                guard ["ABOVE_BODY", "ABOVE_IMAGE"].contains(position) else {
                    throw APIError(
                        APIError.generalBadRequest.errorCode,
                        "Invalid request. headerPosition is ABOVE_BODY or ABOVE_IMAGE.")
                }
                if position == "ABOVE_IMAGE", image == nil { throw .badRequestAboveImageRequiresAnImage }
            }
            let given = request.bulletPoints ?? []
            guard given.count <= RetentionMessaging.bulletPointLimit else { throw .badRequestTooManyBulletPoints }
            var bulletPoints: [RetentionMessaging.BulletPoint] = []
            for point in given {
                guard let pointText = point.text else {
                    throw APIError(APIError.generalBadRequest.errorCode, "Invalid request. A bullet point needs text.")
                }
                guard pointText.unicodeScalars.count <= RetentionMessaging.headerLimit else {
                    throw .badRequestBulletPointTextTooLong
                }
                bulletPoints.append(
                    RetentionMessaging.BulletPoint(
                        text: pointText, image: try reference(point.imageIdentifier, point.altText)))
            }
            return try change(
                .uploadMessage(
                    RetentionMessaging.Message(
                        identifier: id, header: header, body: text, image: image,
                        headerPosition: request.headerPosition, bulletPoints: bulletPoints)))
        }

        private func messageList() -> HTTPResponse {
            struct Item: Encodable {
                let messageIdentifier: String
                let messageState: String
            }
            struct Response: Encodable { let messageIdentifiers: [Item] }
            return APIRequest.json(
                Response(
                    messageIdentifiers: store.retentionMessaging.messages.map {
                        Item(messageIdentifier: $0.identifier.uuidString.lowercased(), messageState: $0.state.rawValue)
                    }))
        }

        // MARK: Default messages

        private func defaultMessage(_ method: String, productID: String, locale: String, body: [UInt8])
            throws(APIError) -> HTTPResponse
        {
            guard Self.isLocale(locale) else { throw .invalidLocale }
            switch method {
            case "PUT":
                struct Request: Decodable { let messageIdentifier: String? }
                let request = try APIRequest.decode(Request.self, from: body)
                guard let text = request.messageIdentifier, let id = UUID(uuidString: text) else {
                    throw APIError(
                        APIError.generalBadRequest.errorCode, "Invalid request. messageIdentifier must be a UUID.")
                }
                return try change(.setDefaultMessage(productID: productID, locale: locale, messageIdentifier: id))
            case "DELETE":
                return try change(.setDefaultMessage(productID: productID, locale: locale, messageIdentifier: nil))
            case "GET":
                guard let configured = store.retentionMessaging.defaultMessage(productID: productID, locale: locale)
                else { throw .defaultMessageNotFound }
                return .json(
                    200,
                    APIRequest.object(
                        key: "messageIdentifier", string: configured.messageIdentifier.uuidString.lowercased()))
            default:
                return .text(404, "Not Found\n")
            }
        }

        /// A locale as the store accepts it (docs/decisions.md 100): a language of 2 or 3 lowercase letters, then
        /// optionally a script of 4 letters and a region of 2 uppercase letters or 3 digits, joined by `-` or `_`.
        static func isLocale(_ text: String) -> Bool {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
                $0.split(separator: "_", omittingEmptySubsequences: false)
            }
            guard let language = parts.first, (2...3).contains(language.count),
                language.allSatisfy({ $0.isASCII && $0.isLowercase })
            else { return false }
            var rest = parts.dropFirst()
            if let script = rest.first, script.count == 4, script.allSatisfy({ $0.isASCII && $0.isLetter }) {
                rest = rest.dropFirst()
            }
            if let region = rest.first,
                (region.count == 2 && region.allSatisfy({ $0.isASCII && $0.isUppercase }))
                    || (region.count == 3 && region.allSatisfy({ $0.isASCII && $0.isNumber }))
            {
                rest = rest.dropFirst()
            }
            return rest.isEmpty
        }

        // MARK: Real-time URL

        private func realtimeURL(_ method: String, body: [UInt8]) throws(APIError) -> HTTPResponse {
            switch method {
            case "PUT":
                struct Request: Decodable { let realtimeURL: String? }
                let request = try APIRequest.decode(Request.self, from: body)
                guard let text = request.realtimeURL, text.count <= RetentionMessaging.realtimeURLLimit,
                    let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                    scheme == "http" || scheme == "https", url.host?.isEmpty == false
                else { throw .badRequestRealtimeUrl }
                return try change(.setRealtimeURL(text))
            case "DELETE":
                guard store.retentionMessaging.realtimeURL != nil else { throw .realtimeUrlNotFound }
                return try change(.setRealtimeURL(nil))
            case "GET":
                guard let url = store.retentionMessaging.realtimeURL else { throw .realtimeUrlNotFound }
                return .json(200, APIRequest.object(key: "realtimeURL", string: url))
            default:
                return .text(404, "Not Found\n")
            }
        }

        // MARK: Performance tests

        private func initiatePerformanceTest(body: [UInt8]) throws(APIError) -> HTTPResponse {
            struct Request: Decodable { let originalTransactionId: String? }
            let request = try APIRequest.decode(Request.self, from: body)
            guard let text = request.originalTransactionId, let id = APIRequest.transactionID(text),
                let record = store.transaction(id), record.state == .purchased, record.originalID == id
            else { throw .invalidPerformanceTestRequest }
            guard let url = store.retentionMessaging.realtimeURL else { throw .realtimeUrlNotFound }
            let test = try realtime.runPerformanceTest(for: record, url: url)
            struct Response: Encodable {
                let config: RetentionPerformanceTest.Config
                let requestId: String
            }
            return APIRequest.json(Response(config: test.config, requestId: test.requestID))
        }

        private func performanceTestResult(_ requestID: String) throws(APIError) -> HTTPResponse {
            guard UUID(uuidString: requestID) != nil else { throw .invalidRequestId }
            guard let test = store.retentionMessaging.performanceTest(requestID.lowercased()) else {
                throw .performanceTestRunNotFound
            }
            struct Times: Encodable {
                let average: Int
                let p50: Int
                let p90: Int
                let p95: Int
                let p99: Int
            }
            struct Response: Encodable {
                let config: RetentionPerformanceTest.Config
                let target: String
                let result: String
                let successRate: Int
                let numPending: Int
                let responseTimes: Times
                let failures: [String: Int]
            }
            return APIRequest.json(
                Response(
                    config: test.config, target: test.target, result: test.passed ? "PASS" : "FAIL",
                    successRate: test.successRate, numPending: 0,
                    responseTimes: Times(
                        average: test.averageResponseTime, p50: test.responseTime(percentile: 50),
                        p90: test.responseTime(percentile: 90), p95: test.responseTime(percentile: 95),
                        p99: test.responseTime(percentile: 99)),
                    failures: test.failures))
        }

        // MARK: Changes

        /// A UUID from a path segment.
        private func identifier(_ text: String) throws(APIError) -> UUID {
            guard let id = UUID(uuidString: text) else {
                throw APIError(APIError.generalBadRequest.errorCode, "Invalid request. The identifier is not a UUID.")
            }
            return id
        }

        /// Makes a change in the store, answered 200 with no body, or Apple's error for what stops it.
        private func change(_ change: RetentionMessagingChange) throws(APIError) -> HTTPResponse {
            if let problem = store.retentionMessagingProblem(change) { throw Self.error(for: problem) }
            do {
                try driver.perform(.retentionMessaging(change))
            } catch {
                throw store.retentionMessagingProblem(change).map(Self.error(for:)) ?? .generalInternal
            }
            return HTTPResponse(status: 200)
        }

        /// Apple's error for a problem the store found.
        static func error(for problem: RetentionMessagingProblem) -> APIError {
            switch problem {
            case .imageAlreadyExists: .imageAlreadyExists
            case .imageNotFound: .imageNotFound
            case .imageInUse: .imageInUse
            case .maximumImagesReached: .maximumNumberOfImagesReached
            case .messageAlreadyExists: .messageAlreadyExists
            case .messageNotFound: .messageNotFound
            case .maximumMessagesReached: .maximumNumberOfMessagesReached
            case .messageNotApproved: .messageNotApproved
            case .imageNotApproved: .imageNotApproved
            case .wrongImageSize: .badRequestImageSize
            case .defaultMessageNotFound: .defaultMessageNotFound
            case .notASubscription: .invalidProductId
            case .subscriptionNotFound: .transactionIdNotFound
            }
        }
    }
#endif
