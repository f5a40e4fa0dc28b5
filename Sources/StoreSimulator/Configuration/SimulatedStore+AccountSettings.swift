import Foundation
import StoreModels
import Synchronization

extension SimulatedStore {
    /// The settings an account carries itself; settings it does not carry are `nil` (the store-wide ones apply).
    public func accountSettings(_ account: String = SimulatedStore.defaultAccount) -> AccountSettings {
        state.withLock { $0.accountSettings[account] ?? AccountSettings() }
    }

    /// Changes the settings an account carries itself, as a parent does for a child's account on iOS. Set a setting
    /// to `nil` for the account to follow the store-wide one again. A durable store keeps them in its state file.
    /// Neither ``resetSettings()`` nor ``reconfigure(_:)`` changes them: they belong to the account, not to the
    /// store's configuration.
    public func updateAccountSettings(
        _ account: String = SimulatedStore.defaultAccount, _ change: (inout AccountSettings) -> Void
    ) {
        journal?.enter()
        defer { journal?.end() }
        let settings = state.withLock { state -> AccountSettings in
            var settings = state.accountSettings[account] ?? AccountSettings()
            change(&settings)
            state.accountSettings[account] = settings.followsStore ? nil : settings
            return settings
        }
        journal?.record(.operation(.updateAccountSettings(account: account, settings)))
    }

    /// Whether an account may make payments (`SKPaymentQueue.canMakePayments()` on its devices): its own setting,
    /// else ``StoreSettings/paymentsAllowed``. Purchases and restores of an account that may not fail with
    /// `paymentNotAllowed`.
    public func paymentsAllowed(account: String = SimulatedStore.defaultAccount) -> Bool {
        state.withLock { $0.paymentsAllowed(account: account) }
    }

    /// Whether an account's purchases ask a parent: its own setting, else ``StoreSettings/askToBuyEnabled``.
    public func askToBuyEnabled(account: String = SimulatedStore.defaultAccount) -> Bool {
        state.withLock { $0.askToBuyEnabled(account: account) }
    }
}
