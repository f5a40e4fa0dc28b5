import Foundation
import OpenStoreKit2
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import TestSupport
import Testing

/// The file of offers Apple's App Store Server Library signed (Tests/CrossCheck/signed_offers_check.py), named by
/// `OPENSTOREKIT_APPLE_SIGNED_OFFERS`; CI makes it.
private let appleSignedOffersPath = ProcessInfo.processInfo.environment["OPENSTOREKIT_APPLE_SIGNED_OFFERS"]

@Suite(
    "Offers signed by Apple's App Store Server Library buy through StoreKit 2",
    .enabled(if: appleSignedOffersPath != nil, "needs OPENSTOREKIT_APPLE_SIGNED_OFFERS (CI signs them with Python)"))
struct AppleSignedOfferTests {
    struct Signed: Decodable {
        var signedAt: Double
        var appTransactionId: String
        var productId: String
        var offerId: String
        var promotionalOffer: String
        var promotionalOfferWithoutTransaction: String
        var eligibilityAllowed: String
        var eligibilityWithheld: String
    }

    @Test("Eligibility withheld, then a promotional offer (with and without transactionId), then eligibility allowed")
    func buy() async throws {
        let path = try #require(appleSignedOffersPath)
        let signed = try JSONDecoder().decode(Signed.self, from: try Data(contentsOf: URL(fileURLWithPath: path)))
        let store = SimulatedStore(
            clock: ManualClock(start: Date(timeIntervalSince1970: signed.signedAt)), lane: .manual)
        store.updateSettings {
            $0.subscriptionOfferKeys[PromotionalOfferSigner.testKeyID] = PromotionalOfferSigner.testPublicKeyPEM
        }
        try await StoreKitEnvironment.withStore(store) {
            #expect(try await AppTransaction.shared.payloadValue.appTransactionID == signed.appTransactionId)
            let monthly = try await product(signed.productId)
            // A new customer, whom the store deems eligible: the JWS withholds the introductory offer.
            let first = try purchased(
                try await monthly.purchase(options: [
                    .introductoryOfferEligibility(compactJWS: signed.eligibilityWithheld)
                ]))
            #expect(first.offer == nil)
            await first.finish()
            for jws in [signed.promotionalOffer, signed.promotionalOfferWithoutTransaction] {
                try store.expireSubscription(productID: signed.productId)
                let options = Product.PurchaseOption.promotionalOffer(signed.offerId, compactJWS: jws)
                let transaction = try purchased(try await monthly.purchase(options: Set(options)))
                #expect(transaction.offer?.type == .promotional)
                #expect(transaction.offer?.id == signed.offerId)
                await transaction.finish()
            }
            // A customer who subscribed before, whom the store deems ineligible: the JWS allows the offer.
            try store.expireSubscription(productID: signed.productId)
            let last = try purchased(
                try await monthly.purchase(options: [
                    .introductoryOfferEligibility(compactJWS: signed.eligibilityAllowed)
                ]))
            #expect(last.offer?.type == .introductory)
            // Each JWS is single-use.
            await #expect(throws: Product.PurchaseError.invalidOfferSignature) {
                _ = try await monthly.purchase(options: [
                    .introductoryOfferEligibility(compactJWS: signed.eligibilityAllowed)
                ])
            }
        }
    }
}
