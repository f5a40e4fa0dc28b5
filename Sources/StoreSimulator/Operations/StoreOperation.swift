public import Foundation
public import StoreModels

/// A change a test, a feed or the server's control API makes to a store, with its parameters: the one list of them.
///
/// ``SimulatedStore/perform(_:reporting:)`` applies an operation; a durable store records it in its journal before
/// applying it, and opening the file replays it through the same entry point. The store's methods of the same names
/// (``SimulatedStore/refund(_:reason:percentage:)``, ``SimulatedStore/advance(to:)``, …) are the same operations, for code that
/// calls them directly. What a device does through its connection (adding a payment, finishing, restoring) is not in
/// this list: an app makes those through StoreKit. A developer's server finishing a transaction on every device
/// (``finishTransaction(_:)``) is.
///
/// ```swift
/// try store.perform(.buyProduct(productID: "com.example.pro", account: "alice"))
/// try store.perform(.advance(to: store.now.addingTimeInterval(31 * 86_400)))
/// ```
///
/// Adding an operation is one case here, its rule in the store, its tag in the journal (`StoreCommand`, never
/// reused), and the places that parse it from a feed or from the control API's JSON.
public enum StoreOperation: Sendable, Equatable {
    /// A purchase made outside the app (another device, the App Store, a web checkout): see
    /// ``SimulatedStore/buyProduct(_:quantity:account:applicationUsername:options:)``.
    case buyProduct(
        productID: String, quantity: Int = 1, account: String = SimulatedStore.defaultAccount,
        applicationUsername: String? = nil)
    /// A purchase made outside the app with StoreKit Test's purchase options (a date in the past, an offer):
    /// ``SimulatedStore/buyProduct(_:quantity:account:applicationUsername:options:)``.
    case buyProductForTesting(
        productID: String, quantity: Int = 1, account: String = SimulatedStore.defaultAccount,
        applicationUsername: String? = nil, options: TestPurchaseOptions)
    /// Approves a pending Ask to Buy request: ``SimulatedStore/approveAskToBuy(_:)``.
    case approveAskToBuy(UInt64)
    /// Declines a pending Ask to Buy request: ``SimulatedStore/declineAskToBuy(_:)``.
    case declineAskToBuy(UInt64)
    /// Refunds a transaction at once, in full or, with a percentage (thousandths of a percent), prorated:
    /// ``SimulatedStore/refund(_:reason:percentage:)``.
    case refund(UInt64, reason: TransactionRecord.RevocationReason = .other, percentage: Int? = nil)
    /// A customer's refund request, waiting for Apple's decision: ``SimulatedStore/requestRefund(_:reason:)``.
    case requestRefund(UInt64, reason: RefundRequestReason = .unsatisfiedWithPurchase)
    /// Declines a refund request: ``SimulatedStore/declineRefund(_:)``.
    case declineRefund(UInt64)
    /// Reverses a refund: ``SimulatedStore/reverseRefund(transactionID:)``.
    case reverseRefund(UInt64)
    /// Deletes a transaction and what descends from it: ``SimulatedStore/deleteTransaction(_:)``.
    case deleteTransaction(UInt64)
    /// Removes every transaction: ``SimulatedStore/clearTransactions()``.
    case clearTransactions
    /// Ends a subscription's billing issue: ``SimulatedStore/resolveIssue(_:)``.
    case resolveIssue(UInt64)
    /// Ends a subscription now: ``SimulatedStore/expireSubscription(productID:account:)``.
    case expireSubscription(productID: String, account: String = SimulatedStore.defaultAccount)
    /// Renews a subscription now: ``SimulatedStore/forceRenewal(productID:account:)``.
    case forceRenewal(productID: String, account: String = SimulatedStore.defaultAccount)
    /// Turns a subscription's automatic renewal on or off: ``SimulatedStore/setAutoRenew(_:transactionID:)``.
    case setAutoRenew(Bool, transactionID: UInt64)
    /// Asks for consent to a price increase: ``SimulatedStore/requestPriceIncreaseConsent(_:)``.
    case requestPriceIncreaseConsent(UInt64)
    /// Consents to a price increase: ``SimulatedStore/consentToPriceIncrease(_:)``.
    case consentToPriceIncrease(UInt64)
    /// Declines a price increase: ``SimulatedStore/declinePriceIncrease(_:)``.
    case declinePriceIncrease(UInt64)
    /// Shows an account's pending price-consent sheets: ``SimulatedStore/showPriceConsent(account:)``.
    case showPriceConsent(account: String = SimulatedStore.defaultAccount)
    /// Moves the clock, handling every subscription event on the way: ``SimulatedStore/advance(to:)``.
    case advance(to: Date)
    /// Extends one subscription's renewal date: ``SimulatedStore/extendRenewalDate(originalID:by:)``.
    case extendRenewalDate(originalID: UInt64, by: TimeInterval)
    /// Extends the renewal date of every active subscription to a product (Apple's mass extension):
    /// ``SimulatedStore/extendRenewalDates(productID:by:requestIdentifier:storefrontCountryCodes:)``.
    case extendRenewalDates(
        productID: String, by: TimeInterval, requestIdentifier: String, storefrontCountryCodes: [String]? = nil)
    /// Keeps the consumption information a backend sent for a transaction:
    /// ``SimulatedStore/setConsumptionInformation(_:forTransaction:)``.
    case setConsumptionInformation(ConsumptionInformation, transactionID: UInt64)
    /// Sets the app account token of a purchase, as the App Store Server API's Set App Account Token does:
    /// ``SimulatedStore/setAppAccountToken(_:originalTransactionID:)``.
    case setAppAccountToken(UUID, originalTransactionID: UInt64)
    /// Finishes a transaction on every device that holds it unfinished, as the App Store Server API's Finish
    /// Transaction does: ``SimulatedStore/finishTransaction(_:)``.
    case finishTransaction(UInt64)
    /// Changes the app's Retention Messaging (what the Retention Messaging API sets up, a test's review of it, a
    /// customer opening a subscription's cancellation flow): ``SimulatedStore/changeRetentionMessaging(_:)``.
    case retentionMessaging(RetentionMessagingChange)
    /// Puts accounts in a family, all of them or none: ``SimulatedStore/joinFamily(_:accounts:)``.
    case joinFamily(String, accounts: [String])
    /// Takes an account out of its family: ``SimulatedStore/leaveFamily(account:)``.
    case leaveFamily(account: String = SimulatedStore.defaultAccount)
    /// Replaces the store's settings: ``SimulatedStore/updateSettings(_:)`` with these settings.
    case updateSettings(StoreSettings)
    /// Replaces an account's settings: ``SimulatedStore/updateAccountSettings(_:_:)`` with these settings.
    case updateAccountSettings(account: String, AccountSettings)
    /// Replaces the catalog and the settings: ``SimulatedStore/reconfigure(_:)``.
    case reconfigure(StoreConfiguration)
    /// Chooses the outcome of a coming purchase: ``SimulatedStore/script(_:forProduct:)``.
    case script(ScriptedOutcome, productID: String? = nil)
    /// Sets how much history receipts keep: ``SimulatedStore/historyRetention``.
    case setHistoryRetention(HistoryRetention)
    /// Makes a device's receipt expired or valid again: ``SimulatedStore/setReceiptExpired(_:deviceID:)``.
    case setReceiptExpired(Bool, deviceID: String)
}
