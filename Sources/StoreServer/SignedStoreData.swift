#if Server
    import ReceiptKit
    import StoreModels
    import StoreSimulator

    /// The store's own signed records, as the App Store Server API and the notifications hand them out. Every signed
    /// transaction, renewal info and app transaction comes from the store's signer
    /// (``StoreSimulator/SimulatedStore/signedTransaction(_:)`` and its kin); the server signs nothing of the store's.
    struct SignedStoreData: Sendable {
        let store: SimulatedStore

        /// The signed transaction of a record.
        func transaction(_ id: UInt64) throws(APIError) -> String {
            do {
                return try store.signedTransaction(id)
            } catch {
                throw error.code == .unknownTransaction || error.code == .transactionNotSigned
                    ? .transactionIdNotFound : .generalInternal
            }
        }

        /// The signed transaction of a record of a customer, as read.
        func transaction(_ record: TransactionRecord, in customer: StoreCustomer) throws(APIError) -> String {
            do {
                return try store.signedTransaction(record, in: customer)
            } catch {
                throw error.code == .transactionNotSigned ? .transactionIdNotFound : .generalInternal
            }
        }

        /// The signed renewal info of a subscription of a customer, as read, whose original transaction is
        /// `originalID`.
        func renewalInfo(originalID: UInt64, in customer: StoreCustomer) throws(APIError) -> String {
            do {
                return try store.signedRenewalInfo(originalTransactionID: originalID, in: customer)
            } catch {
                throw error.code == .noSubscription ? .transactionIdNotFound : .generalInternal
            }
        }

        /// The signed renewal info of the subscription whose original transaction is `originalID`.
        func renewalInfo(originalID: UInt64) throws(APIError) -> String {
            do {
                return try store.signedRenewalInfo(originalTransactionID: originalID)
            } catch {
                throw error.code == .noSubscription ? .transactionIdNotFound : .generalInternal
            }
        }

        /// The signed app transaction of an account.
        func appTransaction(account: String) throws(APIError) -> String {
            do {
                return try store.signedAppTransaction(account: account)
            } catch {
                throw .generalInternal
            }
        }
    }
#endif
