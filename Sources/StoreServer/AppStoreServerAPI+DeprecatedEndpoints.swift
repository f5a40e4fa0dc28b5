#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreSimulator

    extension AppStoreServerAPI {
        /// Send Consumption Information V1: every field checked as Apple checks it, in the order of
        /// `ConsumptionRequestV1`, each with its own error (a required field absent, of another JSON type or out of
        /// its values; decision 105); kept by the store beside what version 2 sends
        /// (``StoreSimulator/ConsumptionInformation/version1``), answered 202.
        func consumptionV1(_ text: String, body: [UInt8]) throws(APIError) -> HTTPResponse {
            let record = try record(of: text)
            let request = try APIRequest.decode(ConsumptionRequestV1.self, from: body)
            guard request.customerConsented?.value == true else { throw .invalidCustomerConsented }
            func number(
                _ field: ConsumptionRequestV1.Field<Int>?, _ range: ClosedRange<Int>, _ error: APIError
            ) throws(APIError) -> Int {
                guard let value = field?.value, range.contains(value) else { throw error }
                return value
            }
            let consumption = try number(
                request.consumptionStatus, ConsumptionInformationV1.consumptionStatusRange, .invalidConsumptionStatus)
            let platform = try number(request.platform, ConsumptionInformationV1.platformRange, .invalidPlatform)
            guard let sample = request.sampleContentProvided?.value else { throw .invalidSampleContentProvided }
            let delivery = try number(
                request.deliveryStatus, ConsumptionInformationV1.deliveryStatusRange, .invalidDeliveryStatus)
            guard let tokenText = request.appAccountToken?.value else { throw .invalidAppAccountToken }
            var token: UUID?
            if !tokenText.isEmpty {
                guard let uuid = UUID(uuidString: tokenText) else { throw .invalidAppAccountToken }
                token = uuid
            }
            let tenure = try number(
                request.accountTenure, ConsumptionInformationV1.accountTenureRange, .invalidAccountTenure)
            let playTime = try number(request.playTime, ConsumptionInformationV1.playTimeRange, .invalidPlayTime)
            let refunded = try number(
                request.lifetimeDollarsRefunded, ConsumptionInformationV1.lifetimeDollarsRange,
                .invalidLifetimeDollarsRefunded)
            let purchased = try number(
                request.lifetimeDollarsPurchased, ConsumptionInformationV1.lifetimeDollarsRange,
                .invalidLifetimeDollarsPurchased)
            let userStatus = try number(
                request.userStatus, ConsumptionInformationV1.userStatusRange, .invalidUserStatus)
            var preference: Int?
            if let field = request.refundPreference {
                preference = try number(
                    field, ConsumptionInformationV1.refundPreferenceRange, .invalidRefundPreference)
            }
            try driver.recordConsumption(
                ConsumptionInformation(
                    ConsumptionInformationV1(
                        consumptionStatus: consumption, platform: platform, sampleContentProvided: sample,
                        deliveryStatus: delivery, appAccountToken: token, accountTenure: tenure, playTime: playTime,
                        lifetimeDollarsRefunded: refunded, lifetimeDollarsPurchased: purchased, userStatus: userStatus,
                        refundPreference: preference)),
                forTransaction: record.id)
            return HTTPResponse(status: 202)
        }

        /// How many refunded transactions Get Refund History V1 answers at most: the most recently refunded.
        static let refundLookupLimit = 50

        /// Get Refund History V1 (`GET /inApps/v1/refund/lookup/{originalTransactionId}`): the customer's refunded
        /// transactions (``refunds(of:)``), the 50 most recently refunded at most, in one answer without paging, as
        /// `RefundLookupResponse {signedTransactions}` (decision 106).
        func refundLookupV1(_ text: String) throws(APIError) -> HTTPResponse {
            guard let id = APIRequest.transactionID(text) else { throw .invalidOriginalTransactionId }
            guard let customer = store.customer(ofTransaction: id, including: .history),
                customer.transaction.state == .purchased, customer.transaction.originalID == id
            else { throw .originalTransactionIdNotFound }
            let recent = Self.refunds(of: customer).suffix(Self.refundLookupLimit)
            struct Response: Encodable { let signedTransactions: [String] }
            return APIRequest.json(
                Response(
                    signedTransactions: try recent.map { (record) throws(APIError) in
                        try signed.transaction(record, in: customer)
                    }))
        }

        /// The customer's refunded transactions, by refund date: the transactions the App Store refunded (a revocation
        /// reason), not those an upgrade replaced or Family Sharing took back. Get Refund History (v2 and V1) lists
        /// them.
        static func refunds(of customer: StoreCustomer) -> [TransactionRecord] {
            customer.records.compactMap { record -> (key: PageKey, record: TransactionRecord)? in
                guard record.state == .purchased, record.revocationReason != nil,
                    let refunded = record.cancellationDate
                else { return nil }
                return (PageKey(modified: refunded, id: record.id), record)
            }
            .sorted { $0.key < $1.key }.map(\.record)
        }
    }
#endif
