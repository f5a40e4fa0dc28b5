import StoreModels

extension StoreChange {
    /// Apple's status of the subscription the change is about, as the change left it (a notification's `status`);
    /// `nil` for a change about no auto-renewable subscription. A refund revokes; a period shared with a family member
    /// is active when shared (only a standing period is shared) and revoked when Family Sharing takes it back, as
    /// ``SimulatedStore/subscriptionStatuses(of:groupID:)`` says of it.
    public var subscriptionStatus: StoreSubscriptionStatus.Code? {
        if let subscription {
            if case .refunded = kind { return .revoked }
            return StoreState.statusCode(of: subscription.phase, revoked: false)
        }
        guard transaction.isFamilyShared, transaction.productType == .autoRenewableSubscription else { return nil }
        return kind == .familyRevoked ? .revoked : .active
    }
}
