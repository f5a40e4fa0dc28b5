#if Server
    /// The body of Send Consumption Information V1 (`ConsumptionRequestV1`), each field as sent: absent, of its type,
    /// or of another type, so that a field of the wrong type gets the field's own error as a value out of range does.
    struct ConsumptionRequestV1: Decodable, Sendable {
        /// A field that was sent: its value, or `invalid` when it was not of the field's JSON type.
        enum Field<Value: Decodable & Sendable>: Decodable, Sendable {
            case value(Value)
            case invalid

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let value = try? container.decode(Value.self) { self = .value(value) } else { self = .invalid }
            }

            /// The value, or nil when it was not of the field's type.
            var value: Value? {
                if case .value(let value) = self { return value }
                return nil
            }
        }

        var customerConsented: Field<Bool>?
        var consumptionStatus: Field<Int>?
        var platform: Field<Int>?
        var sampleContentProvided: Field<Bool>?
        var deliveryStatus: Field<Int>?
        var appAccountToken: Field<String>?
        var accountTenure: Field<Int>?
        var playTime: Field<Int>?
        var lifetimeDollarsRefunded: Field<Int>?
        var lifetimeDollarsPurchased: Field<Int>?
        var userStatus: Field<Int>?
        var refundPreference: Field<Int>?
    }
#endif
