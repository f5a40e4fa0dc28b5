extension FeedParser {
    /// Apple's `notificationType` values and the subtypes each may carry (App Store Server Notifications V2).
    static let notificationSubtypes: [String: [String]] = [
        "SUBSCRIBED": ["INITIAL_BUY", "RESUBSCRIBE"],
        "DID_RENEW": ["BILLING_RECOVERY"],
        "DID_FAIL_TO_RENEW": ["GRACE_PERIOD"],
        "GRACE_PERIOD_EXPIRED": [],
        "EXPIRED": ["VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "PRODUCT_NOT_FOR_SALE"],
        "DID_CHANGE_RENEWAL_PREF": ["UPGRADE", "DOWNGRADE"],
        "DID_CHANGE_RENEWAL_STATUS": ["AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED"],
        "OFFER_REDEEMED": ["UPGRADE", "DOWNGRADE"],
        "PRICE_INCREASE": ["PENDING", "ACCEPTED"],
        "REFUND": [],
        "REFUND_DECLINED": [],
        "REFUND_REVERSED": [],
        "CONSUMPTION_REQUEST": [],
        "REVOKE": [],
        "RENEWAL_EXTENDED": [],
        "RENEWAL_EXTENSION": ["SUMMARY", "FAILURE"],
        "ONE_TIME_CHARGE": [],
        "TEST": [],
        "EXTERNAL_PURCHASE_TOKEN": ["UNREPORTED", "CREATED", "ACTIVE_TOKEN_REMINDER"],
        "RESCIND_CONSENT": [],
        "METADATA_UPDATE": [],
        "MIGRATION": [],
        "PRICE_CHANGE": [],
    ]

    /// Parses the words after `expect notification`, `expect notifications` or `expect no notification` (`kind` is
    /// the first of them: `notification`, `notifications` or `no`).
    func notificationExpectation(_ kind: String, _ reader: inout TokenReader) throws(FeedError)
        -> FeedStep.NotificationExpectation
    {
        switch kind {
        case "no":
            _ = reader.next()  // `notification`
            return .none
        case "notifications":
            return .count(try reader.count("a number of notifications"))
        default:
            break
        }
        let type = try reader.word("a notification type such as DID_RENEW")
        guard let subtypes = Self.notificationSubtypes[type] else {
            let names = Self.notificationSubtypes.keys.sorted()
            let close = names.filter { EditDistance.between(Array(type.uppercased()), Array($0), limit: 3) <= 3 }
            throw reader.error(
                .invalidValue, at: reader.lastColumn, "\"\(type)\" is not an App Store notification type",
                hint: close.isEmpty
                    ? "types are " + names.joined(separator: ", ")
                    : "did you mean " + close.joined(separator: " or ") + "?")
        }
        var pattern = FeedStep.NotificationExpectation.Pattern(type: type)
        if let word = reader.peek, !["for", "product", "status"].contains(word) {
            _ = reader.next()
            guard subtypes.contains(word) else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(word)\" is not a subtype of \(type)",
                    hint: subtypes.isEmpty
                        ? "\(type) has no subtype; remove it"
                        : "subtypes of \(type) are " + subtypes.joined(separator: ", ")
                            + "; leave it out for a notification without one")
            }
            pattern.subtype = word
        }
        while let option = reader.next() {
            switch option.word {
            case "for" where pattern.reference == nil && pattern.product == nil:
                pattern.reference = try reader.reference()
            case "product" where pattern.reference == nil && pattern.product == nil:
                pattern.product = try reader.word("a product identifier")
            case "status" where pattern.status == nil:
                let status = try reader.count("a subscription status from 1 to 5")
                guard (1...5).contains(status) else {
                    throw reader.error(
                        .outOfBounds, at: reader.lastColumn, "a subscription status is 1 to 5, not \(status)",
                        hint: "1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked")
                }
                pattern.status = status
            default:
                throw reader.error(
                    .wrongArguments, at: option.column, "unexpected \"\(option.word)\"",
                    hint: "write `expect notification TYPE [SUBTYPE] [for REF | product PRODUCT] [status N]`")
            }
        }
        return .next(pattern)
    }
}
