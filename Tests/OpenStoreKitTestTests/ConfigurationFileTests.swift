import Foundation
import OpenStoreKit
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import TestSupport
import Testing

/// What a `.storekit` file declares, read straight from its JSON.
private struct Declared {
    struct Item {
        let id: String
        let type: String
        let price: String
        let groupID: String?
        let period: String?
    }

    let items: [Item]
    let settings: [String: Any]

    init(_ url: URL) throws {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var items: [Item] = []
        for key in ["products", "nonRenewingSubscriptions"] {
            for product in root[key] as? [[String: Any]] ?? [] {
                items.append(
                    Item(
                        id: product["productID"] as? String ?? "",
                        type: product["type"] as? String ?? "",
                        price: product["displayPrice"] as? String ?? "0",
                        groupID: nil,
                        period: nil
                    )
                )
            }
        }
        for group in root["subscriptionGroups"] as? [[String: Any]] ?? [] {
            for subscription in group["subscriptions"] as? [[String: Any]] ?? [] {
                items.append(
                    Item(
                        id: subscription["productID"] as? String ?? "",
                        type: subscription["type"] as? String ?? "",
                        price: subscription["displayPrice"] as? String ?? "0",
                        groupID: subscription["subscriptionGroupID"] as? String ?? group["id"] as? String,
                        period: subscription["recurringSubscriptionPeriod"] as? String
                    )
                )
            }
        }
        self.items = items
        self.settings = root["settings"] as? [String: Any] ?? [:]
    }
}

private let sampleNames = [
    "apple-sample-SKDemo-Products.v2.storekit",
    "manicmaniac-Default.v1_1.storekit",
    "revenuecat-PurchaseTesterStoreKitConfiguration.v3.storekit",
    "revenuecat-RCTTester.v4.storekit",
    "revenuecat-UnitTestsConfiguration.v5.storekit",
]

@Suite("Configuration files")
struct ConfigurationFileTests {
    @Test("Every sample in the shared folder is one this suite checks", .requiresSharedData)
    func everySampleIsChecked() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: samplesFolder().path)
            .filter { $0.hasSuffix(".storekit") }
        #expect(Set(names) == Set(sampleNames))
    }

    @Test(
        "A sample loads with the products it declares, served by products requests", .requiresSharedData,
        arguments: sampleNames)
    func sampleLoads(name: String) throws {
        try checkLoads(sample(name))
    }

    @Test("The repository's own configuration file loads with the products it declares")
    func defaultLoads() throws {
        try checkLoads(defaultConfiguration)
    }

    private func checkLoads(_ url: URL) throws {
        let name = url.lastPathComponent
        let declared = try Declared(url)
        #expect(!declared.items.isEmpty)
        let store = SimulatedStore(lane: .manual)
        let session = try SKTestSession(contentsOf: url, store: store)
        #expect(store.configuration.sourceName == name)

        let request = SKProductsRequest(productIdentifiers: Set(declared.items.map(\.id)), store: store)
        let delegate = ProductsCollector()
        request.delegate = delegate
        request.start()
        store.runUntilIdle()
        let response = try #require(delegate.response)
        #expect(response.invalidProductIdentifiers.isEmpty)
        #expect(response.products.count == declared.items.count)
        let products = Dictionary(uniqueKeysWithValues: response.products.map { ($0.productIdentifier, $0) })
        for item in declared.items {
            let product = try #require(products[item.id], "\(item.id) missing")
            #expect(product.price == NSDecimalNumber(string: item.price), "\(item.id)")
            #expect(product.subscriptionGroupIdentifier == item.groupID, "\(item.id)")
            #expect(store.catalog.product(item.id)?.type.rawValue == item.type, "\(item.id)")
            if let period = item.period {
                #expect(store.catalog.product(item.id)?.subscription?.period.iso8601 == period, "\(item.id)")
            } else {
                #expect(product.subscriptionPeriod == nil, "\(item.id)")
            }
        }

        let settings = declared.settings
        #expect(session.timeRate.rawValue == settings["_timeRate"] as? Int ?? 0)
        #expect(session.storefront == settings["_storefront"] as? String ?? "USA")
        #expect(session.locale.identifier == settings["_locale"] as? String ?? "en_US")
        #expect(session.askToBuyEnabled == settings["_askToBuyEnabled"] as? Bool ?? false)
        #expect(session.failTransactionsEnabled == settings["_failTransactionsEnabled"] as? Bool ?? false)
        #expect(session.disableDialogs == settings["_disableDialogs"] as? Bool ?? false)
        #expect(session.billingGracePeriodIsEnabled == settings["_billingGracePeriodEnabled"] as? Bool ?? false)
        #expect(
            session.shouldEnterBillingRetryOnRenewal == settings["_renewalBillingIssuesEnabled"] as? Bool ?? false)
    }

    @Test("The settings of a file set the session's defaults, which resetToDefaultState restores")
    func fileSettingsAreDefaults() throws {
        let file = try BrokenFile(
            contents: """
                {
                  "products" : [ { "productID" : "coins", "type" : "Consumable", "displayPrice" : "0.99" } ],
                  "settings" : {
                    "_askToBuyEnabled" : true, "_timeRate" : 1002, "_storefront" : "DEU", "_locale" : "de_DE",
                    "_failTransactionsEnabled" : true, "_storeKitError" : 12, "_billingIssuesEnabled" : true,
                    "_renewalBillingIssuesEnabled" : true, "_billingGracePeriodEnabled" : true,
                    "_disableDialogs" : true,
                    "_storeKitErrors" : [
                      { "name" : "Load Products", "enabled" : true, "current" : { "index" : 0, "type" : "generic" } },
                      { "name" : "Purchase", "enabled" : false, "current" : null }
                    ]
                  }
                }
                """,
            name: "Settings.storekit"
        )
        defer { file.remove() }
        let session = try SKTestSession(contentsOf: file.url, store: SimulatedStore(lane: .manual))
        func expectDefaults() {
            #expect(session.askToBuyEnabled)
            #expect(session.timeRate == .oneRenewalEveryMinute)
            #expect(session.storefront == "DEU")
            #expect(session.locale.identifier == "de_DE")
            #expect(session.failTransactionsEnabled)
            #expect(session.failureError == .invalidSignature)
            #expect(session.interruptedPurchasesEnabled)
            #expect(session.shouldEnterBillingRetryOnRenewal)
            #expect(session.billingGracePeriodIsEnabled)
            #expect(session.disableDialogs)
            #expect(session.simulatedError(forAPI: .loadProducts) != nil)
            #expect(session.simulatedError(forAPI: .purchase) == nil)
        }
        expectDefaults()
        session.askToBuyEnabled = false
        session.timeRate = .realTime
        session.storefront = "USA"
        session.setSimulatedError(nil, forAPI: .loadProducts)
        session.resetToDefaultState()
        expectDefaults()
    }

    @Test(
        "A broken file gives an error naming the file and the key path",
        arguments: [
            ("bad JSON", "{ \"products\": [ ", "Broken.storekit: not valid JSON"),
            (
                "wrong value kind",
                """
                { "products" : [ { "productID" : "coins", "type" : "Consumable", "displayPrice" : 0.99 } ] }
                """,
                "Broken.storekit: products[0].displayPrice: expected a string"
            ),
            (
                "bad period",
                """
                { "subscriptionGroups" : [ { "id" : "G1", "subscriptions" : [
                  { "productID" : "monthly", "type" : "RecurringSubscription", "displayPrice" : "1.99",
                    "recurringSubscriptionPeriod" : "P1Q" } ] } ] }
                """,
                "Broken.storekit: subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod: expected an ISO 8601"
            ),
            (
                "wrong setting kind",
                "{ \"settings\" : { \"_askToBuyEnabled\" : \"yes\" } }",
                "Broken.storekit: settings._askToBuyEnabled: expected true or false"
            ),
        ]
    )
    func brokenFile(problem: String, contents: String, expected: String) throws {
        let file = try BrokenFile(contents: contents)
        defer { file.remove() }
        do {
            _ = try SKTestSession(contentsOf: file.url, store: SimulatedStore(lane: .manual))
            Issue.record("\(problem): expected an error")
        } catch {
            #expect(error.code == .serviceUnavailable)
            #expect(error.message.hasPrefix(expected), "\(problem): \(error.message)")
        }
    }
}

private final class ProductsCollector: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
    // @unchecked: written once on the store's lane, read after the lane ran.
    var response: SKProductsResponse?

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        self.response = response
    }
}
