import Foundation
import StoreModels
import StoreSimulator
import TestSupport
import Testing

/// A `.storekit` file's JSON with the given top-level members.
private func file(_ members: String) -> Data {
    Data("{ \(members) }".utf8)
}

private func product(_ id: String, _ type: String = "Consumable") -> String {
    #"{ "productID" : "\#(id)", "type" : "\#(type)", "displayPrice" : "0.99" }"#
}

private func group(_ id: String, _ productIDs: [String]) -> String {
    let subscriptions = productIDs.map {
        #"{ "productID" : "\#($0)", "type" : "RecurringSubscription", "displayPrice" : "2.99", "#
            + #""recurringSubscriptionPeriod" : "P1M" }"#
    }
    return #"{ "id" : "\#(id)", "name" : "g", "subscriptions" : [ \#(subscriptions.joined(separator: ", ")) ] }"#
}

/// The error a configuration gives, which must be one.
private func refusal(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws -> StoreSimulatorError {
    try #require(throws: StoreSimulatorError.self, sourceLocation: sourceLocation) {
        try StoreConfiguration(data: data, sourceName: "Products.storekit")
    }
}

@Suite("Reading .storekit files")
struct StoreConfigurationTests {
    @Test("A product identifier declared twice is refused with both key paths")
    func duplicateInProducts() throws {
        let error = try refusal(file(#""products" : [ \#(product("coins")), \#(product("coins", "NonConsumable")) ]"#))
        #expect(error.code == .invalidConfiguration)
        #expect(error.detail.hasPrefix("Products.storekit: products[1].productID: "))
        #expect(error.detail.contains("\"coins\" is already declared at products[0].productID"))
        #expect(error.detail.contains("give every product its own identifier"))
    }

    @Test("A subscription with the identifier of another product is refused at the subscription's key path")
    func duplicateAcrossSections() throws {
        let error = try refusal(
            file(
                #""products" : [ \#(product("pro", "NonConsumable")) ], "#
                    + #""subscriptionGroups" : [ \#(group("G1", ["monthly"])), \#(group("G2", ["yearly", "pro"])) ]"#
            ))
        #expect(error.code == .invalidConfiguration)
        #expect(error.detail.contains("subscriptionGroups[1].subscriptions[1].productID"))
        #expect(error.detail.contains("already declared at products[0].productID"))
        let nonRenewing = try refusal(
            file(
                #""nonRenewingSubscriptions" : [ \#(product("pass", "NonRenewingSubscription")) ], "#
                    + #""subscriptionGroups" : [ \#(group("G1", ["pass"])) ]"#))
        #expect(nonRenewing.detail.contains("subscriptionGroups[0].subscriptions[0].productID"))
        #expect(nonRenewing.detail.contains("nonRenewingSubscriptions[0].productID"))
    }

    @Test(
        "Every format version Xcode has written loads",
        arguments: [[1, 0], [1, 1], [2, 0], [3, 0], [4, 0], [5, 0]])
    func knownVersions(version: [Int]) throws {
        let configuration = try StoreConfiguration(
            data: file(
                #""products" : [ \#(product("coins")) ], "version" : { "major" : \#(version[0]), "minor" : \#(version[1]) }"#
            ),
            sourceName: "Products.storekit")
        #expect(configuration.catalog.product("coins") != nil)
    }

    @Test("A file without a version loads")
    func noVersion() throws {
        let configuration = try StoreConfiguration(
            data: file(#""products" : [ \#(product("coins")) ]"#), sourceName: "Products.storekit")
        #expect(configuration.catalog.products.count == 1)
    }

    @Test(
        "A format version the loader does not know is refused with its key path and what to do",
        arguments: [
            (6, 0, "version.major"), (0, 9, "version.major"), (4, 7, "version.minor"), (1, 2, "version.minor"),
        ])
    func unknownVersion(major: Int, minor: Int, path: String) throws {
        let error = try refusal(
            file(#""products" : [], "version" : { "major" : \#(major), "minor" : \#(minor) }"#))
        #expect(error.code == .invalidConfiguration)
        #expect(error.detail.hasPrefix("Products.storekit: \(path): format version \(major).\(minor) is not one"))
        #expect(error.detail.contains("1.0, 1.1, 2.0, 3.0, 4.0, 5.0"))
        #expect(error.detail.contains("save the file from an Xcode that writes one of those"))
    }

    @Test("A version without its major number, or of the wrong kind, is refused")
    func malformedVersion() throws {
        #expect(try refusal(file(#""version" : { "minor" : 0 }"#)).detail.contains("version.major: missing"))
        #expect(try refusal(file(#""version" : "4.0""#)).detail.contains("version: expected an object"))
        #expect(
            try refusal(file(#""version" : { "major" : "4" }"#)).detail.contains(
                "version.major: expected a whole number"))
    }

    @Test("Offers are read with their mode, price, period and number of periods")
    func offers() throws {
        let subscription = """
            { "productID" : "monthly", "type" : "RecurringSubscription", "displayPrice" : "4.99",
              "recurringSubscriptionPeriod" : "P1M", "groupNumber" : 2, "subscriptionGroupID" : "G1",
              "introductoryOffer" : { "paymentMode" : "payAsYouGo", "displayPrice" : "0.99",
                                      "subscriptionPeriod" : "P1M", "numberOfPeriods" : 3 },
              "adHocOffers" : [ { "offerID" : "winback", "paymentMode" : "payUpFront", "displayPrice" : "9.99",
                                  "subscriptionPeriod" : "P6M", "numberOfPeriods" : 1 } ] }
            """
        let configuration = try StoreConfiguration(
            data: file(#""subscriptionGroups" : [ { "id" : "G1", "subscriptions" : [ \#(subscription) ] } ]"#),
            sourceName: "Products.storekit")
        let info = try #require(configuration.catalog.product("monthly")?.subscription)
        #expect(info.groupID == "G1")
        #expect(info.groupLevel == 2)
        #expect(info.period.iso8601 == "P1M")
        let intro = try #require(info.introductoryOffer)
        #expect(intro.paymentMode == .payAsYouGo)
        #expect(intro.price == Decimal(string: "0.99"))
        #expect(intro.period.iso8601 == "P1M")
        #expect(intro.numberOfPeriods == 3)
        let winback = try #require(info.promotionalOffer(identifier: "winback"))
        #expect(winback.paymentMode == .payUpFront)
        #expect(winback.price == Decimal(string: "9.99"))
        #expect(winback.period.iso8601 == "P6M")
        #expect(winback.numberOfPeriods == 1)
    }

    @Test("The repository's Examples/Default.storekit loads with its five products")
    func repositoryFile() throws {
        let configuration = try StoreConfiguration(contentsOf: RepositoryFiles.example("Default.storekit"))
        #expect(
            Set(configuration.catalog.products.map(\.id)) == [
                "com.example.consumable", "com.example.no-ads", "com.example.season-pass",
                "com.example.auto-renewable", "com.example.auto-renewable.yearly",
            ])
        #expect(configuration.catalog.subscriptions(inGroup: "0E5A17C5").count == 2)
    }

    @Test("The repository's Examples/Tiers.storekit has every product type and a group of three levels with offers")
    func tiersFile() throws {
        let configuration = try StoreConfiguration(contentsOf: RepositoryFiles.example("Tiers.storekit"))
        let products = configuration.catalog.products
        #expect(Set(products.map(\.type)) == Set(ProductType.allCases))
        let group = configuration.catalog.subscriptions(inGroup: "7A1B0000")
        let levels = Dictionary(grouping: group) { $0.subscription?.groupLevel ?? 0 }
        #expect(levels.keys.sorted() == [1, 2, 3])
        let durations = Set(levels[1, default: []].compactMap { $0.subscription?.period.iso8601 })
        #expect(durations == ["P1M", "P1Y"], "level 1 has two durations")
        #expect(levels[1, default: []].filter { $0.subscription?.period.iso8601 == "P1M" }.count == 2)
        #expect(group.contains { $0.subscription?.introductoryOffer != nil })
        #expect(group.contains { !($0.subscription?.promotionalOffers.isEmpty ?? true) })
    }

    @Test("Every .storekit file Xcode wrote in the shared samples loads", .requiresSharedData)
    func sharedSamples() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: SharedData.storeKitSamples.path)
            .filter { $0.hasSuffix(".storekit") }
        #expect(names.count == 5)
        for name in names {
            let configuration = try StoreConfiguration(contentsOf: SharedData.storeKitSample(name))
            #expect(!configuration.catalog.products.isEmpty, "\(name)")
        }
    }
}
