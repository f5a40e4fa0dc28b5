import Foundation
import OpenStoreKit
import ReceiptKit
import StoreModels
import StoreSimulator
import Synchronization
import TestSupport
import Testing

/// Counts the moves of a clock an observation heard, and the last date.
private final class HeardMoves: Sendable {
    private let dates = Mutex<[Date]>([])

    func heard(_ date: Date) { dates.withLock { $0.append(date) } }

    var all: [Date] { dates.withLock { $0 } }
}

@Suite("The store environment behind a queue")
struct StoreEnvironmentTests {
    @Test("A queue's environment is its store: app identity, time, receipt and how to verify it")
    func reportsTheStore() throws {
        let store = SimulatedStore(lane: .manual, app: AppIdentity(bundleIdentifier: "com.example.other"))
        let queue = SKPaymentQueue(store: store, deviceID: "not-a-uuid")
        let payment = SKMutablePayment()
        payment.productIdentifier = "com.example.pro"
        queue.add(payment)
        store.runUntilIdle()
        try store.advance(by: 3_600)

        let environment = queue.environment
        #expect(environment === store)
        #expect(environment.appBundleIdentifier == "com.example.other")
        #expect(environment.now == store.now)
        #expect(environment.ledger == nil)
        let verifier = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true)
        let receipt = try verifier.verify(
            try environment.appReceipt(deviceID: queue.deviceID),
            options: ReceiptVerificationOptions(
                time: .date(environment.now),
                bundleIdentifier: environment.appBundleIdentifier,
                deviceIdentifier: environment.receiptDeviceIdentifier(for: queue.deviceID)
            )
        ).receipt
        #expect(receipt.inAppPurchases.map(\.productIdentifier) == ["com.example.pro"])
        // Another device's identifier does not match this device's receipt.
        #expect(throws: ReceiptError.self) {
            try verifier.verify(
                try environment.appReceipt(deviceID: queue.deviceID),
                options: ReceiptVerificationOptions(
                    time: .date(environment.now),
                    bundleIdentifier: environment.appBundleIdentifier,
                    deviceIdentifier: environment.receiptDeviceIdentifier(for: "another-device")
                )
            )
        }
    }

    @Test("A durable store's environment offers its database")
    func durableLedger() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SimulatedStore(statePath: directory.file("state.sqlite"), lane: .manual)
        defer { try? store.close() }
        #expect(SKPaymentQueue(store: store).environment.ledger != nil)
    }

    @Test("A clock observation hears every move while it is kept, and nothing once it is released")
    func clockObservation() throws {
        let store = SimulatedStore(lane: .manual)
        let environment = SKPaymentQueue(store: store).environment
        let moves = HeardMoves()
        var observation: StoreClockObservation? = environment.observeClock { moves.heard($0) }
        try store.advance(by: 60)
        store.runUntilIdle()
        try store.advance(by: 60)
        store.runUntilIdle()
        #expect(moves.all == [store.now.addingTimeInterval(-60), store.now])
        #expect(observation != nil)

        observation = nil
        try store.advance(by: 60)
        store.runUntilIdle()
        #expect(moves.all.count == 2)
    }

    @Test("The app-side modules import no simulator module", arguments: ["Purchases", "PaywallEvents"])
    func appSideImportsNoSimulator(module: String) throws {
        let folder = RepositoryFiles.root.appendingPathComponent("Sources/\(module)", isDirectory: true)
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(!files.isEmpty)
        for file in files {
            let imports = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .filter { $0.hasPrefix("import ") || $0.contains(" import ") }
            #expect(
                !imports.contains { $0.hasSuffix(" StoreSimulator") },
                "\(file.lastPathComponent) imports StoreSimulator")
        }
    }
}
