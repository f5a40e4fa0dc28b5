#if Server
    /// The body of Send Consumption Information (v2).
    struct ConsumptionRequest: Codable, Sendable, Hashable {
        var customerConsented: Bool?
        var sampleContentProvided: Bool?
        var deliveryStatus: String?
        var consumptionPercentage: Int?
        var refundPreference: String?
    }
#endif
