import Foundation
import StoreModels
import StoreSimulator
import Synchronization
import Testing

/// A listener that writes down each decision it hears, with its record, and every other event.
private final class DecisionLog: DeviceListener, Sendable {
    private let log = Mutex<(decisions: [(DeviceTransaction, TransactionRecord?)], events: [DeviceEvent])>(([], []))

    var decisions: [(DeviceTransaction, TransactionRecord?)] { log.withLock { $0.decisions } }
    var events: [DeviceEvent] { log.withLock { $0.events } }

    func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {
        log.withLock { $0.events.append(event) }
    }

    func connection(
        _ connection: DeviceConnection, didDecide transaction: DeviceTransaction, record: TransactionRecord?
    ) {
        log.withLock { $0.decisions.append((transaction, record)) }
    }
}

@Suite("The decision of a payment, with its record; the signed transactions the store keeps")
struct DecisionRecordTests {
    @Test("A purchase's decision carries the record it reports, as the store keeps it; a failed one carries none")
    func decisionCarriesRecord() throws {
        let store = SimulatedStore(lane: .manual)
        let log = DecisionLog()
        let connection = store.connect(deviceID: "phone", frontEnd: "tests", listener: log)
        let bought = connection.submit(PaymentRequest(productID: "com.example.pro"))
        let refused = connection.submit(PaymentRequest(productID: "com.example.unknown"))
        store.runUntilIdle()
        let decisions = log.decisions
        try #require(decisions.count == 2)
        #expect(decisions[0].0 == connection.unfinishedTransaction(bought))
        #expect(decisions[0].0.state == .purchased)
        let record = try #require(decisions[0].1)
        #expect(record == store.transaction(try #require(decisions[0].0.recordID)))
        #expect(decisions[1].0.id == refused && decisions[1].0.state == .failed)
        #expect(decisions[1].1 == nil)
        #expect(log.events.count == 2, "each payment's .purchasing report, as .updated; the decisions came apart")
        // The record signs as the store's own does: the same JWS, from the same cache.
        #expect(try store.signedTransactionValue(of: record) == store.signedTransactionValue(record.id))
    }

    @Test("Finished consumables' records leave the history; the JWS of the records kept are handed out unchanged")
    func signedTransactionsOfDroppedRecords() throws {
        let store = SimulatedStore(lane: .manual, retention: .receiptOnly)
        let log = DecisionLog()
        let connection = store.connect(deviceID: "phone", frontEnd: "tests", listener: log)
        let pro = connection.submit(PaymentRequest(productID: "com.example.pro"))
        store.runUntilIdle()
        let kept = try store.signedTransaction(try #require(connection.unfinishedTransaction(pro)?.recordID))
        // More consumables than the cache holds before it looks for records the store dropped.
        for _ in 0..<1_100 {
            let id = connection.submit(PaymentRequest(productID: "com.example.coins100"))
            store.runUntilIdle()
            let record = try #require(log.decisions.last?.1)
            _ = try store.signedTransactionValue(of: record)
            connection.finish(id)
            store.runUntilIdle()
            #expect(store.transaction(record.id) == nil, "a finished consumable leaves a receipt-only history")
        }
        #expect(try store.signedTransaction(try #require(connection.unfinishedTransaction(pro)?.recordID)) == kept)
    }
}
