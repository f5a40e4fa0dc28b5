public import Foundation
import StoreSimulator

extension Product {
    /// An option of a purchase; made with the static factories, as on iOS.
    public struct PurchaseOption: Hashable, Sendable {
        enum Kind: Hashable, Sendable {
            case quantity(Int)
            case appAccountToken(UUID)
            case promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int)
            case simulatesAskToBuy(Bool)
            case custom(key: String, value: String)
            case onStorefrontChange(StorefrontChangeHandler)
            case winBackOffer(Product.SubscriptionOffer)
            case signedPromotionalOffer(offerID: String, compactJWS: String)
            case introductoryOfferEligibility(compactJWS: String)
            case testing(TestPurchaseOptions)
            case billingPlanType(Product.SubscriptionInfo.BillingPlanType)
        }

        let kind: Kind

        init(_ kind: Kind) { self.kind = kind }

        /// The quantity this option sets, if it is `.quantity(_:)`.
        package var quantity: Int? {
            if case .quantity(let value) = kind { return value }
            return nil
        }

        /// The token this option sets, if it is `.appAccountToken(_:)`.
        package var appAccountToken: UUID? {
            if case .appAccountToken(let value) = kind { return value }
            return nil
        }

        /// Buys this many of a consumable (1 through 10).
        ///
        /// - Parameter quantity: How many.
        public static func quantity(_ quantity: Int) -> PurchaseOption { PurchaseOption(.quantity(quantity)) }

        /// Ties the purchase to the app's account for the customer; signed transactions carry it as
        /// `appAccountToken`.
        ///
        /// - Parameter token: The app's identifier of the customer's account.
        public static func appAccountToken(_ token: UUID) -> PurchaseOption { PurchaseOption(.appAccountToken(token)) }

        /// Applies a promotional offer signed by the developer's server; the store checks the signature.
        ///
        /// - Parameters:
        ///   - offerID: The offer's identifier in the product's configuration.
        ///   - keyID: The identifier of the key that signed it.
        ///   - nonce: The single-use nonce that was signed.
        ///   - signature: The signature.
        ///   - timestamp: When it was signed, in milliseconds since 1970.
        public static func promotionalOffer(
            offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int
        ) -> PurchaseOption {
            PurchaseOption(
                .promotionalOffer(
                    offerID: offerID, keyID: keyID, nonce: nonce, signature: signature, timestamp: timestamp))
        }

        /// Applies a promotional offer with a JWS the developer's server signed (Apple's App Store Server Library
        /// makes it with `PromotionalOfferV2SignatureCreator`): the store checks the JWS and fails the purchase with
        /// ``Product/PurchaseError/invalidOfferSignature``, ``Product/PurchaseError/invalidOfferIdentifier``,
        /// ``Product/PurchaseError/missingOfferParameters`` or ``Product/PurchaseError/ineligibleForOffer`` as Apple
        /// documents (docs/decisions.md 98). Returns the options to add to a purchase's options.
        ///
        /// - Parameters:
        ///   - offerID: The `id` of the promotional offer to apply.
        ///   - compactJWS: The signed JWS, audience `promotional-offer`.
        public static func promotionalOffer(_ offerID: String, compactJWS: String) -> [PurchaseOption] {
            [PurchaseOption(.signedPromotionalOffer(offerID: offerID, compactJWS: compactJWS))]
        }

        /// Sets whether the introductory offer applies to the purchase with a JWS the developer's server signed
        /// (`IntroductoryOfferEligibilitySignatureCreator`): its `allowIntroductoryOffer` true applies the product's
        /// introductory offer even to a customer the store deems ineligible, false withholds it from one it deems
        /// eligible. The store checks the JWS as for ``promotionalOffer(_:compactJWS:)``.
        ///
        /// - Parameter compactJWS: The signed JWS, audience `introductory-offer-eligibility`.
        public static func introductoryOfferEligibility(compactJWS: String) -> PurchaseOption {
            PurchaseOption(.introductoryOfferEligibility(compactJWS: compactJWS))
        }

        /// Applies a win-back offer of the product (one of ``Product/SubscriptionInfo/winBackOffers``): the store
        /// checks that the customer may redeem it now (``Product/SubscriptionInfo/RenewalInfo/eligibleWinBackOfferIDs``
        /// lists it) and fails the purchase with ``Product/PurchaseError/ineligibleForOffer`` if not.
        ///
        /// - Parameter offer: The win-back offer.
        public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> PurchaseOption {
            PurchaseOption(.winBackOffer(offer))
        }

        /// Buys the subscription under one of its billing plans (iOS 26.4): the `billingPlanType` of one of its
        /// ``Product/SubscriptionInfo/pricingTerms``. A plan the product does not offer fails the purchase with
        /// ``Product/PurchaseError/productUnavailable`` (docs/decisions.md 109).
        ///
        /// - Parameter billingPlanType: The billing plan.
        public static func billingPlanType(_ billingPlanType: Product.SubscriptionInfo.BillingPlanType)
            -> PurchaseOption
        {
            PurchaseOption(.billingPlanType(billingPlanType))
        }

        /// Decides whether the purchase goes on when the device's App Store storefront changes while it is in
        /// progress: the store calls `shouldContinuePurchase` with the new storefront, and a purchase it stops fails
        /// with ``Product/PurchaseError/productUnavailable``. Without this option the purchase goes on.
        ///
        /// - Parameter shouldContinuePurchase: Whether to go on in the new storefront.
        @preconcurrency
        public static func onStorefrontChange(
            shouldContinuePurchase: @escaping @Sendable (Storefront) -> Bool
        ) -> PurchaseOption {
            PurchaseOption(.onStorefrontChange(StorefrontChangeHandler(shouldContinuePurchase)))
        }

        /// Asks a parent to approve the purchase (in testing): the purchase comes back `.pending`.
        ///
        /// - Parameter simulateAskToBuy: Whether to ask.
        public static func simulatesAskToBuyInSandbox(_ simulateAskToBuy: Bool) -> PurchaseOption {
            PurchaseOption(.simulatesAskToBuy(simulateAskToBuy))
        }

        /// A custom option; the simulated store ignores it.
        ///
        /// - Parameters:
        ///   - key: The option's key.
        ///   - value: Its value.
        public static func custom(key: String, value: String) -> PurchaseOption {
            PurchaseOption(.custom(key: key, value: value))
        }

        /// A custom option; the simulated store ignores it.
        ///
        /// - Parameters:
        ///   - key: The option's key.
        ///   - value: Its value.
        public static func custom(key: String, value: Double) -> PurchaseOption {
            PurchaseOption(.custom(key: key, value: String(value)))
        }

        /// A custom option; the simulated store ignores it.
        ///
        /// - Parameters:
        ///   - key: The option's key.
        ///   - value: Its value.
        public static func custom(key: String, value: Bool) -> PurchaseOption {
            PurchaseOption(.custom(key: key, value: String(value)))
        }

        /// A custom option; the simulated store ignores it.
        ///
        /// - Parameters:
        ///   - key: The option's key.
        ///   - value: Its value.
        public static func custom(key: String, value: Data) -> PurchaseOption {
            PurchaseOption(.custom(key: key, value: value.base64EncodedString()))
        }
    }
}
