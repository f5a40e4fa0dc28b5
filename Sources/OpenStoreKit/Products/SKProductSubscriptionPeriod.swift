public import Foundation
import StoreModels

/// The length of a subscription or offer period.
public final class SKProductSubscriptionPeriod: NSObject, Sendable {
    /// How many units the period lasts.
    public let numberOfUnits: Int
    /// The unit.
    public let unit: SKProduct.PeriodUnit

    init(_ period: SubscriptionPeriod) {
        self.numberOfUnits = period.value
        self.unit =
            switch period.unit {
            case .day: .day
            case .week: .week
            case .month: .month
            case .year: .year
            }
    }

    /// `1 month`, `3 day`.
    public override var description: String { "\(numberOfUnits) \(unit)" }
}
