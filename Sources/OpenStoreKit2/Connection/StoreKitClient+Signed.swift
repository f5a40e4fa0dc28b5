import StoreModels

extension StoreKitClient {
    /// The store's signed transaction of a record, verified, to be finished on this client's device.
    func transactionResult(_ recordID: UInt64) -> VerificationResult<Transaction>? {
        SignedValues(store: store, controls: controls).transaction(recordID, origin: self)
    }

    /// The store's signed transaction of a record it handed over (a purchase's decision), verified, to be finished on
    /// this client's device.
    func transactionResult(of record: TransactionRecord) -> VerificationResult<Transaction>? {
        SignedValues(store: store, controls: controls).transaction(of: record, origin: self)
    }

    /// The store's signed renewal info of a subscription, verified.
    func renewalInfoResult(originalID: UInt64) -> VerificationResult<Product.SubscriptionInfo.RenewalInfo>? {
        SignedValues(store: store, controls: controls).renewalInfo(originalID: originalID)
    }

    /// The store's signed app transaction of the client's account, verified.
    func appTransactionResult() -> VerificationResult<AppTransaction>? {
        SignedValues(store: store, controls: controls).appTransaction(account: account)
    }
}
