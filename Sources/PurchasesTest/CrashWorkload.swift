import Foundation
import Ledger
import OpenStoreKit
import Purchases
import StoreModels
import StoreSimulator
import Synchronization

/// The workload of `openstorekit crash-workload`, the child process of the crash test: an app with a
/// `PurchaseController` on a durable store, granting content into the store's own database, driven by a seeded
/// random plan of purchases, renewals, restores and purchases made elsewhere. It can be killed at any instant and
/// started again on the same state file: it goes on from the last acknowledged step.
///
/// What it keeps in the state file besides the store:
/// - log `grants`: one entry per grant, `<transaction id> <product> <source>`, written in the same commit as the
///   delivery record (`LedgerDeliveryJournal.deliver`), so a transaction is granted at most once;
/// - meta `coins`: the consumable balance;
/// - meta `workload.step`: the number of acknowledged steps.
///
/// Each acknowledged step prints one line, `ack <step> <action>`, after everything it did is committed, and each
/// grant one line, `granted <transaction id>`, once it is committed and before the transaction is finished.
public struct CrashWorkload: Sendable {
    /// The meta key of the number of acknowledged steps.
    static let stepKey = "workload.step"
    /// The log of grants.
    static let grantsLog = "grants"
    /// The device the app runs on.
    static let deviceID = "crash-device"
    /// Coins a consumable grants, per unit.
    static let coinsPerPurchase: Int64 = 100

    let statePath: String
    let seed: UInt64
    let steps: Int
    let commitEvery: Int
    let compactEvery: Int?
    /// Whether the file is written in store format 1 (as earlier releases did) instead of migrated.
    let writesFirstFormat: Bool
    let print: @Sendable (String) -> Void

    /// Creates a workload.
    ///
    /// - Parameters:
    ///   - statePath: the state file (or a server database's URL, as `SimulatedStore(database:)` takes it), made when
    ///     missing, gone on with when it holds an earlier run.
    ///   - seed: chooses the plan.
    ///   - steps: how many steps the plan has; a run goes on to the end from the last acknowledged one.
    ///   - commitEvery: commit every change (1) or in groups of this many changes.
    ///   - compactEvery: after how many changes the store compacts its journal into its tables, or `nil` for never.
    ///   - writesFirstFormat: write the file in store format 1, as earlier releases did, instead of the current one.
    ///   - print: receives each output line, without its line feed.
    public init(
        statePath: String, seed: UInt64, steps: Int, commitEvery: Int, compactEvery: Int?,
        writesFirstFormat: Bool = false, print: @escaping @Sendable (String) -> Void
    ) {
        self.statePath = statePath
        self.seed = seed
        self.steps = steps
        self.commitEvery = commitEvery
        self.compactEvery = compactEvery
        self.writesFirstFormat = writesFirstFormat
        self.print = print
    }

    /// Why the workload stopped early.
    public struct Failure: Error {
        /// What went wrong; a broken promise of the delivery audit starts with `delivery audit`.
        public let message: String
    }

    /// Runs the plan from the last acknowledged step to the end.
    ///
    /// - Throws: ``Failure`` when the state file cannot be used or the delivery audit finds a broken promise.
    public func run() throws(Failure) {
        var durability = StoreDurability(
            commit: commitEvery <= 1 ? .everyChange : .group(every: commitEvery), compactEvery: compactEvery)
        durability.writesFirstFormat = writesFirstFormat
        let store: SimulatedStore
        // A kill right after this line lands while the file is opened (read, replayed, migrated); after `migrating`
        // or `compacting`, while the store rewrites the file.
        let moments = self.print
        StateFileMoments.observer.withLock { $0 = { moments($0.rawValue) } }
        print("opening")
        do {
            store = try SimulatedStore(database: statePath, durability: durability, lane: .manual)
        } catch {
            throw Failure(message: error.detail)
        }
        guard let ledger = store.ledger else { throw Failure(message: "the store has no database") }
        let journal = LedgerDeliveryJournal(database: ledger, clock: store.clock)
        let queue = SKPaymentQueue(store: store, deviceID: Self.deviceID)
        let audit = DeliveryAudit(queue: queue, journal: journal)
        let print = self.print
        let controller = PurchaseController(queue: queue, journal: audit) { delivery in
            let granted = try journal.deliver(delivery.transactionID) { txn in
                let entry = "\(delivery.transactionID) \(delivery.productID) \(delivery.source.rawValue)"
                try txn.appendLog(Array(entry.utf8), to: Self.grantsLog)
                if delivery.productID == "com.example.coins100" {
                    try txn.incrementMeta(forKey: "coins", by: Self.coinsPerPurchase * Int64(delivery.quantity))
                }
            }
            // Acknowledged (committed), not yet finished: a kill right after this line hits that window.
            if granted { print("granted \(delivery.transactionID)") }
        }
        // Loading the products runs the lane: transactions left unfinished by a killed run are delivered and
        // finished, and a purchase that was in progress goes on.
        controller.loadProducts(["com.example.coins100", "com.example.pro", "com.example.premium.monthly"]) { _ in }
        store.runUntilIdle()
        let first: Int
        do {
            first = Int(try ledger.read { txn in try txn.metaInteger(forKey: Self.stepKey) } ?? 0)
        } catch {
            throw Failure(message: "cannot read the step counter: \(error)")
        }
        // A counter altered by hand is refused; one past `steps` (a run asked for fewer steps than done) runs none.
        guard first >= 0 else { throw Failure(message: "the step counter \(Self.stepKey) is \(first), below 0") }
        print("start \(first)")
        for step in first..<max(first, steps) {
            let action = perform(step: step, store: store, controller: controller)
            store.runUntilIdle()
            do {
                try store.flush()
                try ledger.write { txn in try txn.setMeta(Int64(step + 1), forKey: Self.stepKey) }
            } catch {
                throw Failure(message: "step \(step) could not be committed: \(error)")
            }
            if let violation = audit.violations.first {
                throw Failure(message: "delivery audit: \(violation)")
            }
            print("ack \(step) \(action)")
        }
        do {
            try store.close()
        } catch {
            throw Failure(message: error.detail)
        }
        print("done \(steps)")
    }

    /// Carries out one step of the plan; the plan depends only on the seed, the step and the store's state.
    private func perform(step: Int, store: SimulatedStore, controller: PurchaseController) -> String {
        var random = SeededRandom(seed: seed &+ UInt64(step) &* 0x9E37_79B9)
        let roll = random.next() % 100
        let history = store.transactions()
        let ownsPro = history.contains { $0.productID == "com.example.pro" && $0.isOwned }
        let subscribed = store.subscription(groupID: "premium")?.grantsAccess == true
        switch roll {
        case 0..<60:
            let quantity = Int(random.next() % 3) + 1
            controller.purchase(productID: "com.example.coins100", quantity: quantity) { _ in }
            return "buy coins x\(quantity)"
        case 60..<68 where !ownsPro:
            controller.purchase(productID: "com.example.pro") { _ in }
            return "buy pro"
        case 68..<76 where !subscribed:
            controller.purchase(productID: "com.example.premium.monthly") { _ in }
            return "subscribe"
        case 76..<88:
            let days = Int(random.next() % 40) + 1
            _ = try? store.advance(by: Double(days) * 86_400)  // at most 40 days: within every limit
            return "advance \(days)d"
        case 88..<94:
            controller.restore { _ in }
            return "restore"
        default:
            _ = try? store.buyProduct("com.example.coins100")
            return "buy elsewhere"
        }
    }
}
