import StoreModels

extension StoreState {
    /// Keeps the consumption information sent for a transaction of the history
    /// (``SimulatedStore/setConsumptionInformation(_:forTransaction:)``).
    mutating func setConsumption(_ information: ConsumptionInformation, forTransaction id: UInt64)
        throws(StoreSimulatorError)
    {
        guard let record = records[id] else { throw SimulatedStore.unknownTransaction(id) }
        if let version1 = information.version1 {
            guard record.productType == .consumable || record.productType == .autoRenewableSubscription else {
                throw StoreSimulatorError(
                    .invalidProductType,
                    "Send Consumption Information V1 applies to consumables and auto-renewable subscriptions; \(id) "
                        + "is a \(record.productType)")
            }
            if let field = version1.invalidField {
                throw StoreSimulatorError(.invalidAction, "the V1 field \(field) is outside its values")
            }
        }
        if let percentage = information.consumptionPercentage {
            guard record.productType != .autoRenewableSubscription else {
                throw StoreSimulatorError(
                    .invalidProductType,
                    "a consumption percentage does not apply to \(id), an auto-renewable subscription")
            }
            guard ConsumptionInformation.percentageRange.contains(percentage) else {
                throw StoreSimulatorError(
                    .invalidAction, "the consumption percentage \(percentage) is outside 0...100000")
            }
        }
        consumption[id] = information
    }
}
