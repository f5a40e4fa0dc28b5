public import StoreModels

extension SubscriptionState {
    /// The phase in `ProductAccess`'s terms, for the product of the current period. A subscription ended by a refund
    /// or an upgrade is `expired` here; ``SimulatedStore/access(to:account:)`` tells those apart from its transactions.
    public var accessPhase: ProductAccess.Phase {
        switch phase {
        case .active: .active
        case .gracePeriod: .grace
        case .billingRetry: .billingRetry
        case .expired: .expired
        }
    }

    /// The billing state `ProductAccess` takes, for the product of the current period: `nil` unless a renewal failed
    /// and billing is being retried.
    public var billing: ProductAccess.Billing? {
        switch phase {
        case .gracePeriod: gracePeriodEndsAt.map { .gracePeriod(endsAt: $0) } ?? .billingRetry
        case .billingRetry: .billingRetry
        case .active, .expired: nil
        }
    }
}
