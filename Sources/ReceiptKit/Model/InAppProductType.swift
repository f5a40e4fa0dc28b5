/// The kind of product an in-app purchase is for (attribute 1707, undocumented by Apple but present in every
/// App Store receipt since about 2018).
public struct InAppProductType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The number stored in the receipt.
    public let rawValue: Int64

    /// Creates a product type from the number stored in the receipt.
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// A non-consumable product (0).
    public static let nonConsumable = InAppProductType(rawValue: 0)
    /// A consumable product (1).
    public static let consumable = InAppProductType(rawValue: 1)
    /// A non-renewing subscription (2).
    public static let nonRenewingSubscription = InAppProductType(rawValue: 2)
    /// An auto-renewable subscription (3).
    public static let autoRenewableSubscription = InAppProductType(rawValue: 3)

    /// The name of a known type, or the number.
    public var description: String {
        switch rawValue {
        case 0: return "nonConsumable"
        case 1: return "consumable"
        case 2: return "nonRenewingSubscription"
        case 3: return "autoRenewableSubscription"
        default: return "productType(\(rawValue))"
        }
    }
}
