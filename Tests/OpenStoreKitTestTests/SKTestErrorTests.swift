import Foundation
import OpenStoreKit
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import Testing

@Suite("SKTestError")
struct SKTestErrorTests {
    @Test("Codes have StoreKit Test's raw values and the SKTestErrorDomain")
    func codes() {
        let expected: [SKTestError.Code: Int] = [
            .serviceUnavailable: 0, .invalidProductIdentifier: 1, .invalidProductType: 2, .invalidURL: 3,
            .fileNotFound: 4, .noSubscriptionFound: 5, .noTransactionFound: 6, .invalidAction: 7,
        ]
        #expect(SKTestError.Code.allCases.count == expected.count)
        for (code, raw) in expected { #expect(code.rawValue == raw) }
        #expect(SKTestErrorDomain == "SKTestErrorDomain")
        let error = SKTestError(.fileNotFound, userInfo: [NSLocalizedDescriptionKey: "gone"]) as NSError
        #expect(error.domain == SKTestErrorDomain)
        #expect(error.code == 4)
        #expect(error.localizedDescription == "gone")
    }

    @Test("serviceUnavailable: a configuration file that cannot be read")
    func serviceUnavailable() throws {
        let file = try BrokenFile(contents: "{ not json")
        defer { file.remove() }
        #expect(throws: SKTestError(.serviceUnavailable)) {
            _ = try SKTestSession(contentsOf: file.url, store: SimulatedStore(lane: .manual))
        }
    }

    @Test("invalidProductIdentifier: an unknown product")
    func invalidProductIdentifier() {
        let env = Environment()
        #expect(throws: SKTestError(.invalidProductIdentifier)) {
            try env.session.expireSubscription(productIdentifier: "test.unknown")
        }
        #expect(throws: SKTestError(.invalidProductIdentifier)) {
            try env.session.forceRenewalOfSubscription(productIdentifier: "test.unknown")
        }
    }

    @Test("invalidProductType: a subscription action on another kind of product")
    func invalidProductType() {
        let env = Environment()
        #expect(throws: SKTestError(.invalidProductType)) {
            try env.session.expireSubscription(productIdentifier: Product.pro)
        }
    }

    @Test("invalidURL: a URL that is not a file URL")
    func invalidURL() throws {
        let url = try #require(URL(string: "https://example.com/Products.storekit"))
        #expect(throws: SKTestError(.invalidURL)) {
            _ = try SKTestSession(contentsOf: url, store: SimulatedStore(lane: .manual))
        }
    }

    @Test("fileNotFound: a configuration file that does not exist, by name or by URL")
    func fileNotFound() {
        do {
            _ = try SKTestSession(configurationFileNamed: "NoSuchConfiguration-\(UUID().uuidString)")
            Issue.record("expected fileNotFound")
        } catch {
            #expect(error.code == .fileNotFound)
            #expect(error.message.contains("OPENSTOREKIT_CONFIGURATION_PATH"))
        }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).storekit")
        #expect(throws: SKTestError(.fileNotFound)) {
            _ = try SKTestSession(contentsOf: missing, store: SimulatedStore(lane: .manual))
        }
    }

    @Test("noSubscriptionFound: a subscription the account does not have")
    func noSubscriptionFound() {
        let env = Environment()
        #expect(throws: SKTestError(.noSubscriptionFound)) {
            try env.session.expireSubscription(productIdentifier: Product.silverMonthly)
        }
        #expect(throws: SKTestError(.noSubscriptionFound)) {
            try env.session.forceRenewalOfSubscription(productIdentifier: Product.goldYearly)
        }
    }

    @Test("noTransactionFound: an identifier no transaction has")
    func noTransactionFound() {
        let env = Environment()
        let calls: [(Int) throws -> Void] = [
            env.session.deleteTransaction(identifier:), env.session.approveAskToBuyTransaction(identifier:),
            env.session.declineAskToBuyTransaction(identifier:), env.session.enableAutoRenewForTransaction(identifier:),
            env.session.disableAutoRenewForTransaction(identifier:),
            env.session.resolveIssueForTransaction(identifier:),
            env.session.requestPriceIncreaseConsentForTransaction(identifier:),
            env.session.consentToPriceIncreaseForTransaction(identifier:),
            env.session.declinePriceIncreaseForTransaction(identifier:), env.session.refundTransaction(identifier:),
        ]
        for call in calls {
            for identifier in [42, -1] {
                #expect(throws: SKTestError(.noTransactionFound)) { try call(identifier) }
            }
        }
    }

    @Test("invalidAction: an action the transaction's state does not allow")
    func invalidAction() throws {
        let env = Environment()
        env.buy(Product.pro)
        let purchase = try #require(env.session.allTransactions().first)
        #expect(throws: SKTestError(.invalidAction)) {
            try env.session.approveAskToBuyTransaction(identifier: purchase.identifier)
        }
        #expect(throws: SKTestError(.invalidAction)) {
            try env.session.resolveIssueForTransaction(identifier: purchase.identifier)
        }
        try env.session.refundTransaction(identifier: purchase.identifier)
        #expect(throws: SKTestError(.invalidAction)) {
            try env.session.refundTransaction(identifier: purchase.identifier)
        }
    }

    @Test("Errors match by code in catch clauses")
    func catchByCode() {
        let env = Environment()
        do {
            try env.session.deleteTransaction(identifier: 7)
            Issue.record("expected an error")
        } catch SKTestError.noTransactionFound {
            // Matched.
        } catch {
            Issue.record("matched the wrong code: \(error)")
        }
    }
}

/// A `.storekit` file with given contents in a folder of its own; tests remove it when done.
final class BrokenFile {
    let folder: URL
    let url: URL

    init(contents: String, name: String = "Broken.storekit") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstorekit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        url = folder.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
    }

    /// Removes the file and its folder.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
