import Foundation
import OpenStoreKit2
import OpenStoreKitTest
import ReceiptKit
import StoreModels
import StoreSimulator
import TestSupport
import Testing

@Suite("Offers signed as JWS: promotionalOffer(_:compactJWS:) and introductoryOfferEligibility(compactJWS:)")
struct SignedOfferJWSTests {
    static let monthly = "com.example.premium.monthly"
    static let offerID = "com.example.premium.monthly.winback"

    /// A store that knows the test key, and an account that subscribed before (eligible for promotional offers, not
    /// for the introductory offer); returns the earlier transaction's id too.
    static func eligibleStore() async throws -> (SimulatedStore, String) {
        let store = SimulatedStore(lane: .manual)
        store.updateSettings {
            $0.subscriptionOfferKeys[PromotionalOfferSigner.testKeyID] = PromotionalOfferSigner.testPublicKeyPEM
        }
        let id = try await StoreKitEnvironment.withStore(store) {
            let first = try purchased(try await product(monthly).purchase())
            await first.finish()
            return String(first.id)
        }
        try store.expireSubscription(productID: monthly)
        return (store, id)
    }

    @Test("A promotional offer signed as a JWS buys; transactionId may name the customer's transaction")
    func promotionalOffer() async throws {
        let (store, earlier) = try await Self.eligibleStore()
        let signer = PromotionalOfferSigner.test(appBundleID: store.app.bundleIdentifier)
        try await StoreKitEnvironment.withStore(store) {
            let options = try signer.purchaseOptions(
                productID: Self.monthly, offerID: Self.offerID, transactionID: earlier, issuedAt: store.now)
            #expect(options.count == 1)
            let transaction = try purchased(try await product(Self.monthly).purchase(options: Set(options)))
            #expect(transaction.offer?.type == .promotional)
            #expect(transaction.offer?.id == Self.offerID)
            #expect(transaction.price == Decimal(string: "1.99"))
        }
    }

    @Test(
        "Each bad JWS fails the purchase with Apple's error",
        arguments: [
            ("another key", Product.PurchaseError.invalidOfferSignature), ("bundle", .invalidOfferSignature),
            ("product", .invalidOfferSignature), ("offer in the JWS", .invalidOfferIdentifier),
            ("offer the product lacks", .invalidOfferIdentifier), ("old", .invalidOfferSignature),
            ("audience", .invalidOfferSignature), ("foreign transaction", .invalidOfferSignature),
            ("no offerIdentifier", .missingOfferParameters), ("garbage", .invalidOfferSignature),
        ])
    func refused(change: String, error: Product.PurchaseError) async throws {
        let (store, _) = try await Self.eligibleStore()
        let bundle = store.app.bundleIdentifier
        let signer = PromotionalOfferSigner.test(appBundleID: change == "bundle" ? "com.example.other" : bundle)
        var offerID = Self.offerID
        var jws = try signer.signedRequest(
            change == "audience" ? .introductoryOfferEligibility : .promotionalOffer,
            productID: change == "product" ? "com.example.premium.yearly" : Self.monthly,
            issuedAt: change == "old" ? store.now - 86_401 : store.now,
            offerID: change == "no offerIdentifier" ? nil : change == "offer in the JWS" ? "other" : Self.offerID,
            transactionID: change == "foreign transaction" ? "999999" : nil,
            allowIntroductoryOffer: change == "audience" ? true : nil)
        if change == "offer the product lacks" { offerID = "nope" }
        if change == "garbage" { jws = "not.a.jws" }
        if change == "another key" {
            jws = try SignedOfferRequest(
                audience: .promotionalOffer, keyID: signer.keyID, issuerID: "i", bundleID: bundle,
                productID: Self.monthly, issuedAt: store.now, offerIdentifier: Self.offerID
            ).signed(with: try ES256Key.generate())
        }
        let options = Product.PurchaseOption.promotionalOffer(offerID, compactJWS: jws)
        _ = await StoreKitEnvironment.withStore(store) {
            await #expect(throws: error) { _ = try await product(Self.monthly).purchase(options: Set(options)) }
        }
    }

    @Test("A JWS's nonce is used once: the same JWS again fails with invalidOfferSignature")
    func nonceReuse() async throws {
        let (store, _) = try await Self.eligibleStore()
        let signer = PromotionalOfferSigner.test(appBundleID: store.app.bundleIdentifier)
        let options = try signer.purchaseOptions(productID: Self.monthly, offerID: Self.offerID, issuedAt: store.now)
        try await StoreKitEnvironment.withStore(store) {
            let transaction = try purchased(try await product(Self.monthly).purchase(options: Set(options)))
            await transaction.finish()
            try store.expireSubscription(productID: Self.monthly)
            await #expect(throws: Product.PurchaseError.invalidOfferSignature) {
                _ = try await product(Self.monthly).purchase(options: Set(options))
            }
        }
    }

    @Test("A customer who never subscribed is ineligible for a signed promotional offer")
    func ineligible() async throws {
        let store = SimulatedStore(lane: .manual)
        let signer = PromotionalOfferSigner.test(appBundleID: store.app.bundleIdentifier)
        let options = try signer.purchaseOptions(productID: Self.monthly, offerID: Self.offerID, issuedAt: store.now)
        _ = await StoreKitEnvironment.withStore(store) {
            await #expect(throws: Product.PurchaseError.ineligibleForOffer) {
                _ = try await product(Self.monthly).purchase(options: Set(options))
            }
        }
    }

    @Test("A signed promotional offer with another offer option is refused before it reaches the store")
    func oneOffer() async throws {
        let (store, _) = try await Self.eligibleStore()
        let signer = PromotionalOfferSigner.test(appBundleID: store.app.bundleIdentifier)
        var options = Set(
            try signer.purchaseOptions(productID: Self.monthly, offerID: Self.offerID, issuedAt: store.now))
        options.insert(
            try signer.purchaseOption(
                productID: Self.monthly, offerID: Self.offerID,
                timestamp: Int(store.now.timeIntervalSince1970 * 1000)))
        _ = await StoreKitEnvironment.withStore(store) {
            await #expect(throws: Product.PurchaseError.invalidOfferIdentifier) {
                _ = try await product(Self.monthly).purchase(options: options)
            }
        }
    }

    @Test("allowIntroductoryOffer false withholds the introductory offer from a new customer")
    func eligibilityWithheld() async throws {
        let store = SimulatedStore(lane: .manual)
        let signer = PromotionalOfferSigner.test(appBundleID: store.app.bundleIdentifier)
        try await StoreKitEnvironment.withStore(store) {
            let appTransactionID = try await AppTransaction.shared.payloadValue.appTransactionID
            let option = try signer.introductoryOfferEligibility(
                productID: Self.monthly, allowIntroductoryOffer: false, transactionID: appTransactionID,
                issuedAt: store.now)
            let transaction = try purchased(try await product(Self.monthly).purchase(options: [option]))
            #expect(transaction.offer == nil)
            #expect(transaction.price == Decimal(string: "4.99"))
        }
    }

    @Test("allowIntroductoryOffer true gives the introductory offer to a customer who subscribed before")
    func eligibilityGranted() async throws {
        let (store, earlier) = try await Self.eligibleStore()
        let signer = PromotionalOfferSigner.test(appBundleID: store.app.bundleIdentifier)
        try await StoreKitEnvironment.withStore(store) {
            let option = try signer.introductoryOfferEligibility(
                productID: Self.monthly, allowIntroductoryOffer: true, transactionID: earlier, issuedAt: store.now)
            let transaction = try purchased(try await product(Self.monthly).purchase(options: [option]))
            #expect(transaction.offer?.type == .introductory)
            #expect(transaction.offer?.paymentMode == .freeTrial)
        }
    }

    @Test(
        "A bad eligibility JWS fails the purchase",
        arguments: [
            ("no transactionId", Product.PurchaseError.missingOfferParameters),
            ("foreign transaction", .invalidOfferSignature), ("product", .invalidOfferSignature),
        ])
    func eligibilityRefused(change: String, error: Product.PurchaseError) async throws {
        let (store, earlier) = try await Self.eligibleStore()
        let signer = PromotionalOfferSigner.test(appBundleID: store.app.bundleIdentifier)
        let jws = try signer.signedRequest(
            .introductoryOfferEligibility, productID: change == "product" ? "com.example.pro" : Self.monthly,
            issuedAt: store.now,
            transactionID: change == "no transactionId" ? nil : change == "foreign transaction" ? "12345" : earlier,
            allowIntroductoryOffer: true)
        _ = await StoreKitEnvironment.withStore(store) {
            await #expect(throws: error) {
                _ = try await product(Self.monthly).purchase(options: [.introductoryOfferEligibility(compactJWS: jws)])
            }
        }
    }
}
