import Foundation
import OpenStoreKit
import ReceiptKit
import StoreModels
import StoreSimulator

/// Checks a feed's `expect` steps and words each mismatch as the step's failure message.
///
/// It reads what the app heard from the world model and asks the store for the store's facts (access, history,
/// charges, receipts, StoreKit 2's answers); it never works a store fact out itself.
final class FeedExpectationChecker {
    let world: FeedWorld
    /// What the app heard, for the server's notifications as they settle.
    let recorder: FeedRecorder
    /// How many expectations were checked.
    private(set) var expectations = 0
    /// How many of the server's notifications `expect notification` steps matched.
    var notificationsMatched = 0

    init(world: FeedWorld, recorder: FeedRecorder) {
        self.world = world
        self.recorder = recorder
    }

    /// Checks one expectation; returns a failure message, or nil.
    func check(_ expectation: FeedStep.Expectation) -> String? {
        expectations += 1
        func transaction(_ reference: FeedStep.Reference) -> FeedWorld.Tracked? { world.heard(reference) }
        func names(_ states: [TransactionState]) -> String { states.map(\.name).joined(separator: " ") }
        let account = world.currentUser
        switch expectation {
        case .states(let reference, let expected):
            let seen = transaction(reference)?.states ?? []
            return seen == expected
                ? nil : "expected states \(names(expected)), observed \(seen.isEmpty ? "none" : names(seen))"
        case .state(let reference, let expected):
            let seen = transaction(reference)?.states.last
            return seen == expected ? nil : "expected state \(expected.name), observed \(seen?.name ?? "none")"
        case .removed(let reference):
            return transaction(reference)?.removed == true
                ? nil : "expected \(reference) removed from the queue; it was not"
        case .error(let reference, let code):
            let seen = transaction(reference)?.error
            return seen == code ? nil : "expected error \(code.name), observed \(seen?.name ?? "none")"
        case .restoreFinished:
            guard let restore = world.devices[world.currentSeat]?.restore else {
                return "expected the restore to finish; it has not ended"
            }
            return restore.finished
                ? nil : "expected the restore to finish; it failed with \(restore.failure?.name ?? "unknown")"
        case .restoreFailed(let code):
            guard let restore = world.devices[world.currentSeat]?.restore else {
                return "expected the restore to fail; it has not ended"
            }
            guard !restore.finished else { return "expected the restore to fail; it finished" }
            return code == nil || code == restore.failure
                ? nil : "expected restore error \(code?.name ?? ""), observed \(restore.failure?.name ?? "unknown")"
        case .unfinished(let count):
            let seen = world.devices[world.currentSeat]?.queue.transactions.count ?? 0
            return seen == count ? nil : "expected \(count) unfinished transactions, found \(seen)"
        case .owned(let product, let expected):
            let owned = world.store.access(to: product, account: account).hasAccess
            return owned == expected
                ? nil
                : "expected \(product) \(expected ? "owned" : "not owned"), it is \(owned ? "owned" : "not owned")"
        case .subscribed(let product, let expected, let until):
            // Subscribed: access that ends by time (a subscription period or a grace period), not lifetime access.
            let access = world.store.access(to: product, account: account)
            let active = access.hasAccess && access.expiresAt != nil
            guard active == expected else {
                return
                    "expected \(product) \(expected ? "active" : "inactive"), it is \(active ? "active until \(ISO8601.format(access.expiresAt ?? world.clock.now))" : "inactive")"
            }
            if let until, access.expiresAt != until {
                return
                    "expected \(product) active until \(ISO8601.format(until)), it is active until \(access.expiresAt.map(ISO8601.format) ?? "-")"
            }
            return nil
        case .access(let product, let expected):
            let access = world.store.access(to: product, account: account)
            return access.hasAccess == expected
                ? nil
                : "expected access to \(product) \(expected ? "on" : "off"), it is \(access.hasAccess ? "on" : "off") (\(access.phase.rawValue))"
        case .revoked(let product):
            return world.devices[world.currentSeat]?.revoked.contains(product) == true
                ? nil : "expected \(product) revoked; the app heard no revocation"
        case .history(let count):
            let seen = world.store.allTransactions().count
            return seen == count ? nil : "expected \(count) transactions in the store's history, found \(seen)"
        case .renewals(let product, let count):
            let seen = world.renewals[account + "\n" + product] ?? 0
            return seen == count ? nil : "expected \(product) renewed \(count) times, renewed \(seen)"
        case .phase(let product, let expected):
            let seen = world.store.access(to: product, account: account).phase
            return seen == expected ? nil : "expected \(product) \(expected.rawValue), it is \(seen.rawValue)"
        case .receiptVerifies:
            switch verifiedReceipt() {
            case .success: return nil
            case .failure(let error): return "expected the receipt to verify: \(error.message)"
            }
        case .receiptEntries(let product, let count):
            switch verifiedReceipt() {
            case .success(let receipt):
                let seen = receipt.inAppPurchases.filter { $0.productIdentifier == product }.count
                return seen == count ? nil : "expected \(count) receipt entries for \(product), found \(seen)"
            case .failure(let error): return "the receipt does not verify: \(error.message)"
            }
        case .receiptCancelled(let product):
            switch verifiedReceipt() {
            case .success(let receipt):
                let latest = receipt.inAppPurchases.filter { $0.productIdentifier == product }.max {
                    $0.purchaseDate < $1.purchaseDate
                }
                guard let latest else { return "the receipt lists no \(product)" }
                return latest.cancellationDate == nil ? "expected \(product) cancelled in the receipt; it is not" : nil
            case .failure(let error): return "the receipt does not verify: \(error.message)"
            }
        case .charged(let product, let count):
            let seen = world.store.transactions(of: account).filter {
                $0.productID == product && $0.state == .purchased
            }
            .count
            return seen == count ? nil : "expected \(product) charged \(count) times, charged \(seen)"
        case .notification(let expectation):
            return checkNotification(expectation)
        case .paywall(let expectation):
            return checkPaywall(expectation)
        case .storeKit2(let expectation):
            return checkStoreKit2(expectation)
        case .receiptField, .receiptEntryField, .noRevocation, .restoreCount, .heardUpdates, .order, .original,
            .exception, .noException,
            .paid, .delegateAsked, .delegateAskedPriceConsent:
            return checkObservation(expectation)
        }
    }

    /// The current user's app receipt, verified against the test root for the store's app and the user's device.
    func verifiedReceipt() -> Result<AppReceipt, ReceiptError> {
        guard let deviceID = world.devices[world.currentSeat]?.queue.deviceID else {
            return .failure(ReceiptError(.missingPayload, "no device"))
        }
        do throws(ReceiptError) {
            let bytes = try world.store.appReceipt(deviceID: deviceID)
            let verifier = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true)
            let options = ReceiptVerificationOptions(
                time: .date(world.clock.now),
                bundleIdentifier: world.store.app.bundleIdentifier,
                deviceIdentifier: SimulatedStore.deviceIdentifier(for: deviceID)
            )
            return .success(try verifier.verify(bytes, options: options).receipt)
        } catch {
            return .failure(error)
        }
    }

    /// "once", "twice" or "N times".
    static func times(_ count: Int) -> String {
        switch count {
        case 1: "once"
        case 2: "twice"
        default: "\(count) times"
        }
    }
}
