import Foundation
import OpenStoreKit
import StoreModels
import StoreSimulator
import Synchronization
import Testing

@Suite("A classic purchase module, end to end")
struct ClassicModuleTests {
    let store = SimulatedStore(lane: .manual)

    func makeModule() -> ClassicPurchases {
        ClassicPurchases(
            queue: SKPaymentQueue(store: store),
            productIdentifiers: ["com.example.pro", "com.example.premium.monthly", "com.example.missing"]
        )
    }

    @Test("Loads products once for concurrent callers and shows prices in the storefront's currency")
    func loadsProducts() throws {
        let module = makeModule()
        var answers: [[String]] = []
        module.loadProducts { answers.append((try? $0.get())?.map(\.productIdentifier) ?? []) }
        module.loadProducts { answers.append((try? $0.get())?.map(\.productIdentifier) ?? []) }
        store.runUntilIdle()
        #expect(module.requestsStarted == 1)
        #expect(answers == Array(repeating: ["com.example.premium.monthly", "com.example.pro"], count: 2))
        let pro = try #require(module.products["com.example.pro"])
        #expect(module.displayLine(for: pro) == "Pro — $9.99")
        let monthly = try #require(module.products["com.example.premium.monthly"])
        #expect(monthly.subscriptionPeriod?.unit == .month)
        #expect(monthly.subscriptionPeriod?.numberOfUnits == 1)
        #expect(monthly.introductoryPrice?.paymentMode == .freeTrial)
        #expect(monthly.subscriptionGroupIdentifier == "premium")
        #expect(monthly.discounts.map(\.identifier) == ["com.example.premium.monthly.winback"])
    }

    @Test("Buys, delivers before finishing, and restores")
    func purchaseAndRestore() throws {
        let module = makeModule()
        module.loadProducts { _ in }
        store.runUntilIdle()
        var outcome: Result<String, any Error>?
        module.purchase("com.example.pro") { outcome = $0 }
        var second: Result<String, any Error>?
        module.purchase("com.example.premium.monthly") { second = $0 }
        #expect((second.flatMap { try? $0.get() }) == nil)
        #expect(throws: ClassicPurchases.PurchasesError.purchaseInProgress) { try second?.get() }
        store.runUntilIdle()
        #expect(try outcome?.get() == "com.example.pro")
        #expect(module.delivered == ["com.example.pro"])

        var restored: [String]?
        module.restore { restored = try? $0.get() }
        store.runUntilIdle()
        #expect(restored == ["com.example.pro"])
        #expect(module.delivered == ["com.example.pro", "com.example.pro"])
    }

    @Test("A product not loaded and a cancelled purchase are reported as errors")
    func errors() throws {
        let module = makeModule()
        var notFound: Result<String, any Error>?
        module.purchase("com.example.pro") { notFound = $0 }
        #expect(throws: ClassicPurchases.PurchasesError.productNotFound) { try notFound?.get() }

        module.loadProducts { _ in }
        store.runUntilIdle()
        store.script(.fail(StoreFailure(.paymentCancelled, "the user tapped cancel")))
        var cancelled: Result<String, any Error>?
        module.purchase("com.example.pro") { cancelled = $0 }
        store.runUntilIdle()
        #expect(throws: SKError(.paymentCancelled)) { try cancelled?.get() }
        #expect(module.delivered.isEmpty)
    }

    @Test("A failed products request answers every waiting caller with the error")
    func productsFailure() {
        store.updateSettings {
            $0.simulatedErrors[.loadProducts] = StoreFailure(.cloudServiceNetworkConnectionFailed, "offline")
        }
        let module = makeModule()
        var codes: [Int] = []
        module.loadProducts { if case .failure(let error) = $0 { codes.append((error as NSError).code) } }
        module.loadProducts { if case .failure(let error) = $0 { codes.append((error as NSError).code) } }
        store.runUntilIdle()
        #expect(codes == [7, 7])
    }
}

@Suite("Products requests")
struct ProductsRequestTests {
    @Test("Unknown identifiers are reported; zero products is a success; requestDidFinish follows the response")
    func invalidIdentifiers() {
        let store = SimulatedStore(lane: .manual)
        let delegate = ProductsDelegate()
        let request = SKProductsRequest(productIdentifiers: ["nope", "also.nope"], store: store)
        request.delegate = delegate
        request.start()
        request.start()
        store.runUntilIdle()
        #expect(delegate.events == ["response 0 products, invalid also.nope,nope", "finish"])
    }

    @Test("A cancelled request tells its delegate nothing")
    func cancelled() {
        let store = SimulatedStore(lane: .manual)
        let delegate = ProductsDelegate()
        let request = SKProductsRequest(productIdentifiers: ["com.example.pro"], store: store)
        request.delegate = delegate
        request.start()
        request.cancel()
        store.runUntilIdle()
        #expect(delegate.events.isEmpty)
    }

    @Test("Titles follow the session locale; prices the storefront's currency")
    func localization() throws {
        let store = SimulatedStore(lane: .manual)
        store.updateSettings { $0.storefront = Storefront(countryCode: "GBR") }
        let delegate = ProductsDelegate()
        let request = SKProductsRequest(productIdentifiers: ["com.example.pro"], store: store)
        request.delegate = delegate
        request.start()
        store.runUntilIdle()
        let product = try #require(delegate.products.first)
        #expect(product.priceLocale.identifier == "en_GB")
        #expect(product.price == NSDecimalNumber(string: "9.99"))
        #expect(product.localizedTitle == "Pro")
    }
}

private final class ProductsDelegate: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
    private let log = Mutex<[String]>([])
    private let received = Mutex<[SKProduct]>([])
    var events: [String] { log.withLock { $0 } }
    var products: [SKProduct] { received.withLock { $0 } }

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        received.withLock { $0 = response.products }
        let invalid = response.invalidProductIdentifiers.joined(separator: ",")
        log.withLock { $0.append("response \(response.products.count) products, invalid \(invalid)") }
    }

    func requestDidFinish(_ request: SKRequest) { log.withLock { $0.append("finish") } }

    func request(_ request: SKRequest, didFailWithError error: any Error) { log.withLock { $0.append("fail") } }
}

@Suite("StoreKit errors")
struct SKErrorTests {
    @Test("Every code has StoreKit's raw value and bridges to NSError in SKErrorDomain")
    func codes() {
        #expect(SKError.Code.allCases.map(\.rawValue) == Array(0...21))
        #expect(SKError.paymentCancelled == .paymentCancelled)
        let error = SKError(.paymentInvalid) as NSError
        #expect(error.domain == "SKErrorDomain")
        #expect(error.code == 3)
        #expect(SKErrorDomain == "SKErrorDomain")
        #expect(SKPaymentTransactionState.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        for code in StoreErrorCode.allCases { #expect(SKError.Code(rawValue: code.rawValue) != nil) }
    }

    @Test("catch SKError.paymentCancelled matches by code")
    func patternMatching() {
        func classify(_ error: any Error) -> String {
            switch error {
            case SKError.paymentCancelled: "cancelled"
            case SKError.paymentInvalid: "invalid"
            default: "other"
            }
        }
        #expect(classify(SKError(.paymentCancelled)) == "cancelled")
        #expect(classify(SKError(.paymentInvalid)) == "invalid")
        #expect(classify(CocoaError(.fileNoSuchFile)) == "other")
    }
}
