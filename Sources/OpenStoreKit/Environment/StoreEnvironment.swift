public import Foundation
public import Ledger
public import ReceiptKit
public import StoreModels

/// What app-side code (a purchase module, a paywall library) needs from the store behind a payment queue, and nothing
/// more: the app receipt and what verifying it checks, the store's time and its moves, the billing state receipts do
/// not carry, the app's identity, and the store's own database when it has one.
///
/// App-side code reaches it through ``SKPaymentQueue/environment`` and never names the store's concrete type. The
/// simulated store implements it; another store (a fake of a test's own, a bridge to a real server) can too.
public protocol StoreEnvironment: AnyObject, Sendable {
    /// The store's clock: what "now" is for receipts, expiries and scheduled work.
    var clock: any StoreClock { get }

    /// The bundle identifier of the app the store sells to, which its receipts name.
    var appBundleIdentifier: String { get }

    /// The app receipt of a device as it stands now, signed.
    ///
    /// - Throws: `ReceiptError` if it cannot be signed.
    func appReceipt(deviceID: String) throws(ReceiptError) -> [UInt8]

    /// The identifier of a device as its receipts hash it: what a verifier checks a receipt's device hash against.
    func receiptDeviceIdentifier(for deviceID: String) -> DeviceIdentifier

    /// The billing state of an account's subscriptions whose renewal failed, by the product of the current period:
    /// what a server learns from App Store notifications and receipts do not say.
    func billing(of account: String) -> [String: ProductAccess.Billing]

    /// The store's own database, when the store is durable; `nil` for a store in memory.
    var ledger: LedgerDatabase? { get }

    /// Calls `onMove` with the time the clock shows each time it moves, for as long as the returned observation is
    /// kept: the store holds it weakly. Calls come after the move is over, in the order of the moves.
    func observeClock(_ onMove: @escaping @Sendable (Date) -> Void) -> StoreClockObservation
}

extension StoreEnvironment {
    /// The time the store's clock shows.
    public var now: Date { clock.now }
}
