import Synchronization

extension SimulatedStore {
    /// Keeps the consumption information a developer's server sent for a transaction, as the App Store Server API's
    /// Send Consumption Information does; it replaces what was sent for the transaction before.
    ///
    /// A durable store records it in its journal and keeps it in its state file.
    ///
    /// - Parameters:
    ///   - information: What was sent.
    ///   - id: A transaction of the history.
    /// - Throws: `unknownTransaction`, `invalidProductType` for a consumption percentage of an auto-renewable
    ///   subscription or for version 1 information (``ConsumptionInformation/version1``) of a product that is
    ///   neither a consumable nor an auto-renewable subscription, `invalidAction` for a percentage outside
    ///   ``ConsumptionInformation/percentageRange`` or a version 1 field outside its values.
    public func setConsumptionInformation(_ information: ConsumptionInformation, forTransaction id: UInt64)
        throws(StoreSimulatorError)
    {
        journal?.begin(.operation(.setConsumptionInformation(information, transactionID: id)))
        defer { journal?.end() }
        try state.withLock { state throws(StoreSimulatorError) in
            try state.setConsumption(information, forTransaction: id)
        }
    }

    /// The consumption information last sent for a transaction, or `nil` when none was.
    public func consumptionInformation(forTransaction id: UInt64) -> ConsumptionInformation? {
        state.withLock { $0.consumption[id] }
    }
}
