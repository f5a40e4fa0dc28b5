import Foundation
import StoreModels
import Synchronization

extension SimulatedStore {
    /// The family an account is in, or `nil`.
    public func family(of account: String = SimulatedStore.defaultAccount) -> String? {
        state.withLock { $0.families[account] }
    }

    /// The accounts of a family, in order; none for a family nobody is in.
    public func familyMembers(_ family: String) -> [String] {
        state.withLock { state in state.families.compactMap { $0.value == family ? $0.key : nil }.sorted() }
    }

    /// Puts an account in a family (Family Sharing), as joining a family on iOS does. A family is made by its first
    /// member and ends with its last; every member is alike (the store has no organizer: who pays is not simulated).
    ///
    /// From then on every shareable purchase of a member (a non-consumable or auto-renewable subscription the catalog
    /// marks `familyShareable`) gives each other member a transaction of its own, ownership `FAMILY_SHARED`, and each
    /// renewal of a shared subscription gives each other member its renewal. On joining, the account gets its
    /// transaction of what the other members own now (their non-consumables, the current period of their active
    /// subscriptions), and they get theirs of what it owns. Consumables, non-renewing subscriptions and products not
    /// marked shareable are never shared. A durable store keeps families in its state file.
    ///
    /// - Throws: `invalidAction` for an empty family name (or one with control characters), or when the account is in
    ///   another family (it leaves that one first: ``leaveFamily(account:)``). Joining the family the account is in
    ///   does nothing.
    public func joinFamily(_ family: String, account: String = SimulatedStore.defaultAccount)
        throws(StoreSimulatorError)
    {
        try joinFamily(family, accounts: [account])
    }

    /// Whether a text can name a family: not empty, no control characters.
    static func isFamilyName(_ name: String) -> Bool {
        !name.isEmpty && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Puts several accounts in a family, in order, as ``joinFamily(_:account:)`` does each: all of them or, when one
    /// cannot join, none.
    ///
    /// - Throws: `invalidAction` for an empty family name or list, or naming the first account that is in another
    ///   family; nothing changed.
    public func joinFamily(_ family: String, accounts: [String]) throws(StoreSimulatorError) {
        guard let first = accounts.first else {
            throw StoreSimulatorError(.invalidAction, "name the accounts to put in family \(family)")
        }
        guard Self.isFamilyName(family) else {
            throw StoreSimulatorError(
                .invalidAction,
                "a family needs a name of one character or more, without control characters; \(first) was not put "
                    + "in a family")
        }
        journal?.begin(.operation(.joinFamily(family, accounts: accounts)))
        defer { journal?.end() }
        let now = clock.now
        try state.withLock { state throws(StoreSimulatorError) in
            for account in accounts {
                guard let current = state.families[account], current != family else { continue }
                throw StoreSimulatorError(
                    .invalidAction,
                    "account \(account) is in family \(current); take it out of that family before putting it in "
                        + "\(family)" + (accounts.count > 1 ? ". No account was put in \(family)." : ""))
            }
            for account in accounts where state.families[account] == nil {
                state.families[account] = family
                state.shareOnJoining(account, at: now)
            }
        }
        familiesInUse.store(true, ordering: .releasing)
        tellChanges()
    }

    /// Takes an account out of its family. Every transaction it has through the family and every transaction the
    /// other members have of its purchases, while they still grant something (a non-consumable, a subscription period
    /// not over), is revoked: a revocation date, `revocationType` `FAMILY_REVOKE`, a ``StoreChange/Kind/familyRevoked``
    /// change, and the member's devices hear it (StoreKit 2's `Transaction.updates`; StoreKit 1's revoked entitlements
    /// when the member no longer has the product). The account's own purchases stay its own.
    ///
    /// - Throws: `invalidAction` when the account is in no family.
    public func leaveFamily(account: String = SimulatedStore.defaultAccount) throws(StoreSimulatorError) {
        journal?.begin(.operation(.leaveFamily(account: account)))
        defer { journal?.end() }
        let now = clock.now
        try state.withLock { state throws(StoreSimulatorError) in
            guard state.families[account] != nil else {
                throw StoreSimulatorError(.invalidAction, "account \(account) is in no family")
            }
            let others = state.familyMembers(of: account)
            state.families[account] = nil
            state.revokeShares(of: [account], at: now) { _, _ in true }
            state.revokeShares(of: others, at: now) { _, purchaser in purchaser == account }
        }
        tellChanges()
    }
}
