#if Server
    import Foundation
    import StoreModels
    import StoreSimulator

    extension AppStoreServerAPI {
        /// Set App Account Token: the purchase that began with the original transaction in the path carries the token
        /// from now on (``StoreSimulator/SimulatedStore/setAppAccountToken(_:originalTransactionID:)``); answered 200
        /// with no body.
        func setAppAccountToken(_ text: String, body: [UInt8]) throws(APIError) -> HTTPResponse {
            guard let id = APIRequest.transactionID(text) else { throw .invalidTransactionId }
            let request = try APIRequest.decode(UpdateAppAccountTokenRequest.self, from: body)
            guard let raw = request.appAccountToken, let token = UUID(uuidString: raw) else {
                throw .invalidAppAccountTokenUUID
            }
            guard let record = store.transaction(id), record.state == .purchased else {
                throw .originalTransactionIdNotFound
            }
            guard !record.isFamilyShared else { throw .familyTransactionNotSupported }
            guard record.originalID == id else { throw .transactionIdIsNotOriginalTransactionId }
            try driver.setAppAccountToken(token, originalID: id)
            return HTTPResponse(status: 200)
        }

        /// Finish Transaction: the transaction leaves the queue of every device that holds it unfinished
        /// (``StoreSimulator/SimulatedStore/finishTransaction(_:)``); answered 200 with no body, also when no device
        /// held it.
        func finishTransaction(_ text: String) throws(APIError) -> HTTPResponse {
            let record = try record(of: text)
            try driver.finishTransaction(record.id)
            return HTTPResponse(status: 200)
        }
    }
#endif
