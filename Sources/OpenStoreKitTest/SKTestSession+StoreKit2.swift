import Foundation
public import OpenStoreKit2
import StoreModels
import StoreSimulator

extension SKTestSession {
    // MARK: StoreKit 2 failures

    /// Makes a StoreKit 2 API fail with a failure until cleared with `nil`, for every device of the session's store:
    ///
    /// ```swift
    /// try await session.setSimulatedError(.generic(.networkError(URLError(.notConnectedToInternet))), forAPI: .loadProducts)
    /// try await session.setSimulatedError(.purchase(.productUnavailable), forAPI: .purchase)
    /// try await session.setSimulatedError(.verification(.invalidSignature), forAPI: .verification)
    /// try await session.setSimulatedError(nil, forAPI: .purchase)
    /// ```
    ///
    /// The store keeps one failure per operation for both StoreKit APIs: this and
    /// StoreKit 1's `setSimulatedError(_:forAPI:)` (with an `SKError`) set and clear the same one, so
    /// `setSimulatedError(nil, forAPI: .purchase)` clears a purchase failure whichever of the two Swift picks, and a
    /// StoreKit 1 payment queue of the same store fails with the failure's StoreKit 1 code. `.appStoreSync` is the
    /// store's restore, `.appTransaction` its receipt refresh. A verification failure does not throw: every signed
    /// value comes back `.unverified` with its error.
    ///
    /// - Parameters:
    ///   - error: The failure, or `nil` to clear it.
    ///   - api: The API.
    public func setSimulatedError<API: FailableStoreKitAPI>(_ error: API.Failure?, forAPI api: API) async throws {
        let (key, _) = Self.key(of: api)
        store.storeKitControls.setFailure(error.flatMap(Self.controlFailure), for: key)
    }

    /// The failure a StoreKit 2 API is set to report, if any.
    ///
    /// - Parameter api: The API.
    /// - Returns: The failure.
    public func simulatedError<API: FailableStoreKitAPI>(forAPI api: API) async -> API.Failure? {
        let (key, _) = Self.key(of: api)
        guard let failure = store.storeKitControls.failure(for: key) else { return nil }
        return Self.failure(failure, as: API.Failure.self)
    }

    private static func key(of api: some FailableStoreKitAPI) -> (StoreKitControls.API, String) {
        switch api {
        case is StoreKitLoadProductsAPI: (.loadProducts, "loadProducts")
        case is StoreKitPurchaseAPI: (.purchase, "purchase")
        case is StoreKitVerificationAPI: (.verification, "verification")
        case is StoreKitAppStoreSyncAPI: (.appStoreSync, "appStoreSync")
        case is StoreKitSubscriptionStatusAPI: (.subscriptionStatus, "subscriptionStatus")
        case is StoreKitAppTransactionAPI: (.appTransaction, "appTransaction")
        case is StoreKitManageSubscriptionsAPI: (.manageSubscriptions, "manageSubscriptions")
        case is StoreKitRefundRequestAPI: (.refundRequest, "refundRequest")
        default: (.offerCodeRedeem, "offerCodeRedeem")
        }
    }

    private static func controlFailure(_ failure: some SKTestFailure) -> StoreKitControls.Failure? {
        switch failure {
        case let failure as SKTestFailures.LoadProducts:
            if case .generic(let error) = failure { return .storeKit(error) }
        case let failure as SKTestFailures.Purchase:
            switch failure {
            case .generic(let error): return .storeKit(error)
            case .purchase(let error): return .purchase(error)
            }
        case let failure as SKTestFailures.Verification:
            if case .verification(let error) = failure { return .verification(.init(error)) }
        case let failure as SKTestFailures.AppStoreSync:
            if case .generic(let error) = failure { return .storeKit(error) }
        case let failure as SKTestFailures.SubscriptionStatus:
            if case .generic(let error) = failure { return .storeKit(error) }
        case let failure as SKTestFailures.AppTransaction:
            if case .generic(let error) = failure { return .storeKit(error) }
        case let failure as SKTestFailures.ManageSubscriptions:
            if case .generic(let error) = failure { return .storeKit(error) }
        case let failure as SKTestFailures.RefundRequest:
            switch failure {
            case .generic(let error): return .storeKit(error)
            case .refundRequest(let error): return .refundRequest(error)
            }
        case let failure as SKTestFailures.OfferCodeRedeem:
            if case .generic(let error) = failure { return .storeKit(error) }
        default:
            break
        }
        return nil
    }

    private static func failure<Failure: SKTestFailure>(
        _ failure: StoreKitControls.Failure, as type: Failure.Type
    ) -> Failure? {
        let candidates: [any SKTestFailure]
        switch failure {
        case .storeKit(let error):
            candidates = [
                SKTestFailures.LoadProducts.generic(error), SKTestFailures.Purchase.generic(error),
                SKTestFailures.AppStoreSync.generic(error), SKTestFailures.SubscriptionStatus.generic(error),
                SKTestFailures.AppTransaction.generic(error), SKTestFailures.ManageSubscriptions.generic(error),
                SKTestFailures.RefundRequest.generic(error), SKTestFailures.OfferCodeRedeem.generic(error),
            ]
        case .purchase(let error): candidates = [SKTestFailures.Purchase.purchase(error)]
        case .verification(let error): candidates = [SKTestFailures.Verification.verification(.init(error))]
        case .refundRequest(let error): candidates = [SKTestFailures.RefundRequest.refundRequest(error)]
        }
        return candidates.lazy.compactMap { $0 as? Failure }.first
    }

    // MARK: StoreKit 2 purchases outside the app

    /// Buys a product outside the app (on another device, or in the App Store) and returns its signed transaction:
    /// every device of the account hears of it through `Transaction.updates` (and `SKPaymentQueue` observers).
    ///
    /// - Parameters:
    ///   - identifier: The product.
    ///   - options: `.quantity(_:)`, `.appAccountToken(_:)`, `.billingPlanType(_:)` and StoreKit Test's
    ///     `.purchaseDate(_:renewalBehavior:)`, `.promotionalOffer(id:)` and `.codeOffer(referenceName:)` apply; other
    ///     options are ignored.
    /// - Returns: The transaction, as the store signed it (for a purchase dated in the past, the purchase, not its
    ///   renewals since).
    /// - Throws: ``SKTestError`` `invalidProductIdentifier`; `invalidAction` for a quantity outside 1...10, a purchase
    ///   date in the future or within the account's subscription of the group, an offer the product lacks or the
    ///   customer may not redeem, two offers, a billing plan the product does not offer, two plans, or a monthly plan
    ///   with an offer; `invalidProductType` for an offer or a billing plan of a product that is not an
    ///   auto-renewable subscription.
    @discardableResult
    public func buyProduct(identifier: Product.ID, options: Set<Product.PurchaseOption> = []) async throws
        -> Transaction
    {
        let quantity = options.lazy.compactMap(\.quantity).first ?? 1
        let token = options.lazy.compactMap(\.appAccountToken).first?.uuidString.lowercased()
        var testing = TestPurchaseOptions()
        for option in options {
            if let type = option.billingPlanType {
                guard let kind = type.kind else {
                    throw SKTestError(
                        .invalidAction,
                        message: "no product offers a billing plan \"\(type.rawValue)\"; plans are monthly and upFront")
                }
                guard testing.billingPlan == nil else {
                    throw SKTestError(.invalidAction, message: "two billing plans; give one")
                }
                testing.billingPlan = kind
                continue
            }
            guard let given = option.testPurchaseOptions else { continue }
            let repeated =
                (given.purchaseDate != nil && testing.purchaseDate != nil)
                || (given.promotionalOfferID != nil && testing.promotionalOfferID != nil)
                || (given.offerCodeReferenceName != nil && testing.offerCodeReferenceName != nil)
            if repeated {
                throw SKTestError(.invalidAction, message: "two options of the same kind; give each once")
            }
            testing = testing.merging(given)
        }
        let record = try Self.run { () throws(StoreSimulatorError) in
            try store.buyProduct(identifier, quantity: quantity, applicationUsername: token, options: testing)
        }
        await store.idle()
        guard let signed = SignedValues(store: store).transaction(record.id) else {
            throw SKTestError(.serviceUnavailable, message: "the store did not sign transaction \(record.id)")
        }
        return signed.unsafePayloadValue
    }
}
