import Foundation
import OpenStoreKit
import StoreModels
import StoreSimulator
import Synchronization
import Testing

/// A queue delegate that answers `paymentQueueShouldShowPriceConsent(_:)` as told and counts the questions.
private final class ConsentDelegate: NSObject, SKPaymentQueueDelegate, Sendable {
    let answer: Bool
    private let count = Mutex(0)

    init(answer: Bool) { self.answer = answer }

    var questions: Int { count.withLock { $0 } }

    func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool {
        count.withLock { $0 += 1 }
        return answer
    }
}

private let monthly = "com.example.premium.monthly"

/// A manual store whose default account subscribed to the monthly plan through a queue with a delegate; returns the
/// subscription's transaction identifier.
///
/// The caller keeps the queue and the observer alive: both are held weakly.
private func subscribed(delegate: ConsentDelegate) throws -> (SimulatedStore, SKPaymentQueue, RecordingObserver, UInt64)
{
    let store = SimulatedStore(lane: .manual)
    let queue = SKPaymentQueue(store: store)
    queue.delegate = delegate
    let observer = RecordingObserver()
    queue.add(observer)
    let payment = SKMutablePayment()
    payment.productIdentifier = monthly
    queue.add(payment)
    store.runUntilIdle()
    let record = try #require(store.transactions().first { $0.productID == monthly && $0.state == .purchased })
    return (store, queue, observer, record.id)
}

@Suite("Price consent")
struct PriceConsentTests {
    @Test("A price increase asks the delegate; a yes shows the sheet and the customer's consent keeps it renewing")
    func delegateAllowsSheet() throws {
        let delegate = ConsentDelegate(answer: true)
        let (store, queue, observer, id) = try subscribed(delegate: delegate)
        defer { withExtendedLifetime((queue, observer)) {} }
        #expect(delegate.questions == 0, "nothing waits for consent yet")
        store.updateSettings { $0.priceConsentAnswer = .consent }
        try store.requestPriceIncreaseConsent(id)
        #expect(store.pendingPriceConsent() == [monthly])
        store.runUntilIdle()
        #expect(delegate.questions == 1)
        #expect(store.pendingPriceConsent().isEmpty, "the customer consented on the sheet")
        #expect(store.subscription(groupID: "premium")?.autoRenew == true)
        let events = try store.advance(by: 40 * 86_400)
        #expect(events.contains { if case .renewed = $0.kind { true } else { false } })
    }

    @Test("A no defers the sheet: the increase waits until showPriceConsentIfNeeded(), where the customer declines")
    func delegateDefersSheet() throws {
        let delegate = ConsentDelegate(answer: false)
        let (store, queue, observer, id) = try subscribed(delegate: delegate)
        defer { withExtendedLifetime(observer) {} }
        store.updateSettings { $0.priceConsentAnswer = .decline }
        try store.requestPriceIncreaseConsent(id)
        store.runUntilIdle()
        #expect(delegate.questions == 1)
        #expect(store.pendingPriceConsent() == [monthly], "deferred: still waiting")
        #expect(store.subscription(groupID: "premium")?.autoRenew == true)
        queue.showPriceConsentIfNeeded()
        store.runUntilIdle()
        #expect(delegate.questions == 1, "the app asked for the sheet: the delegate is not asked again")
        #expect(store.pendingPriceConsent().isEmpty)
        #expect(store.subscription(groupID: "premium")?.autoRenew == false, "declining turns auto-renew off")
        #expect(store.transaction(id)?.autoRenewEnabled == false)
    }

    @Test("A dismissed sheet leaves the increase waiting, and the next launch asks the delegate again")
    func launchAsksAgain() throws {
        let delegate = ConsentDelegate(answer: true)
        let (store, queue, observer, id) = try subscribed(delegate: delegate)
        defer { withExtendedLifetime((queue, observer)) {} }
        try store.requestPriceIncreaseConsent(id)
        store.runUntilIdle()
        #expect(delegate.questions == 1)
        #expect(store.pendingPriceConsent() == [monthly], "dismissed by default")

        let relaunched = SKPaymentQueue(store: store)
        let later = ConsentDelegate(answer: true)
        relaunched.delegate = later
        store.runUntilIdle()
        #expect(later.questions == 0, "asked when the first observer is added, not before")
        let firstObserver = RecordingObserver()
        relaunched.add(firstObserver)
        store.runUntilIdle()
        #expect(later.questions == 1)
        relaunched.add(RecordingObserver())
        store.runUntilIdle()
        #expect(later.questions == 1, "only the first observer brings the question")
    }

    @Test("An app without observers is not asked when the increase is requested; nothing pending, nothing asked")
    func notRunningNotAsked() throws {
        let delegate = ConsentDelegate(answer: true)
        let (store, queue, observer, id) = try subscribed(delegate: delegate)
        queue.showPriceConsentIfNeeded()
        store.runUntilIdle()
        #expect(delegate.questions == 0)
        queue.remove(observer)
        store.updateSettings { $0.priceConsentAnswer = .consent }
        try store.requestPriceIncreaseConsent(id)
        store.runUntilIdle()
        #expect(delegate.questions == 0, "no observer: the app is not running")
        #expect(store.pendingPriceConsent() == [monthly])
        queue.add(observer)
        store.runUntilIdle()
        #expect(delegate.questions == 1)
        #expect(store.pendingPriceConsent().isEmpty)
    }

    @Test("Without a delegate the sheet shows at once")
    func noDelegateShows() throws {
        let delegate = ConsentDelegate(answer: false)
        let (store, queue, observer, id) = try subscribed(delegate: delegate)
        defer { withExtendedLifetime(observer) {} }
        queue.delegate = nil
        store.updateSettings { $0.priceConsentAnswer = .decline }
        try store.requestPriceIncreaseConsent(id)
        store.runUntilIdle()
        #expect(store.pendingPriceConsent().isEmpty)
        #expect(store.subscription(groupID: "premium")?.autoRenew == false)
    }
}
