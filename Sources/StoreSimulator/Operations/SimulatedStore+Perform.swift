import Foundation
import StoreModels

extension SimulatedStore {
    /// Applies an operation: the one entry point for every change a test, a feed or the control API makes. A durable
    /// store records the operation in its journal before applying it, and replays it through here when the file is
    /// opened again.
    ///
    /// - Parameters:
    ///   - operation: The change to make.
    ///   - report: For ``StoreOperation/advance(to:)``: called with the events of each instant the move handles, as it
    ///     handles them (see ``advance(to:reporting:)``). Other operations do not call it.
    /// - Returns: What the operation made or changed: what the store's method of the same name returns.
    /// - Throws: The error the store's method of the same name throws, with nothing changed.
    @discardableResult
    public func perform(
        _ operation: StoreOperation, reporting report: ([SubscriptionEvent]) -> Void = { _ in }
    ) throws(StoreSimulatorError) -> StoreOperation.Outcome {
        try apply(operation, replaying: false, reporting: report)
    }

    /// Applies an operation; a replay of the journal (`replaying`) does not check the renewal limit of a move of the
    /// clock, since the recorded move was within it when made.
    func apply(
        _ operation: StoreOperation, replaying: Bool, reporting report: ([SubscriptionEvent]) -> Void = { _ in }
    ) throws(StoreSimulatorError) -> StoreOperation.Outcome {
        switch operation {
        case .buyProduct(let productID, let quantity, let account, let username):
            return .transaction(
                try buyProduct(productID, quantity: quantity, account: account, applicationUsername: username))
        case .buyProductForTesting(let productID, let quantity, let account, let username, let options):
            return .transaction(
                try buyProduct(
                    productID, quantity: quantity, account: account, applicationUsername: username, options: options))
        case .approveAskToBuy(let id):
            try approveAskToBuy(id)
        case .declineAskToBuy(let id):
            try declineAskToBuy(id)
        case .refund(let id, let reason, let percentage):
            return .transaction(try refund(id, reason: reason, percentage: percentage))
        case .requestRefund(let id, let reason):
            try requestRefund(id, reason: reason)
        case .declineRefund(let id):
            try declineRefund(id)
        case .reverseRefund(let id):
            return .transaction(try reverseRefund(transactionID: id))
        case .deleteTransaction(let id):
            try deleteTransaction(id)
        case .clearTransactions:
            clearTransactions()
        case .resolveIssue(let id):
            return .transaction(try resolveIssue(id))
        case .expireSubscription(let productID, let account):
            return .subscriptionEvents(try expireSubscription(productID: productID, account: account))
        case .forceRenewal(let productID, let account):
            return .subscriptionEvents(try forceRenewal(productID: productID, account: account))
        case .setAutoRenew(let enabled, let id):
            try setAutoRenew(enabled, transactionID: id)
        case .requestPriceIncreaseConsent(let id):
            try requestPriceIncreaseConsent(id)
        case .consentToPriceIncrease(let id):
            try consentToPriceIncrease(id)
        case .declinePriceIncrease(let id):
            try declinePriceIncrease(id)
        case .showPriceConsent(let account):
            return .priceConsentShown(showPriceConsent(account: account))
        case .advance(let date):
            return .subscriptionEvents(try advance(to: date, limitingRenewals: !replaying, reporting: report))
        case .extendRenewalDate(let originalID, let interval):
            return .subscription(try extendRenewalDate(originalID: originalID, by: interval))
        case .extendRenewalDates(let productID, let interval, let requestIdentifier, let storefronts):
            return .massRenewalExtension(
                try extendRenewalDates(
                    productID: productID, by: interval, requestIdentifier: requestIdentifier,
                    storefrontCountryCodes: storefronts))
        case .setConsumptionInformation(let information, let id):
            try setConsumptionInformation(information, forTransaction: id)
        case .setAppAccountToken(let token, let originalID):
            return .transaction(try setAppAccountToken(token, originalTransactionID: originalID))
        case .finishTransaction(let id):
            try finishTransaction(id)
        case .retentionMessaging(let change):
            try changeRetentionMessaging(change)
        case .joinFamily(let family, let accounts):
            try joinFamily(family, accounts: accounts)
        case .leaveFamily(let account):
            try leaveFamily(account: account)
        case .updateSettings(let settings):
            updateSettings { $0 = settings }
        case .updateAccountSettings(let account, let settings):
            updateAccountSettings(account) { $0 = settings }
        case .reconfigure(let configuration):
            reconfigure(configuration)
        case .script(let outcome, let productID):
            script(outcome, forProduct: productID)
        case .setHistoryRetention(let retention):
            historyRetention = retention
        case .setReceiptExpired(let expired, let deviceID):
            setReceiptExpired(expired, deviceID: deviceID)
        }
        return .done
    }
}
