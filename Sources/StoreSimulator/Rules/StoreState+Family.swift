import Foundation
import StoreModels

extension StoreState {
    /// The other accounts of an account's family, in order; none when it is in no family.
    func familyMembers(of account: String) -> [String] {
        guard let family = families[account] else { return [] }
        return families.compactMap { $0.value == family && $0.key != account ? $0.key : nil }.sorted()
    }

    /// Whether a record is shared with its account's family: the account's own purchase, standing (purchased, not
    /// revoked, a subscription period not replaced or over at `now`) of a non-consumable or auto-renewable
    /// subscription the catalog marks shareable.
    func isShareable(_ record: TransactionRecord, at now: Date) -> Bool {
        guard record.sharedFromID == nil, isStanding(record, at: now) else { return false }
        switch record.productType {
        case .nonConsumable, .autoRenewableSubscription:
            return configuration.catalog.product(record.productID)?.isFamilyShareable ?? false
        case .consumable, .nonRenewingSubscription:
            return false
        }
    }

    /// Whether a record still grants something at `now`: owned, and for a subscription period, not replaced and not
    /// over.
    func isStanding(_ record: TransactionRecord, at now: Date) -> Bool {
        guard record.isOwned else { return false }
        guard record.productType == .autoRenewableSubscription else { return true }
        return !record.isUpgraded && (record.expirationDate ?? .distantFuture) > now
    }

    /// Gives every other member of the purchaser's family a transaction of its own for a shareable record, each
    /// reported as `kind` on the member's account and sent to the member's devices. Does nothing (and reads nothing
    /// but one count) while the store has no families.
    mutating func shareWithFamily(_ recordID: UInt64, as kind: StoreChange.Kind, at now: Date) {
        guard !families.isEmpty, let record = records[recordID], families[record.account] != nil,
            isShareable(record, at: now)
        else { return }
        for member in familyMembers(of: record.account) { share(record, with: member, as: kind, at: now) }
    }

    /// Gives `member` its transaction of a purchaser's record, unless it has one still standing: its own identifier, ownership
    /// `FAMILY_SHARED`, the same product, dates and expiration. The original identifier is the member's first shared
    /// transaction of the purchaser's subscription (its own chain), or the transaction itself.
    mutating func share(_ record: TransactionRecord, with member: String, as kind: StoreChange.Kind, at now: Date) {
        let held = records(of: member)
        guard !held.contains(where: { $0.sharedFromID == record.id && isStanding($0, at: now) }) else { return }
        let id = allocateTransactionID()
        var chain: UInt64?
        if record.productType == .autoRenewableSubscription {
            chain =
                held.first { mine in
                    mine.sharedFromID.flatMap { records[$0]?.originalID } == record.originalID
                }?.originalID
        }
        var shared = TransactionRecord(
            id: id, originalID: chain ?? id, account: member, productID: record.productID,
            productType: record.productType, quantity: record.quantity, state: .purchased,
            purchaseDate: record.purchaseDate, originalPurchaseDate: record.originalPurchaseDate,
            expirationDate: record.expirationDate, webOrderLineItemID: record.webOrderLineItemID,
            isTrialPeriod: record.isTrialPeriod, isInIntroOfferPeriod: record.isInIntroOfferPeriod,
            promotionalOfferID: record.promotionalOfferID, autoRenewEnabled: record.autoRenewEnabled)
        shared.isRenewal = record.isRenewal
        shared.sharedFromID = record.id
        records[id] = shared
        report(kind, at: now, transactionID: id, subscription: nil)
        var transaction = DeviceTransaction(
            id: id, payment: PaymentRequest(productID: record.productID, quantity: record.quantity), state: .purchased)
        transaction.transactionDate = record.purchaseDate
        transaction.recordID = id
        if shared.originalID != id { transaction.originalID = shared.originalID }
        for deviceID in devices.ids(of: member) {
            devices[deviceID]?.otherDevicePurchases.append(transaction)
            familyOutbox.append((deviceID, .purchasedOnOtherDevice([transaction])))
        }
    }

    /// Brings the members' transactions of a purchaser's record in line with it after the store changed its
    /// expiration (an extension, an expiry by a test) or replaced it (an upgrade).
    mutating func mirrorShares(of recordID: UInt64) {
        guard !families.isEmpty, let record = records[recordID], families[record.account] != nil else { return }
        for member in familyMembers(of: record.account) {
            for var shared in records(of: member) where shared.sharedFromID == recordID {
                shared.expirationDate = record.expirationDate
                shared.autoRenewEnabled = record.autoRenewEnabled
                if record.isUpgraded, !shared.isUpgraded {
                    shared.isUpgraded = true
                    shared.cancellationDate = shared.cancellationDate ?? record.cancellationDate
                }
                records[shared.id] = shared
            }
        }
    }

    /// Revokes the standing shared transactions of `accounts` that satisfy `matches` (given the shared transaction
    /// and the account of the purchaser's transaction it shares, when the history still holds it): each gets a revocation date
    /// (`revocationType` `FAMILY_REVOKE`), is reported as ``StoreChange/Kind/familyRevoked``, and the member's devices
    /// hear it refunded (StoreKit 2's `Transaction.updates`) and, when the member no longer has the product, revoked.
    mutating func revokeShares(
        of accounts: [String], at now: Date, where matches: (TransactionRecord, String?) -> Bool
    ) {
        for account in accounts {
            var revoked: [UInt64] = []
            var products: [String] = []
            for var shared in records(of: account)
            where shared.isFamilyShared && isStanding(shared, at: now)
                && matches(shared, shared.sharedFromID.flatMap { records[$0]?.account })
            {
                shared.cancellationDate = now
                records[shared.id] = shared
                revoked.append(shared.id)
                report(.familyRevoked, at: now, transactionID: shared.id, subscription: nil)
                if !products.contains(shared.productID) { products.append(shared.productID) }
            }
            guard !revoked.isEmpty else { continue }
            let lost = products.filter { product in
                !records(of: account).contains { $0.productID == product && isStanding($0, at: now) }
            }
            for deviceID in devices.ids(of: account) {
                if !lost.isEmpty { familyOutbox.append((deviceID, .entitlementsRevoked(lost))) }
                familyOutbox.append((deviceID, .refunded(revoked)))
            }
        }
    }

    /// Revokes the members' standing transactions of a purchaser's record (refunded).
    mutating func revokeShares(of recordID: UInt64, at now: Date) {
        guard !families.isEmpty, let record = records[recordID], families[record.account] != nil else { return }
        revokeShares(of: familyMembers(of: record.account), at: now) { shared, _ in
            shared.sharedFromID == recordID
        }
    }

    /// Shares the standing shareable purchases of `account` with the rest of its family, and theirs with it: what a
    /// new member gets on joining. A subscription shares its current period.
    mutating func shareOnJoining(_ account: String, at now: Date) {
        let others = familyMembers(of: account)
        for giver in [account] + others {
            let takers = giver == account ? others : [account]
            for record in records(of: giver) where isShareable(record, at: now) {
                let kind: StoreChange.Kind =
                    record.productType == .autoRenewableSubscription
                    ? .subscribed(resubscribed: false) : .oneTimePurchase
                for taker in takers { share(record, with: taker, as: kind, at: now) }
            }
        }
    }
}
