import Foundation

/// The settings an App Store account carries itself, as a child's account does on iOS: whether it may make payments
/// and whether its purchases ask a parent. Each one is `nil` while the account follows the store-wide setting
/// (``StoreSettings/paymentsAllowed``, ``StoreSettings/askToBuyEnabled``).
public struct AccountSettings: Sendable, Hashable, Codable {
    /// Whether the account may make payments; `nil`: as ``StoreSettings/paymentsAllowed`` says.
    public var paymentsAllowed: Bool?
    /// Whether the account's purchases ask a parent; `nil`: as ``StoreSettings/askToBuyEnabled`` says.
    public var askToBuyEnabled: Bool?

    /// Settings that follow the store-wide ones.
    public init(paymentsAllowed: Bool? = nil, askToBuyEnabled: Bool? = nil) {
        self.paymentsAllowed = paymentsAllowed
        self.askToBuyEnabled = askToBuyEnabled
    }

    /// Whether every setting follows the store-wide one.
    public var followsStore: Bool { paymentsAllowed == nil && askToBuyEnabled == nil }
}
