#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreSimulator

    extension AppStoreServerAPI {
        /// Get All Subscription Statuses: one item per subscription of the customer, by group.
        func allSubscriptionStatuses(_ text: String, query: [String: [String]]) throws(APIError) -> HTTPResponse {
            let customer = try customer(of: text, including: .subscriptionStatuses)
            var wanted: Set<Int>?
            if let values = query["status"] {
                var set = Set<Int>()
                for value in values {
                    guard let number = Int(value), (1...5).contains(number) else { throw .invalidStatus }
                    set.insert(number)
                }
                wanted = set
            }
            struct LastTransaction: Encodable {
                let status: Int
                let originalTransactionId: String
                let signedTransactionInfo: String
                let signedRenewalInfo: String
            }
            struct Group: Encodable {
                let subscriptionGroupIdentifier: String
                let lastTransactions: [LastTransaction]
            }
            struct Response: Encodable {
                let environment: String
                let bundleId: String
                let data: [Group]
            }
            // The store's statuses: the customer's own subscriptions, then those its family shares with it.
            var groups: [String: [LastTransaction]] = [:]
            for status in customer.subscriptionStatuses {
                if let wanted, !wanted.contains(status.code.rawValue) { continue }
                guard let latest = customer.latestTransaction(of: status) else { throw .transactionIdNotFound }
                groups[status.groupID, default: []].append(
                    LastTransaction(
                        status: status.code.rawValue, originalTransactionId: String(status.originalID),
                        signedTransactionInfo: try signed.transaction(latest, in: customer),
                        signedRenewalInfo: try signed.renewalInfo(originalID: status.originalID, in: customer)))
            }
            return APIRequest.json(
                Response(
                    environment: environment.rawValue, bundleId: bundleID,
                    data: groups.keys.sorted().map {
                        Group(subscriptionGroupIdentifier: $0, lastTransactions: groups[$0] ?? [])
                    }))
        }

        /// Send Consumption Information (v2): checked as Apple checks it, kept by the store (the control API shows it),
        /// answered 202. The store checks the percentage.
        func consumption(_ text: String, body: [UInt8]) throws(APIError) -> HTTPResponse {
            let record = try record(of: text)
            let request = try APIRequest.decode(ConsumptionRequest.self, from: body)
            guard request.customerConsented == true else { throw .invalidCustomerConsented }
            guard let sample = request.sampleContentProvided else { throw .invalidSampleContentProvided }
            guard let delivery = request.deliveryStatus.flatMap(ConsumptionInformation.DeliveryStatus.init) else {
                throw .invalidDeliveryStatus
            }
            var preference: ConsumptionInformation.RefundPreference?
            if let raw = request.refundPreference {
                guard let value = ConsumptionInformation.RefundPreference(rawValue: raw) else {
                    throw .invalidRefundPreference
                }
                preference = value
            }
            try driver.recordConsumption(
                ConsumptionInformation(
                    sampleContentProvided: sample, deliveryStatus: delivery,
                    consumptionPercentage: request.consumptionPercentage, refundPreference: preference),
                forTransaction: record.id)
            return HTTPResponse(status: 202)
        }

        /// Extend a Subscription Renewal Date.
        func extendRenewalDate(_ text: String, body: [UInt8]) throws(APIError) -> HTTPResponse {
            guard let id = APIRequest.transactionID(text) else { throw .invalidOriginalTransactionId }
            let request = try APIRequest.decode(ExtendRenewalDateRequest.self, from: body)
            guard let days = request.extendByDays, (1...90).contains(days) else { throw .invalidExtendByDays }
            guard let reason = request.extendReasonCode, (0...3).contains(reason) else {
                throw .invalidExtendReasonCode
            }
            guard let identifier = request.requestIdentifier, !identifier.isEmpty, identifier.count <= 128 else {
                throw .invalidRequestIdentifier
            }
            guard let record = store.transaction(id), record.state == .purchased, record.originalID == id else {
                throw .originalTransactionIdNotFound
            }
            let extended = try driver.extend(originalID: id, days: days)
            struct Response: Encodable {
                let originalTransactionId: String
                let webOrderLineItemId: String
                let success: Bool
                let effectiveDate: Int64
            }
            let latest = store.transaction(extended.latestRecordID)
            return APIRequest.json(
                Response(
                    originalTransactionId: String(id),
                    webOrderLineItemId: String(latest?.webOrderLineItemID ?? extended.latestRecordID), success: true,
                    effectiveDate: JWSDate(extended.expiresAt).millisecondsSince1970))
        }

        /// Extend Subscription Renewal Dates for All Active Subscribers: done at once; its status is complete.
        func massExtend(body: [UInt8]) throws(APIError) -> HTTPResponse {
            let request = try APIRequest.decode(MassExtendRenewalDateRequest.self, from: body)
            guard let days = request.extendByDays, (1...90).contains(days) else { throw .invalidExtendByDays }
            guard let reason = request.extendReasonCode, (0...3).contains(reason) else {
                throw .invalidExtendReasonCode
            }
            guard let identifier = request.requestIdentifier, !identifier.isEmpty, identifier.count <= 128 else {
                throw .invalidRequestIdentifier
            }
            guard let productID = request.productId, store.catalog.product(productID)?.subscription != nil else {
                throw .invalidProductId
            }
            if let countries = request.storefrontCountryCodes {
                guard !countries.isEmpty else { throw .invalidEmptyStorefrontCountryCodeList }
                guard countries.allSatisfy(Storefront.isKnown) else { throw .invalidStorefrontCountryCode }
            }
            try driver.massExtend(
                productID: productID, days: days, requestIdentifier: identifier,
                storefronts: request.storefrontCountryCodes)
            struct Response: Encodable { let requestIdentifier: String }
            return APIRequest.json(Response(requestIdentifier: identifier))
        }

        /// Get Status of Subscription Renewal Date Extensions.
        func massExtensionStatus(productID: String, requestIdentifier: String) throws(APIError) -> HTTPResponse {
            guard !requestIdentifier.isEmpty, requestIdentifier.count <= 128 else { throw .invalidRequestIdentifier }
            guard !productID.isEmpty else { throw .invalidProductId }
            guard let request = store.massRenewalExtension(productID: productID, requestIdentifier: requestIdentifier)
            else { throw .statusRequestNotFound }
            return APIRequest.json(
                MassExtensionStatus(
                    requestIdentifier: request.requestIdentifier, complete: true,
                    completeDate: JWSDate(request.completeDate).millisecondsSince1970,
                    succeededCount: Int64(request.succeededCount), failedCount: Int64(request.failedCount)))
        }
    }
#endif
