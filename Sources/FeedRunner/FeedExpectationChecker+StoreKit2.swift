import OpenStoreKit2
import StoreModels

extension FeedExpectationChecker {
    /// Checks an `expect sk2` expectation; returns a failure message, or nil.
    func checkStoreKit2(_ expectation: FeedStep.StoreKit2Expectation) -> String? {
        guard let driver = world.currentStoreKit2Driver() else {
            return "\(world.currentSeatDescription) has no device"
        }
        switch expectation {
        case .result(let reference, let expected):
            let result: String
            switch reference {
            case .handle(let name): result = world.storeKit2.purchases[name]?.result ?? "none"
            case .product:
                result = world.storeKit2.transaction(reference, seat: world.currentSeat) == nil ? "none" : "success"
            }
            return result == expected ? nil : "expected the purchase \(reference) \(expected), it was \(result)"
        case .updates(let expected):
            let heard = world.storeKit2.heard[world.currentSeat] ?? []
            return heard == expected
                ? nil : "expected updates [\(expected.joined(separator: " "))], heard [\(heard.joined(separator: " "))]"
        case .entitlements(let expected):
            let products = driver.currentEntitlements().map(\.unsafePayloadValue.productID)
            return products == expected
                ? nil
                : "expected entitlements [\(expected.joined(separator: " "))], found [\(products.joined(separator: " "))]"
        case .status(let group, let expected):
            let state = driver.statuses(groupID: group).first.map { Self.name(of: $0.state) } ?? "none"
            return state == expected ? nil : "expected \(group) \(expected), it is \(state)"
        case .verified(let reference, let expected):
            guard let (_, verified) = world.storeKit2.transaction(reference, seat: world.currentSeat) else {
                return "no StoreKit 2 transaction for \(reference) yet"
            }
            return verified == expected
                ? nil
                : "expected \(reference) \(expected ? "verified" : "unverified"), it is \(verified ? "verified" : "unverified")"
        case .unfinished(let expected):
            let count = driver.unfinished().count
            return count == expected ? nil : "expected \(expected) unfinished StoreKit 2 transactions, found \(count)"
        case .offer(let reference, let expectedType, let expectedID):
            guard let (id, _) = world.storeKit2.transaction(reference, seat: world.currentSeat),
                let transaction = driver.transaction(id)?.unsafePayloadValue
            else {
                return "no StoreKit 2 transaction for \(reference) yet"
            }
            let offer = transaction.offer
            let type = offer.map { Self.name(of: $0.type) } ?? "none"
            let found = [type, offer?.id].compactMap(\.self).joined(separator: " ")
            guard type == expectedType, expectedID == nil || offer?.id == expectedID else {
                let expected = [expectedType, expectedID].compactMap(\.self).joined(separator: " ")
                return "expected \(reference)'s offer \(expected), it is \(found)"
            }
            return nil
        case .billingPlan(let reference, let expectedPlan, let expectedPeriod):
            guard let (id, _) = world.storeKit2.transaction(reference, seat: world.currentSeat),
                let transaction = driver.transaction(id)?.unsafePayloadValue
            else {
                return "no StoreKit 2 transaction for \(reference) yet"
            }
            let expected =
                FeedStep.StoreKit2Offers.name(of: expectedPlan) + (expectedPeriod.map { " period \($0)" } ?? "")
            let plan: BillingPlan.Kind?
            switch transaction.billingPlanType {
            case .monthly?: plan = .monthly
            case .upFront?: plan = .upFront
            case nil: plan = nil
            case let other?: return "expected \(reference)'s billing plan \(expected), it is \(other.rawValue)"
            }
            let period = transaction.commitmentInfo.map { Int(clamping: $0.billingPeriodNumber) }
            guard plan == expectedPlan, expectedPeriod == nil || period == expectedPeriod else {
                let found = FeedStep.StoreKit2Offers.name(of: plan) + (period.map { " period \($0)" } ?? "")
                return "expected \(reference)'s billing plan \(expected), it is \(found)"
            }
            return nil
        }
    }

    private static func name(of type: Transaction.OfferType) -> String {
        switch type {
        case .introductory: "introductory"
        case .promotional: "promotional"
        case .code: "code"
        case .winBack: "win-back"
        default: "type \(type.rawValue)"
        }
    }

    private static func name(of state: Product.SubscriptionInfo.RenewalState) -> String {
        switch state {
        case .subscribed: "subscribed"
        case .expired: "expired"
        case .inBillingRetryPeriod: "billing-retry"
        case .inGracePeriod: "grace-period"
        case .revoked: "revoked"
        default: "unknown"
        }
    }
}
