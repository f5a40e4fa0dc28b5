/// Where a receipt was issued, derived from its receipt type (attribute 0).
public enum ReceiptEnvironment: String, Sendable, Hashable {
    /// The App Store (`Production`, `ProductionVPP`).
    case production = "Production"
    /// The sandbox (`ProductionSandbox`, `ProductionVPPSandbox`).
    case sandbox = "Sandbox"
    /// Xcode's StoreKit testing (`Xcode`).
    case xcode = "Xcode"

    /// The environment of a receipt type string, or nil for an unknown one.
    ///
    /// - Parameter receiptType: The value of attribute 0, for example `ProductionSandbox`.
    public init?(receiptType: String) {
        switch receiptType {
        case "Production", "ProductionVPP": self = .production
        case "ProductionSandbox", "ProductionVPPSandbox": self = .sandbox
        case "Xcode": self = .xcode
        default: return nil
        }
    }
}
