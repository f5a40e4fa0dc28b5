#if Server
    import ReceiptKit
    import StoreSimulator

    /// The store's own signed records, as the App Store Server API and the notifications hand them out. Every signed
    /// transaction and renewal info comes from the store's signer; the server signs nothing of the store's itself.
    struct SignedStoreData: Sendable {
        let store: SimulatedStore

        /// The signed transaction of a record.
        func transaction(_ id: UInt64) throws(APIError) -> String {
            throw APIError.generalInternal
        }

        /// The signed renewal info of the subscription whose original transaction is `originalID`.
        func renewalInfo(originalID: UInt64) throws(APIError) -> String {
            throw APIError.generalInternal
        }
    }
#endif
