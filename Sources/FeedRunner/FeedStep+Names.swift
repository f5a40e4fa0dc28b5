import Foundation

/// What a step names: the products and the transactions it refers to, which a feed is checked for before it runs.
extension FeedStep {
    /// The product identifiers the step names.
    var products: [String] {
        var products: [String] = storeKit2Products
        func add(_ reference: FeedStep.Reference) {
            if case .product(let id) = reference { products.append(id) }
        }
        switch self {
        case .buy(let product, _, _, _, _, _), .buyElsewhere(let product, _, _), .promote(let product, _),
            .expire(let product),
            .renew(let product):
            products.append(product)
        case .script(let product?, _):
            products.append(product)
        case .approve(let reference), .decline(let reference), .finish(let reference), .refund(let reference, _),
            .reverseRefund(let reference), .refundRequest(let reference, _), .refundDecline(let reference),
            .resolve(let reference), .autoRenew(let reference, _), .cancellationFlow(let reference, _),
            .priceIncrease(let reference, _),
            .delete(let reference):
            add(reference)
        case .expect(let expectation):
            switch expectation {
            case .states(let reference, _), .state(let reference, _), .removed(let reference), .error(let reference, _):
                add(reference)
            case .receiptField, .heardUpdates, .order, .original, .exception, .paid, .delegateAsked:
                for reference in expectation.observationReferences { add(reference) }
            case .noRevocation(let product?):
                products.append(product)
            case .notification(.next(let pattern)):
                if let reference = pattern.reference { add(reference) }
                if let product = pattern.product { products.append(product) }
            case .receiptEntryField(let product, _, _, let value):
                products.append(product)
                if case .transaction(let reference) = value { add(reference) }
            case .owned(let product, _), .subscribed(let product, _, _), .revoked(let product),
                .charged(let product, _), .phase(let product, _), .access(let product, _),
                .renewals(let product, _), .receiptEntries(let product, _), .receiptCancelled(let product):
                products.append(product)
            default:
                break
            }
        case .paywall(let paywall):
            switch paywall {
            case .show(_, let listed, _, let selected, _):
                products += listed
                if let selected { products.append(selected) }
            case .select(let product), .purchase(let product?), .webPurchase(let product?), .webBuy(let product):
                products.append(product)
            default:
                break
            }
        default:
            break
        }
        return products
    }

    /// The transactions the step refers to, by handle or product.
    var references: [FeedStep.Reference] {
        let storeKit2 = storeKit2References
        guard storeKit2.isEmpty else { return storeKit2 }
        switch self {
        case .approve(let reference), .decline(let reference), .finish(let reference), .refund(let reference, _),
            .reverseRefund(let reference), .refundRequest(let reference, _), .refundDecline(let reference),
            .resolve(let reference), .autoRenew(let reference, _), .cancellationFlow(let reference, _),
            .priceIncrease(let reference, _),
            .delete(let reference):
            return [reference]
        case .expect(let expectation):
            switch expectation {
            case .states(let reference, _), .state(let reference, _), .removed(let reference), .error(let reference, _):
                return [reference]
            case .notification(.next(let pattern)):
                return pattern.reference.map { [$0] } ?? []
            default:
                return expectation.observationReferences
            }
        default:
            return []
        }
    }

    /// The product identifiers an `sk2` step or expectation names.
    var storeKit2Products: [String] {
        switch self {
        case .storeKit2(.buy(let product, _, _, _, _)): return [product]
        case .storeKit2(.finish(.product(let product))): return [product]
        case .expect(.storeKit2(let expectation)):
            switch expectation {
            case .result(.product(let product), _), .verified(.product(let product), _),
                .offer(.product(let product), _, _), .billingPlan(.product(let product), _, _):
                return [product]
            case .updates(let products), .entitlements(let products): return products
            default: return []
            }
        default: return []
        }
    }

    /// The references an `sk2` step or expectation makes.
    var storeKit2References: [FeedStep.Reference] {
        switch self {
        case .storeKit2(.finish(let reference)): [reference]
        case .expect(.storeKit2(.result(let reference, _))), .expect(.storeKit2(.verified(let reference, _))),
            .expect(.storeKit2(.offer(let reference, _, _))), .expect(.storeKit2(.billingPlan(let reference, _, _))):
            [reference]
        default: []
        }
    }
}

extension FeedStep.Expectation {
    /// The transactions an observation expectation refers to, in the order it names them.
    var observationReferences: [FeedStep.Reference] {
        switch self {
        case .receiptField(let reference, _, .transaction(let value)): [reference, value]
        case .receiptField(let reference, _, _), .heardUpdates(let reference, _), .exception(let reference, _),
            .paid(let reference, _), .delegateAsked(let reference, _):
            [reference]
        case .order(let heard): heard.map(\.reference)
        case .original(let reference, let original): [reference, original]
        case .receiptEntryField(_, _, _, .transaction(let value)): [value]
        default: []
        }
    }
}
