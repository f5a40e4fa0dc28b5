import Foundation
import StoreModels

/// One change to a store as its journal records it: an operation (``StoreOperation``), or a step a device took
/// through its connection, with its arguments.
///
/// A durable store appends a command to its journal before applying it. Replaying the commands in order, each at the
/// store time it was recorded at, on a fresh store reproduces the state exactly, because the engine is deterministic.
/// The binary layout of each command is part of the state file format (docs/durable-state.md): tags and field orders
/// are never changed or reused, only added.
enum StoreCommand: Sendable {
    /// ``DeviceConnection/submit(_:preparing:)``: a payment added to a device.
    case submit(PaymentRequest, deviceID: String)
    /// The store deciding a device's `.purchasing` transaction, with the listeners' answer when asked whether to go
    /// on in a changed storefront (`true` when they were not asked).
    case processPayment(UInt64, deviceID: String, continues: Bool)
    /// ``DeviceConnection/finish(_:)``: a transaction removed from a device.
    case finish(UInt64, deviceID: String)
    /// ``DeviceConnection/restore(applicationUsername:)``.
    case restore(deviceID: String, applicationUsername: String?)
    /// ``SimulatedStore/connect(deviceID:account:frontEnd:listener:)``: a device signed in to an account.
    case connect(deviceID: String, account: String)
    /// The clock was moved directly (not through the store); recorded when the journal is flushed or closed.
    case moveClock
    /// A change made through ``SimulatedStore/perform(_:reporting:)`` or the store's method of the same name.
    case operation(StoreOperation)

    /// The tag of each case in the binary format. Never renumbered or reused.
    fileprivate enum Tag: UInt8 {
        case submit = 1
        case processPayment = 2
        case finish = 3
        case restore = 4
        case connect = 5
        case updateSettings = 6
        case reconfigure = 7
        case script = 8
        case clearTransactions = 9
        case deleteTransaction = 10
        case approveAskToBuy = 11
        case declineAskToBuy = 12
        case refund = 13
        case buyProduct = 14
        case resolveIssue = 15
        case expireSubscription = 16
        case forceRenewal = 17
        case setAutoRenew = 18
        case requestPriceIncreaseConsent = 19
        case consentToPriceIncrease = 20
        case declinePriceIncrease = 21
        case advance = 22
        case setReceiptExpired = 23
        case moveClock = 24
        case updateAccountSettings = 25
        case showPriceConsent = 26
        case setHistoryRetention = 27
        case extendRenewalDate = 28
        case reverseRefund = 29
        case requestRefund = 30
        case declineRefund = 31
        case joinFamily = 32
        case leaveFamily = 33
        case joinFamilyAccounts = 36
        case setConsumptionInformation = 34
        case extendRenewalDates = 35
        case setAppAccountToken = 37
        case finishTransaction = 38
        case retentionMessaging = 43
        case buyProductForTesting = 52
    }

    // MARK: Encoding

    /// Appends the entry for this command, made at store time `time`: the tag, the time, then the arguments.
    func encode(at time: Date, into writer: inout JournalWriter) {
        switch self {
        case .submit(let request, let deviceID):
            writer.header(.submit, time)
            writer.payment(request)
            writer.string(deviceID)
        case .processPayment(let id, let deviceID, let continues):
            writer.header(.processPayment, time)
            writer.uint64(id)
            writer.string(deviceID)
            writer.bool(continues)
        case .finish(let id, let deviceID):
            writer.header(.finish, time)
            writer.uint64(id)
            writer.string(deviceID)
        case .restore(let deviceID, let username):
            writer.header(.restore, time)
            writer.string(deviceID)
            writer.optionalString(username)
        case .connect(let deviceID, let account):
            writer.header(.connect, time)
            writer.string(deviceID)
            writer.string(account)
        case .moveClock:
            writer.header(.moveClock, time)
        case .operation(let operation):
            Self.encode(operation, at: time, into: &writer)
        }
    }

    /// Appends the entry for an operation: its tag, the time, then its parameters.
    private static func encode(_ operation: StoreOperation, at time: Date, into writer: inout JournalWriter) {
        switch operation {
        case .updateSettings(let settings):
            writer.header(.updateSettings, time)
            writer.blob(Self.json(settings))
        case .reconfigure(let configuration):
            writer.header(.reconfigure, time)
            writer.blob(Self.json(StoredConfiguration(configuration)))
        case .script(let outcome, let productID):
            writer.header(.script, time)
            writer.outcome(outcome)
            writer.optionalString(productID)
        case .clearTransactions:
            writer.header(.clearTransactions, time)
        case .deleteTransaction(let id):
            writer.identified(.deleteTransaction, time, id)
        case .approveAskToBuy(let id):
            writer.identified(.approveAskToBuy, time, id)
        case .declineAskToBuy(let id):
            writer.identified(.declineAskToBuy, time, id)
        case .refund(let id, let reason, let percentage):
            writer.identified(.refund, time, id)
            writer.int(reason.rawValue)
            // A full refund ends here, as before prorated refunds; a prorated one adds its percentage.
            if let percentage { writer.int(percentage) }
        case .buyProduct(let productID, let quantity, let account, let username):
            writer.header(.buyProduct, time)
            writer.string(productID)
            writer.int(quantity)
            writer.string(account)
            writer.optionalString(username)
        case .buyProductForTesting(let productID, let quantity, let account, let username, let options):
            writer.header(.buyProductForTesting, time)
            writer.string(productID)
            writer.int(quantity)
            writer.string(account)
            writer.optionalString(username)
            // The options: a flag byte (1 a purchase date follows, 2 it renews until now, 4 a billing plan follows),
            // then the date, the promotional offer, the offer code and the plan (0 up front, 1 monthly). An entry
            // without a plan is the one written before plans were.
            writer.byte(
                (options.purchaseDate == nil ? 0 : 1) | (options.renewsUntilNow ? 2 : 0)
                    | (options.billingPlan == nil ? 0 : 4))
            if let date = options.purchaseDate { writer.date(date) }
            writer.optionalString(options.promotionalOfferID)
            writer.optionalString(options.offerCodeReferenceName)
            if let plan = options.billingPlan { writer.byte(plan == .monthly ? 1 : 0) }
        case .resolveIssue(let id):
            writer.identified(.resolveIssue, time, id)
        case .expireSubscription(let productID, let account):
            writer.header(.expireSubscription, time)
            writer.string(productID)
            writer.string(account)
        case .forceRenewal(let productID, let account):
            writer.header(.forceRenewal, time)
            writer.string(productID)
            writer.string(account)
        case .setAutoRenew(let enabled, let id):
            writer.identified(.setAutoRenew, time, id)
            writer.bool(enabled)
        case .requestPriceIncreaseConsent(let id):
            writer.identified(.requestPriceIncreaseConsent, time, id)
        case .consentToPriceIncrease(let id):
            writer.identified(.consentToPriceIncrease, time, id)
        case .declinePriceIncrease(let id):
            writer.identified(.declinePriceIncrease, time, id)
        case .advance(let date):
            writer.header(.advance, time)
            writer.date(date)
        case .setReceiptExpired(let expired, let deviceID):
            writer.header(.setReceiptExpired, time)
            writer.bool(expired)
            writer.string(deviceID)
        case .updateAccountSettings(let account, let settings):
            writer.header(.updateAccountSettings, time)
            writer.string(account)
            writer.blob(Self.json(settings))
        case .showPriceConsent(let account):
            writer.header(.showPriceConsent, time)
            writer.string(account)
        case .setHistoryRetention(let retention):
            writer.header(.setHistoryRetention, time)
            writer.byte(retention == .all ? 0 : 1)
        case .extendRenewalDate(let originalID, let interval):
            writer.identified(.extendRenewalDate, time, originalID)
            writer.double(interval)
        case .reverseRefund(let id):
            writer.identified(.reverseRefund, time, id)
        case .requestRefund(let id, let reason):
            writer.identified(.requestRefund, time, id)
            writer.string(reason.rawValue)
        case .declineRefund(let id):
            writer.identified(.declineRefund, time, id)
        case .joinFamily(let family, let accounts) where accounts.count == 1:
            writer.header(.joinFamily, time)
            writer.string(family)
            writer.string(accounts[0])
        case .joinFamily(let family, let accounts):
            writer.header(.joinFamilyAccounts, time)
            writer.string(family)
            writer.int(accounts.count)
            for account in accounts { writer.string(account) }
        case .leaveFamily(let account):
            writer.header(.leaveFamily, time)
            writer.string(account)
        case .setConsumptionInformation(let information, let id):
            writer.identified(.setConsumptionInformation, time, id)
            writer.bool(information.customerConsented)
            writer.bool(information.sampleContentProvided)
            writer.string(information.deliveryStatus.rawValue)
            writer.optionalInt(information.consumptionPercentage)
            writer.optionalString(information.refundPreference?.rawValue)
            // Version 2 information ends here, as before V1 was served; V1 adds the request as sent.
            if let version1 = information.version1 {
                writer.bool(version1.customerConsented)
                for value in [
                    version1.consumptionStatus, version1.platform, version1.deliveryStatus, version1.accountTenure,
                    version1.playTime, version1.lifetimeDollarsRefunded, version1.lifetimeDollarsPurchased,
                    version1.userStatus,
                ] {
                    writer.int(value)
                }
                writer.bool(version1.sampleContentProvided)
                writer.optionalString(version1.appAccountToken?.uuidString)
                writer.optionalInt(version1.refundPreference)
            }
        case .extendRenewalDates(let productID, let interval, let requestIdentifier, let storefronts):
            writer.header(.extendRenewalDates, time)
            writer.string(productID)
            writer.double(interval)
            writer.string(requestIdentifier)
            if let storefronts {
                writer.byte(1)
                writer.int(storefronts.count)
                for storefront in storefronts { writer.string(storefront) }
            } else {
                writer.byte(0)
            }
        case .setAppAccountToken(let token, let originalID):
            writer.identified(.setAppAccountToken, time, originalID)
            writer.string(token.uuidString)
        case .finishTransaction(let id):
            writer.identified(.finishTransaction, time, id)
        case .retentionMessaging(let change):
            writer.header(.retentionMessaging, time)
            writer.blob(Self.json(change))
        }
    }

    /// JSON for the rare commands that carry whole settings or catalogs.
    private static func json(_ value: some Encodable) -> [UInt8] {
        // Settings and configurations are plain data: encoding them cannot fail.
        (try? Array(JSONEncoder().encode(value))) ?? []
    }

    // MARK: Decoding

    /// Reads one entry: the command and the store time it was made at.
    /// - Throws: ``JournalReader/Failure`` naming the offset of what is missing, unknown or malformed.
    static func decode(_ bytes: [UInt8]) throws(JournalReader.Failure) -> (command: StoreCommand, time: Date) {
        let result = bytes.withUnsafeBytes { bytes in
            Result { () throws(JournalReader.Failure) in try decode(JournalReader(bytes)) }
        }
        return try result.get()
    }

    private static func decode(_ start: JournalReader) throws(JournalReader.Failure) -> (
        command: StoreCommand, time: Date
    ) {
        var reader = start
        let tagByte = try reader.byte("the command tag")
        guard let tag = Tag(rawValue: tagByte) else {
            throw JournalReader.Failure(
                offset: 0, message: "unknown command \(tagByte) (written by a newer release, or damaged)")
        }
        let time = try reader.date("the command's time")
        let command: StoreCommand
        switch tag {
        case .submit:
            command = .submit(try reader.payment(), deviceID: try reader.string("the device"))
        case .processPayment:
            command = .processPayment(
                try reader.uint64("the transaction"), deviceID: try reader.string("the device"),
                continues: try reader.bool("the storefront answer"))
        case .finish:
            command = .finish(try reader.uint64("the transaction"), deviceID: try reader.string("the device"))
        case .restore:
            command = .restore(
                deviceID: try reader.string("the device"),
                applicationUsername: try reader.optionalString("the application username"))
        case .connect:
            command = .connect(deviceID: try reader.string("the device"), account: try reader.string("the account"))
        case .updateSettings:
            command = .operation(.updateSettings(try reader.json(StoreSettings.self, "the settings")))
        case .reconfigure:
            command = .operation(
                .reconfigure(try reader.json(StoredConfiguration.self, "the configuration").configuration))
        case .script:
            command = .operation(.script(try reader.outcome(), productID: try reader.optionalString("the product")))
        case .clearTransactions:
            command = .operation(.clearTransactions)
        case .deleteTransaction:
            command = .operation(.deleteTransaction(try reader.uint64("the transaction")))
        case .approveAskToBuy:
            command = .operation(.approveAskToBuy(try reader.uint64("the transaction")))
        case .declineAskToBuy:
            command = .operation(.declineAskToBuy(try reader.uint64("the transaction")))
        case .refund:
            let id = try reader.uint64("the transaction")
            let start = reader.offset
            let raw = try reader.int("the refund reason")
            guard let reason = TransactionRecord.RevocationReason(rawValue: raw) else {
                throw JournalReader.Failure(offset: start, message: "unknown refund reason \(raw)")
            }
            var percentage: Int?
            if !reader.isAtEnd {
                let percentageStart = reader.offset
                let value = try reader.int("the refund percentage")
                guard TransactionRecord.revocationPercentageRange.contains(value) else {
                    throw JournalReader.Failure(
                        offset: percentageStart, message: "the refund percentage \(value) is outside 1...100000")
                }
                percentage = value
            }
            command = .operation(.refund(id, reason: reason, percentage: percentage))
        case .buyProduct:
            command = .operation(
                .buyProduct(
                    productID: try reader.string("the product"), quantity: try reader.int("the quantity"),
                    account: try reader.string("the account"),
                    applicationUsername: try reader.optionalString("the application username")))
        case .buyProductForTesting:
            let productID = try reader.string("the product")
            let quantity = try reader.int("the quantity")
            let account = try reader.string("the account")
            let username = try reader.optionalString("the application username")
            let flagsStart = reader.offset
            let flags = try reader.byte("the purchase options")
            guard flags & ~7 == 0 else {
                throw JournalReader.Failure(
                    offset: flagsStart, message: "the purchase options are \(flags), not a combination of 1, 2 and 4")
            }
            var options = TestPurchaseOptions(renewsUntilNow: flags & 2 != 0)
            if flags & 1 != 0 { options.purchaseDate = try reader.date("the purchase date") }
            options.promotionalOfferID = try reader.optionalString("the promotional offer")
            options.offerCodeReferenceName = try reader.optionalString("the offer code")
            if flags & 4 != 0 {
                let planStart = reader.offset
                switch try reader.byte("the billing plan") {
                case 0: options.billingPlan = .upFront
                case 1: options.billingPlan = .monthly
                case let other:
                    throw JournalReader.Failure(
                        offset: planStart, message: "the billing plan is \(other), not 0 (up front) or 1 (monthly)")
                }
            }
            command = .operation(
                .buyProductForTesting(
                    productID: productID, quantity: quantity, account: account, applicationUsername: username,
                    options: options))
        case .resolveIssue:
            command = .operation(.resolveIssue(try reader.uint64("the transaction")))
        case .expireSubscription:
            command = .operation(
                .expireSubscription(
                    productID: try reader.string("the product"), account: try reader.string("the account")))
        case .forceRenewal:
            command = .operation(
                .forceRenewal(
                    productID: try reader.string("the product"), account: try reader.string("the account")))
        case .setAutoRenew:
            let id = try reader.uint64("the transaction")
            command = .operation(.setAutoRenew(try reader.bool("the auto-renew flag"), transactionID: id))
        case .requestPriceIncreaseConsent:
            command = .operation(.requestPriceIncreaseConsent(try reader.uint64("the transaction")))
        case .consentToPriceIncrease:
            command = .operation(.consentToPriceIncrease(try reader.uint64("the transaction")))
        case .declinePriceIncrease:
            command = .operation(.declinePriceIncrease(try reader.uint64("the transaction")))
        case .advance:
            command = .operation(.advance(to: try reader.date("the target time")))
        case .setReceiptExpired:
            command = .operation(
                .setReceiptExpired(try reader.bool("the expired flag"), deviceID: try reader.string("the device")))
        case .moveClock:
            command = .moveClock
        case .updateAccountSettings:
            command = .operation(
                .updateAccountSettings(
                    account: try reader.string("the account"),
                    try reader.json(AccountSettings.self, "the account's settings")))
        case .showPriceConsent:
            command = .operation(.showPriceConsent(account: try reader.string("the account")))
        case .setHistoryRetention:
            let start = reader.offset
            switch try reader.byte("the history retention") {
            case 0: command = .operation(.setHistoryRetention(.all))
            case 1: command = .operation(.setHistoryRetention(.receiptOnly))
            case let other: throw JournalReader.Failure(offset: start, message: "unknown history retention \(other)")
            }
        case .extendRenewalDate:
            let originalID = try reader.uint64("the original transaction")
            let start = reader.offset
            let interval = try reader.double("the extension")
            guard interval > 0, interval.isFinite else {
                throw JournalReader.Failure(
                    offset: start, message: "the extension \(interval) s is not a positive time")
            }
            command = .operation(.extendRenewalDate(originalID: originalID, by: interval))
        case .reverseRefund:
            command = .operation(.reverseRefund(try reader.uint64("the transaction")))
        case .requestRefund:
            let id = try reader.uint64("the transaction")
            let start = reader.offset
            let raw = try reader.string("the refund request's reason")
            guard let reason = RefundRequestReason(rawValue: raw) else {
                throw JournalReader.Failure(offset: start, message: "unknown refund request reason \(raw)")
            }
            command = .operation(.requestRefund(id, reason: reason))
        case .declineRefund:
            command = .operation(.declineRefund(try reader.uint64("the transaction")))
        case .joinFamily:
            command = .operation(
                .joinFamily(try reader.string("the family"), accounts: [try reader.string("the account")]))
        case .joinFamilyAccounts:
            let family = try reader.string("the family")
            let start = reader.offset
            let count = try reader.int("the number of accounts")
            guard count > 1 else {
                throw JournalReader.Failure(offset: start, message: "\(count) accounts to put in a family; at least 2")
            }
            var accounts: [String] = []
            for _ in 0..<count { accounts.append(try reader.string("an account")) }  // ends with the entry's bytes
            command = .operation(.joinFamily(family, accounts: accounts))
        case .leaveFamily:
            command = .operation(.leaveFamily(account: try reader.string("the account")))
        case .setConsumptionInformation:
            let id = try reader.uint64("the transaction")
            command = .operation(.setConsumptionInformation(try reader.consumptionInformation(), transactionID: id))
        case .extendRenewalDates:
            let productID = try reader.string("the product")
            let start = reader.offset
            let interval = try reader.double("the extension")
            guard interval > 0, interval.isFinite else {
                throw JournalReader.Failure(
                    offset: start, message: "the extension \(interval) s is not a positive time")
            }
            let requestIdentifier = try reader.string("the request identifier")
            var storefronts: [String]?
            if try reader.bool("the presence of the storefronts") {
                let countStart = reader.offset
                let count = try reader.int("the number of storefronts")
                guard count >= 0 else {
                    throw JournalReader.Failure(offset: countStart, message: "\(count) storefronts is negative")
                }
                var list: [String] = []
                for _ in 0..<count { list.append(try reader.string("a storefront")) }
                storefronts = list
            }
            command = .operation(
                .extendRenewalDates(
                    productID: productID, by: interval, requestIdentifier: requestIdentifier,
                    storefrontCountryCodes: storefronts))
        case .setAppAccountToken:
            let originalID = try reader.uint64("the original transaction")
            let start = reader.offset
            let text = try reader.string("the app account token")
            guard let token = UUID(uuidString: text) else {
                throw JournalReader.Failure(offset: start, message: "the app account token \(text) is not a UUID")
            }
            command = .operation(.setAppAccountToken(token, originalTransactionID: originalID))
        case .finishTransaction:
            command = .operation(.finishTransaction(try reader.uint64("the transaction")))
        case .retentionMessaging:
            command = .operation(
                .retentionMessaging(try reader.json(RetentionMessagingChange.self, "the Retention Messaging change")))
        }
        guard reader.isAtEnd else {
            throw JournalReader.Failure(offset: reader.offset, message: "unexpected bytes after the command")
        }
        return (command, time)
    }
}

extension JournalWriter {
    fileprivate mutating func header(_ tag: StoreCommand.Tag, _ time: Date) {
        byte(tag.rawValue)
        date(time)
    }

    fileprivate mutating func identified(_ tag: StoreCommand.Tag, _ time: Date, _ id: UInt64) {
        header(tag, time)
        uint64(id)
    }

    fileprivate mutating func payment(_ request: PaymentRequest) {
        string(request.productID)
        int(request.quantity)
        optionalString(request.applicationUsername)
        bool(request.simulatesAskToBuy)
        bool(request.hasRequestData)
        // The offer: 0 none, 1 a promotional offer's discount, 2 a win-back offer, 3 a promotional offer signed as a
        // JWS (files written before win-back offers hold only 0 and 1, before JWS offers 0 to 2); plus 16 when an
        // introductory offer eligibility JWS follows the offer (never in files written before JWS offers).
        // Plus 32 when a billing plan (a byte, 0 up front, 1 monthly) follows the rest (never in files written before
        // billing plans).
        let extras: UInt8 =
            (request.introductoryOfferEligibilityJWS == nil ? 0 : 16) + (request.billingPlan == nil ? 0 : 32)
        if let signed = request.signedPromotionalOffer {
            byte(3 + extras)
            string(signed.offerID)
            string(signed.compactJWS)
        } else if let discount = request.discount {
            byte(1 + extras)
            string(discount.offerID)
            string(discount.keyID)
            string(discount.nonce)
            string(discount.signature)
            int64(discount.timestamp)
        } else if let winBackOfferID = request.winBackOfferID {
            byte(2 + extras)
            string(winBackOfferID)
        } else {
            byte(extras)
        }
        if let eligibilityJWS = request.introductoryOfferEligibilityJWS { string(eligibilityJWS) }
        if let plan = request.billingPlan { byte(plan == .monthly ? 1 : 0) }
    }

    fileprivate mutating func optionalInt(_ value: Int?) {
        guard let value else { return byte(0) }
        byte(1)
        int(value)
    }

    fileprivate mutating func outcome(_ outcome: ScriptedOutcome) {
        switch outcome {
        case .succeed:
            byte(0)
        case .fail(let failure):
            byte(1)
            int(failure.code.rawValue)
            string(failure.message)
        case .askToBuy:
            byte(2)
        case .interrupt:
            byte(3)
        }
    }
}

extension JournalReader {
    fileprivate mutating func payment() throws(Failure) -> PaymentRequest {
        let productID = try string("the payment's product")
        let quantity = try int("the payment's quantity")
        let username = try optionalString("the payment's application username")
        let askToBuy = try bool("the payment's Ask to Buy flag")
        let requestData = try bool("the payment's request data flag")
        var discount: DiscountRequest?
        var winBackOfferID: String?
        var signed: SignedPromotionalOffer?
        let offerStart = offset
        let kind = try byte("the kind of the payment's offer")
        switch kind & ~(16 | 32) {
        case 0:
            break
        case 1:
            discount = DiscountRequest(
                offerID: try string("the discount's offer"), keyID: try string("the discount's key"),
                nonce: try string("the discount's nonce"), signature: try string("the discount's signature"),
                timestamp: try int64("the discount's timestamp"))
        case 2:
            winBackOfferID = try string("the payment's win-back offer")
        case 3:
            signed = SignedPromotionalOffer(
                offerID: try string("the signed offer's identifier"), compactJWS: try string("the signed offer's JWS"))
        default:
            throw Failure(
                offset: offerStart,
                message: "the kind of the payment's offer is \(kind), not 0 (none), 1 (discount), 2 (win-back) or 3 "
                    + "(signed offer), plus 16 with an introductory offer eligibility JWS, plus 32 with a billing plan")
        }
        let eligibilityJWS = kind & 16 == 0 ? nil : try string("the introductory offer eligibility JWS")
        var billingPlan: BillingPlan.Kind?
        if kind & 32 != 0 {
            let planStart = offset
            switch try byte("the payment's billing plan") {
            case 0: billingPlan = .upFront
            case 1: billingPlan = .monthly
            case let other:
                throw Failure(
                    offset: planStart,
                    message: "the payment's billing plan is \(other), not 0 (up front) or 1 (monthly)")
            }
        }
        return PaymentRequest(
            productID: productID, quantity: quantity, applicationUsername: username, simulatesAskToBuy: askToBuy,
            discount: discount, hasRequestData: requestData, winBackOfferID: winBackOfferID,
            signedPromotionalOffer: signed, introductoryOfferEligibilityJWS: eligibilityJWS, billingPlan: billingPlan)
    }

    fileprivate mutating func consumptionInformation() throws(Failure) -> ConsumptionInformation {
        let consented = try bool("the customer's consent")
        let sample = try bool("the sample flag")
        let deliveryStart = offset
        let delivery = try string("the delivery status")
        guard let deliveryStatus = ConsumptionInformation.DeliveryStatus(rawValue: delivery) else {
            throw Failure(offset: deliveryStart, message: "unknown delivery status \(delivery)")
        }
        var percentage: Int?
        if try bool("the presence of the consumption percentage") {
            let start = offset
            let value = try int("the consumption percentage")
            guard ConsumptionInformation.percentageRange.contains(value) else {
                throw Failure(offset: start, message: "the consumption percentage \(value) is outside 0...100000")
            }
            percentage = value
        }
        var preference: ConsumptionInformation.RefundPreference?
        let preferenceStart = offset
        if let raw = try optionalString("the refund preference") {
            guard let value = ConsumptionInformation.RefundPreference(rawValue: raw) else {
                throw Failure(offset: preferenceStart, message: "unknown refund preference \(raw)")
            }
            preference = value
        }
        var information = ConsumptionInformation(
            customerConsented: consented, sampleContentProvided: sample, deliveryStatus: deliveryStatus,
            consumptionPercentage: percentage, refundPreference: preference)
        if !isAtEnd { information.version1 = try consumptionInformationV1() }
        return information
    }

    /// The V1 request that follows the version 2 fields of consumption information (never in files written before V1 was
    /// served).
    fileprivate mutating func consumptionInformationV1() throws(Failure) -> ConsumptionInformationV1 {
        let start = offset
        let consented = try bool("the V1 customer's consent")
        var values: [Int] = []
        for name in [
            "consumptionStatus", "platform", "deliveryStatus", "accountTenure", "playTime", "lifetimeDollarsRefunded",
            "lifetimeDollarsPurchased", "userStatus",
        ] {
            values.append(try int("the V1 \(name)"))
        }
        let sample = try bool("the V1 sample flag")
        let tokenStart = offset
        var token: UUID?
        if let text = try optionalString("the V1 app account token") {
            guard let uuid = UUID(uuidString: text) else {
                throw Failure(offset: tokenStart, message: "the V1 app account token \(text) is not a UUID")
            }
            token = uuid
        }
        var preference: Int?
        if try bool("the presence of the V1 refund preference") { preference = try int("the V1 refund preference") }
        let information = ConsumptionInformationV1(
            customerConsented: consented, consumptionStatus: values[0], platform: values[1],
            sampleContentProvided: sample, deliveryStatus: values[2], appAccountToken: token,
            accountTenure: values[3], playTime: values[4], lifetimeDollarsRefunded: values[5],
            lifetimeDollarsPurchased: values[6], userStatus: values[7], refundPreference: preference)
        if let field = information.invalidField {
            throw Failure(offset: start, message: "the V1 consumption information's \(field) is outside its values")
        }
        return information
    }

    fileprivate mutating func outcome() throws(Failure) -> ScriptedOutcome {
        let start = offset
        switch try byte("the scripted outcome") {
        case 0:
            return .succeed
        case 1:
            let codeStart = offset
            let raw = try int("the scripted error code")
            guard let code = StoreErrorCode(rawValue: raw) else {
                throw Failure(offset: codeStart, message: "unknown store error code \(raw)")
            }
            return .fail(StoreFailure(code, try string("the scripted error message")))
        case 2:
            return .askToBuy
        case 3:
            return .interrupt
        case let other:
            throw Failure(offset: start, message: "unknown scripted outcome \(other)")
        }
    }

    fileprivate mutating func json<T: Decodable>(_ type: T.Type, _ what: String) throws(Failure) -> T {
        let start = offset
        let bytes = try blob(what)
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw Failure(offset: start, message: "\(what) is not readable JSON (\(error))")
        }
    }
}
