/// Who may redeem an offer code's offer, as a `.storekit` file's `eligibility` lists the customers: new to the
/// subscription group, subscribed to it now, or whose subscription of it lapsed.
public struct OfferCodeEligibility: Sendable, Hashable, Codable {
    /// A kind of customer of a subscription group.
    public enum Customer: String, Sendable, Hashable, Codable, CaseIterable {
        /// Never subscribed in the group (`new`).
        case new
        /// Subscribed in the group now: active, or in a billing grace period or billing retry (`existing`).
        case existing
        /// Subscribed in the group before; the subscription lapsed (`expired`).
        case expired
    }

    /// The customers who may redeem the offer.
    public var customers: Set<Customer>

    /// Creates the eligibility of an offer code's offer; every customer by default.
    public init(customers: Set<Customer> = Set(Customer.allCases)) {
        self.customers = customers
    }
}
