public import Foundation

/// What a developer's server sent with the App Store Server API's Send Consumption Information V1
/// (`ConsumptionRequestV1`), field by field, with Apple's names and numeric values.
///
/// The store keeps it inside the ``ConsumptionInformation`` of the transaction (``ConsumptionInformation/version1``),
/// the one record of what a backend said about a refund request, whichever version of the endpoint it called.
public struct ConsumptionInformationV1: Codable, Sendable, Hashable {
    /// The values `consumptionStatus` takes: 0 undeclared, 1 not consumed, 2 partially, 3 fully consumed.
    public static let consumptionStatusRange = 0...3
    /// The values `platform` takes: 0 undeclared, 1 an Apple platform, 2 another platform.
    public static let platformRange = 0...2
    /// The values `deliveryStatus` takes: 0 delivered and working, 1 not delivered for a quality issue, 2 the wrong
    /// item, 3 a server outage, 4 an in-game currency change, 5 another reason.
    public static let deliveryStatusRange = 0...5
    /// The values `accountTenure` takes: 0 undeclared, then 1 (0–3 days) to 7 (over 365 days).
    public static let accountTenureRange = 0...7
    /// The values `playTime` takes: 0 undeclared, then 1 (0–5 minutes) to 7 (over 16 days).
    public static let playTimeRange = 0...7
    /// The values `lifetimeDollarsRefunded` and `lifetimeDollarsPurchased` take: 0 undeclared, 1 zero dollars, then
    /// 2 (up to $49.99) to 7 ($2,000 or more).
    public static let lifetimeDollarsRange = 0...7
    /// The values `userStatus` takes: 0 undeclared, 1 active, 2 suspended, 3 terminated, 4 limited access.
    public static let userStatusRange = 0...4
    /// The values `refundPreference` takes: 0 undeclared, 1 prefer grant, 2 prefer decline, 3 no preference.
    public static let refundPreferenceRange = 0...3

    /// Whether the customer consented to sending the information (`customerConsented`); Apple accepts only `true`.
    public var customerConsented: Bool
    /// How much of the purchase was consumed (`consumptionStatus`).
    public var consumptionStatus: Int
    /// The platform the customer used (`platform`).
    public var platform: Int
    /// Whether the app offered a free sample or trial (`sampleContentProvided`).
    public var sampleContentProvided: Bool
    /// Whether the purchase was delivered and works (`deliveryStatus`).
    public var deliveryStatus: Int
    /// The app account token sent (`appAccountToken`); `nil` for the empty string Apple takes when there is none.
    public var appAccountToken: UUID?
    /// The age of the customer's account (`accountTenure`).
    public var accountTenure: Int
    /// How long the customer used the app (`playTime`).
    public var playTime: Int
    /// What the customer was refunded in the app, in Apple's ranges (`lifetimeDollarsRefunded`).
    public var lifetimeDollarsRefunded: Int
    /// What the customer spent in the app, in Apple's ranges (`lifetimeDollarsPurchased`).
    public var lifetimeDollarsPurchased: Int
    /// The customer's account status (`userStatus`).
    public var userStatus: Int
    /// What the developer would like decided (`refundPreference`), when sent.
    public var refundPreference: Int?

    /// Creates the information of one request.
    ///
    /// - Parameters:
    ///   - customerConsented: Whether the customer consented.
    ///   - consumptionStatus: In ``consumptionStatusRange``.
    ///   - platform: In ``platformRange``.
    ///   - sampleContentProvided: Whether a sample or trial was offered.
    ///   - deliveryStatus: In ``deliveryStatusRange``.
    ///   - appAccountToken: The token, or `nil` for none.
    ///   - accountTenure: In ``accountTenureRange``.
    ///   - playTime: In ``playTimeRange``.
    ///   - lifetimeDollarsRefunded: In ``lifetimeDollarsRange``.
    ///   - lifetimeDollarsPurchased: In ``lifetimeDollarsRange``.
    ///   - userStatus: In ``userStatusRange``.
    ///   - refundPreference: In ``refundPreferenceRange``, or `nil`.
    public init(
        customerConsented: Bool = true, consumptionStatus: Int, platform: Int, sampleContentProvided: Bool,
        deliveryStatus: Int, appAccountToken: UUID? = nil, accountTenure: Int, playTime: Int,
        lifetimeDollarsRefunded: Int, lifetimeDollarsPurchased: Int, userStatus: Int, refundPreference: Int? = nil
    ) {
        self.customerConsented = customerConsented
        self.consumptionStatus = consumptionStatus
        self.platform = platform
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.appAccountToken = appAccountToken
        self.accountTenure = accountTenure
        self.playTime = playTime
        self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
        self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
        self.userStatus = userStatus
        self.refundPreference = refundPreference
    }

    /// The first field outside its range, named as Apple names it, or `nil` when every field is in range.
    public var invalidField: String? {
        let checks: [(String, Int?, ClosedRange<Int>)] = [
            ("consumptionStatus", consumptionStatus, Self.consumptionStatusRange),
            ("platform", platform, Self.platformRange),
            ("deliveryStatus", deliveryStatus, Self.deliveryStatusRange),
            ("accountTenure", accountTenure, Self.accountTenureRange),
            ("playTime", playTime, Self.playTimeRange),
            ("lifetimeDollarsRefunded", lifetimeDollarsRefunded, Self.lifetimeDollarsRange),
            ("lifetimeDollarsPurchased", lifetimeDollarsPurchased, Self.lifetimeDollarsRange),
            ("userStatus", userStatus, Self.userStatusRange),
            ("refundPreference", refundPreference, Self.refundPreferenceRange),
        ]
        return checks.first { field in field.1.map { !field.2.contains($0) } ?? false }?.0
    }

    /// The version 2 delivery status this one maps to (decision 105): 0 `DELIVERED`, 1 `UNDELIVERED_QUALITY_ISSUE`,
    /// 2 `UNDELIVERED_WRONG_ITEM`, 3 `UNDELIVERED_SERVER_OUTAGE`, 4 and 5 `UNDELIVERED_OTHER`.
    public var mappedDeliveryStatus: ConsumptionInformation.DeliveryStatus {
        switch deliveryStatus {
        case 0: .delivered
        case 1: .undeliveredQualityIssue
        case 2: .undeliveredWrongItem
        case 3: .undeliveredServerOutage
        default: .undeliveredOther
        }
    }

    /// The version 2 refund preference this one maps to (decision 105): 1 `GRANT_FULL`, 2 `DECLINE`, none for 0, 3
    /// and an absent one.
    public var mappedRefundPreference: ConsumptionInformation.RefundPreference? {
        switch refundPreference {
        case 1: .grantFull
        case 2: .decline
        default: nil
        }
    }
}
