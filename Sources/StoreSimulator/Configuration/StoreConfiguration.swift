public import Foundation
import StoreModels

/// A store's catalog and default settings, read from an Xcode `.storekit` configuration file or built in.
///
/// Every format version Xcode has written (1.0, 1.1, 2.0, 3.0, 4.0 and 5.0) loads; a file that declares another
/// `version` is refused rather than read by guesswork, and so is a file that declares a product identifier twice.
/// Unknown keys are ignored; a key with a value of the wrong kind is an error that names the file and the key's path,
/// such as `Products.storekit: subscriptionGroups[0].subscriptions[1].recurringSubscriptionPeriod: ...`.
public struct StoreConfiguration: Sendable, Hashable {
    /// The format versions (`version.major`, `version.minor`) of `.storekit` files this loader reads.
    public static let knownFormatVersions: [(major: Int, minor: Int)] = [
        (1, 0), (1, 1), (2, 0), (3, 0), (4, 0), (5, 0),
    ]

    /// The products.
    public var catalog: StoreCatalog
    /// The settings the file asks for (`settings` in the file).
    public var settings: StoreSettings
    /// The file it came from, if any.
    public var sourceName: String

    /// Creates a configuration from its parts.
    public init(catalog: StoreCatalog, settings: StoreSettings = StoreSettings(), sourceName: String = "built-in") {
        self.catalog = catalog
        self.settings = settings
        self.sourceName = sourceName
    }

    /// The most bytes a `.storekit` file may hold (16 MiB): one with hundreds of products holds a few hundred
    /// kilobytes. A larger file is refused from its size, before it is read.
    public static let maximumFileLength = 16 << 20

    /// Reads a `.storekit` file.
    ///
    /// - Throws: ``StoreSimulatorError`` with code `fileNotFound` (also for a file larger than
    ///   ``maximumFileLength``, refused before it is read), `invalidJSON` or `invalidConfiguration`.
    public init(contentsOf url: URL) throws(StoreSimulatorError) {
        let data: Data
        switch BoundedFile.read(atPath: url.path, limit: Self.maximumFileLength) {
        case .bytes(let bytes): data = Data(bytes)
        case .tooLarge(let size):
            throw StoreSimulatorError(
                .fileNotFound,
                "\(url.path): "
                    + BoundedFile.tooLargeMessage(size: size, limit: Self.maximumFileLength, what: "a .storekit file")
                    + "; check the path")
        case .unreadable(let reason):
            throw StoreSimulatorError(
                .fileNotFound, "\(url.path): cannot read the configuration file (\(reason)); check the path")
        }
        try self.init(data: data, sourceName: url.lastPathComponent)
    }

    /// Parses the contents of a `.storekit` file; `sourceName` names it in errors.
    ///
    /// - Throws: ``StoreSimulatorError`` with code `invalidJSON` or `invalidConfiguration`.
    public init(data: Data, sourceName: String) throws(StoreSimulatorError) {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw StoreSimulatorError(
                .invalidJSON,
                "\(sourceName): not valid JSON ; a .storekit file is JSON as Xcode writes it"
            )
        }
        let reader = ConfigurationReader(sourceName: sourceName)
        let object = try reader.object(root, at: "")
        try reader.checkVersion(object)
        var products: [ProductDefinition] = []
        var declared: [String: String] = [:]
        func add(_ product: ProductDefinition, at path: String) throws(StoreSimulatorError) {
            if let first = declared[product.id] {
                throw reader.fail(
                    "\(path).productID",
                    "the product identifier \"\(product.id)\" is already declared at \(first); "
                        + "give every product its own identifier")
            }
            declared[product.id] = "\(path).productID"
            products.append(product)
        }
        for (index, item) in try reader.optionalArray(object, "products", at: "").enumerated() {
            let path = "products[\(index)]"
            try add(try reader.product(item, at: path, subscription: nil), at: path)
        }
        for (index, item) in try reader.optionalArray(object, "nonRenewingSubscriptions", at: "").enumerated() {
            let path = "nonRenewingSubscriptions[\(index)]"
            try add(try reader.product(item, at: path, subscription: nil), at: path)
        }
        for (groupIndex, item) in try reader.optionalArray(object, "subscriptionGroups", at: "").enumerated() {
            let path = "subscriptionGroups[\(groupIndex)]"
            let group = try reader.object(item, at: path)
            let groupID = try reader.string(group, "id", at: path)
            for (index, item) in try reader.optionalArray(group, "subscriptions", at: path).enumerated() {
                let subPath = "\(path).subscriptions[\(index)]"
                let subscription = try reader.object(item, at: subPath)
                let info = try reader.subscriptionInfo(subscription, groupID: groupID, at: subPath)
                try add(try reader.product(item, at: subPath, subscription: info), at: subPath)
            }
        }
        let settingsObject = try reader.optionalObject(object, "settings", at: "") ?? [:]
        self.catalog = StoreCatalog(products: products)
        self.settings = try reader.settings(settingsObject, at: "settings")
        self.sourceName = sourceName
    }
}

/// Walks the JSON of a `.storekit` file, naming the path of whatever is wrong.
private struct ConfigurationReader {
    let sourceName: String

    func fail(_ path: String, _ message: String) -> StoreSimulatorError {
        StoreSimulatorError(.invalidConfiguration, "\(sourceName): \(path.isEmpty ? "top level" : path): \(message)")
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Refuses a `version` this loader does not know; a file without one is read as the oldest format.
    func checkVersion(_ object: [String: JSONValue]) throws(StoreSimulatorError) {
        guard let version = try optionalObject(object, "version", at: "") else { return }
        guard let major = try optionalInt(version, "major", at: "version") else {
            throw fail("version.major", "missing; Xcode writes the format version as {\"major\": 4, \"minor\": 0}")
        }
        let minor = try optionalInt(version, "minor", at: "version") ?? 0
        let known = StoreConfiguration.knownFormatVersions
        guard known.contains(where: { $0 == (major, minor) }) else {
            let list = known.map { "\($0.major).\($0.minor)" }.joined(separator: ", ")
            let path = known.contains(where: { $0.major == major }) ? "version.minor" : "version.major"
            throw fail(
                path,
                "format version \(major).\(minor) is not one this loader reads (\(list)); "
                    + "save the file from an Xcode that writes one of those, or use a release of OpenStoreKit that reads it"
            )
        }
    }

    func object(_ value: JSONValue, at path: String) throws(StoreSimulatorError) -> [String: JSONValue] {
        guard case .object(let object) = value else { throw fail(path, "expected an object") }
        return object
    }

    func optionalObject(_ object: [String: JSONValue], _ key: String, at path: String) throws(StoreSimulatorError)
        -> [String: JSONValue]?
    {
        guard let value = object[key]?.nonNull else { return nil }
        return try self.object(value, at: join(path, key))
    }

    func optionalArray(_ object: [String: JSONValue], _ key: String, at path: String) throws(StoreSimulatorError)
        -> [JSONValue]
    {
        guard let value = object[key]?.nonNull else { return [] }
        guard case .array(let array) = value else { throw fail(join(path, key), "expected an array") }
        return array
    }

    func string(_ object: [String: JSONValue], _ key: String, at path: String) throws(StoreSimulatorError) -> String {
        guard let value = object[key] else { throw fail(join(path, key), "missing; every entry needs one") }
        guard case .string(let text) = value else { throw fail(join(path, key), "expected a string") }
        return text
    }

    func optionalString(_ object: [String: JSONValue], _ key: String, at path: String) throws(StoreSimulatorError)
        -> String?
    {
        guard let value = object[key]?.nonNull else { return nil }
        guard case .string(let text) = value else { throw fail(join(path, key), "expected a string") }
        return text
    }

    func optionalBool(_ object: [String: JSONValue], _ key: String, at path: String) throws(StoreSimulatorError)
        -> Bool?
    {
        guard let value = object[key]?.nonNull else { return nil }
        guard case .bool(let flag) = value else { throw fail(join(path, key), "expected true or false") }
        return flag
    }

    func optionalInt(_ object: [String: JSONValue], _ key: String, at path: String) throws(StoreSimulatorError) -> Int?
    {
        guard let value = object[key]?.nonNull else { return nil }
        guard case .number(let number) = value, let exact = Int(exactly: number) else {
            throw fail(join(path, key), "expected a whole number")
        }
        return exact
    }

    func decimal(_ text: String, at path: String) throws(StoreSimulatorError) -> Decimal {
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !text.isEmpty,
            text.allSatisfy({ $0.isNumber || $0 == "." })
        else { throw fail(path, "expected a price such as \"0.99\", found \"\(text)\"") }
        return value
    }

    func period(_ text: String, at path: String) throws(StoreSimulatorError) -> SubscriptionPeriod {
        guard let period = SubscriptionPeriod(iso8601: text) else {
            throw fail(path, "expected an ISO 8601 duration such as \"P1M\" or \"P1W\", found \"\(text)\"")
        }
        return period
    }

    func product(_ value: JSONValue, at path: String, subscription: SubscriptionInfo?) throws(StoreSimulatorError)
        -> ProductDefinition
    {
        let object = try self.object(value, at: path)
        let id = try string(object, "productID", at: path)
        let typeName = try string(object, "type", at: path)
        guard let type = ProductType(rawValue: typeName) else {
            throw fail(
                join(path, "type"),
                "unknown product type \"\(typeName)\"; expected Consumable, NonConsumable, NonRenewingSubscription or RecurringSubscription"
            )
        }
        if type == .autoRenewableSubscription, subscription == nil {
            throw fail(join(path, "type"), "RecurringSubscription products belong in subscriptionGroups")
        }
        let priceText = try optionalString(object, "displayPrice", at: path) ?? "0"
        var localizations: [ProductLocalization] = []
        for (index, item) in try optionalArray(object, "localizations", at: path).enumerated() {
            let localizationPath = "\(path).localizations[\(index)]"
            let localization = try self.object(item, at: localizationPath)
            localizations.append(
                ProductLocalization(
                    locale: try optionalString(localization, "locale", at: localizationPath) ?? "en_US",
                    displayName: try optionalString(localization, "displayName", at: localizationPath) ?? "",
                    description: try optionalString(localization, "description", at: localizationPath) ?? ""
                )
            )
        }
        return ProductDefinition(
            id: id,
            referenceName: try optionalString(object, "referenceName", at: path),
            type: type,
            price: try decimal(priceText, at: join(path, "displayPrice")),
            isFamilyShareable: try optionalBool(object, "familyShareable", at: path) ?? false,
            localizations: localizations,
            subscription: subscription
        )
    }

    func offer(_ value: JSONValue, kind: ProductOffer.Kind, at path: String) throws(StoreSimulatorError) -> ProductOffer
    {
        let object = try self.object(value, at: path)
        let modeName = try string(object, "paymentMode", at: path)
        guard let mode = OfferPaymentMode(rawValue: modeName) else {
            throw fail(
                join(path, "paymentMode"),
                "unknown payment mode \"\(modeName)\"; expected free, payAsYouGo or payUpFront"
            )
        }
        let priceText = try optionalString(object, "displayPrice", at: path) ?? "0"
        let identifier: String? =
            switch kind {
            case .introductory: nil
            case .offerCode: try string(object, "referenceName", at: path)
            case .promotional, .winBack: try string(object, "offerID", at: path)
            }
        return ProductOffer(
            identifier: identifier,
            kind: kind,
            paymentMode: mode,
            price: mode == .freeTrial ? 0 : try decimal(priceText, at: join(path, "displayPrice")),
            period: try period(
                try string(object, "subscriptionPeriod", at: path), at: join(path, "subscriptionPeriod")),
            numberOfPeriods: max(1, try optionalInt(object, "numberOfPeriods", at: path) ?? 1),
            winBackEligibility: kind == .winBack ? try winBackEligibility(object, at: path) : nil,
            offerCodeEligibility: kind == .offerCode ? try offerCodeEligibility(object, at: path) : nil
        )
    }

    /// Who may redeem an offer code's offer: its `eligibility` (`new`, `existing`, `expired`); every customer when the
    /// file leaves it out.
    func offerCodeEligibility(_ object: [String: JSONValue], at path: String) throws(StoreSimulatorError)
        -> OfferCodeEligibility
    {
        guard object["eligibility"] != nil else { return OfferCodeEligibility() }
        var customers = Set<OfferCodeEligibility.Customer>()
        for (index, item) in try optionalArray(object, "eligibility", at: path).enumerated() {
            let itemPath = join(path, "eligibility[\(index)]")
            guard case .string(let name) = item, let customer = OfferCodeEligibility.Customer(rawValue: name) else {
                throw fail(itemPath, "expected new, existing or expired")
            }
            customers.insert(customer)
        }
        return OfferCodeEligibility(customers: customers)
    }

    /// The conditions of a win-back offer, under App Store Connect's names for them (docs/decisions.md 96).
    func winBackEligibility(_ object: [String: JSONValue], at path: String) throws(StoreSimulatorError)
        -> WinBackEligibility
    {
        func months(_ object: [String: JSONValue], _ key: String, at path: String) throws(StoreSimulatorError) -> Int? {
            guard let value = try optionalInt(object, key, at: path) else { return nil }
            guard value >= 0 else {
                throw fail(join(path, key), "expected a number of months, 0 or more, found \(value)")
            }
            return value
        }
        var eligibility = WinBackEligibility(
            paidSubscriptionDurationInMonths: try months(
                object, "customerEligibilityPaidSubscriptionDurationInMonths", at: path),
            waitBetweenOffersInMonths: try months(object, "customerEligibilityWaitBetweenOffersInMonths", at: path))
        let rangeKey = "customerEligibilityTimeSinceLastSubscribedInMonths"
        if let range = try optionalObject(object, rangeKey, at: path) {
            let rangePath = join(path, rangeKey)
            eligibility.minimumMonthsSinceLastSubscribed = try months(range, "minimum", at: rangePath)
            eligibility.maximumMonthsSinceLastSubscribed = try months(range, "maximum", at: rangePath)
            if let minimum = eligibility.minimumMonthsSinceLastSubscribed,
                let maximum = eligibility.maximumMonthsSinceLastSubscribed, minimum > maximum
            {
                throw fail(rangePath, "minimum \(minimum) is more than maximum \(maximum)")
            }
        }
        if let name = try optionalString(object, "priority", at: path) {
            guard let priority = WinBackEligibility.Priority(rawValue: name) else {
                throw fail(join(path, "priority"), "unknown priority \"\(name)\"; expected HIGH or NORMAL")
            }
            eligibility.priority = priority
        }
        return eligibility
    }

    func subscriptionInfo(_ object: [String: JSONValue], groupID: String, at path: String) throws(StoreSimulatorError)
        -> SubscriptionInfo
    {
        let periodText = try string(object, "recurringSubscriptionPeriod", at: path)
        var intro: ProductOffer?
        if let value = object["introductoryOffer"]?.nonNull {
            intro = try offer(value, kind: .introductory, at: join(path, "introductoryOffer"))
        } else if let first = try optionalArray(object, "introductoryOffers", at: path).first {
            intro = try offer(first, kind: .introductory, at: join(path, "introductoryOffers[0]"))
        }
        var promotional: [ProductOffer] = []
        for (index, item) in try optionalArray(object, "adHocOffers", at: path).enumerated() {
            promotional.append(try offer(item, kind: .promotional, at: join(path, "adHocOffers[\(index)]")))
        }
        var winBack: [ProductOffer] = []
        for (index, item) in try optionalArray(object, "winbackOffers", at: path).enumerated() {
            let offerPath = join(path, "winbackOffers[\(index)]")
            let offer = try offer(item, kind: .winBack, at: offerPath)
            if (promotional + winBack).contains(where: { $0.identifier == offer.identifier }) {
                throw fail(
                    join(offerPath, "offerID"),
                    "\"\(offer.identifier ?? "")\" names another offer of this subscription; each offer needs its own "
                        + "identifier")
            }
            winBack.append(offer)
        }
        var codes: [ProductOffer] = []
        for (index, item) in try optionalArray(object, "codeOffers", at: path).enumerated() {
            let offerPath = join(path, "codeOffers[\(index)]")
            let offer = try offer(item, kind: .offerCode, at: offerPath)
            if (promotional + winBack + codes).contains(where: { $0.identifier == offer.identifier }) {
                throw fail(
                    join(offerPath, "referenceName"),
                    "\"\(offer.identifier ?? "")\" names another offer of this subscription; give each offer code "
                        + "its own reference name")
            }
            codes.append(offer)
        }
        let subscriptionPeriod = try period(periodText, at: join(path, "recurringSubscriptionPeriod"))
        return SubscriptionInfo(
            groupID: try optionalString(object, "subscriptionGroupID", at: path) ?? groupID,
            groupLevel: try optionalInt(object, "groupNumber", at: path) ?? 1,
            period: subscriptionPeriod,
            introductoryOffer: intro,
            promotionalOffers: promotional,
            winBackOffers: winBack,
            offerCodes: codes,
            billingPlans: try billingPlans(object, period: subscriptionPeriod, at: path)
        )
    }

    /// The enabled billing plans of a subscription (format 5's `billingPlans`, docs/decisions.md 109): each with its
    /// `billingPlanType` (`BILLED_UPFRONT` or `MONTHLY`), `displayPrice` (the price of each billing period) and
    /// `commitmentDisplayPrice` (the whole commitment's); `isEnabled` false leaves a plan out. A monthly plan needs a
    /// subscription period of one year, and a subscription has at most one plan of each kind.
    func billingPlans(_ object: [String: JSONValue], period: SubscriptionPeriod, at path: String)
        throws(StoreSimulatorError) -> [BillingPlan]
    {
        var plans: [BillingPlan] = []
        for (index, item) in try optionalArray(object, "billingPlans", at: path).enumerated() {
            let planPath = join(path, "billingPlans[\(index)]")
            let plan = try self.object(item, at: planPath)
            let name = try string(plan, "billingPlanType", at: planPath)
            guard let kind = BillingPlan.Kind(rawValue: name) else {
                throw fail(
                    join(planPath, "billingPlanType"),
                    "unknown billing plan type \"\(name)\"; expected BILLED_UPFRONT or MONTHLY")
            }
            let price = try decimal(try string(plan, "displayPrice", at: planPath), at: join(planPath, "displayPrice"))
            var commitment: Decimal?
            if let text = try optionalString(plan, "commitmentDisplayPrice", at: planPath) {
                commitment = try decimal(text, at: join(planPath, "commitmentDisplayPrice"))
            }
            guard try optionalBool(plan, "isEnabled", at: planPath) ?? true else { continue }
            if kind == .monthly, !StoreState.lastSameTime(period, SubscriptionPeriod(value: 1, unit: .year)) {
                throw fail(
                    join(planPath, "billingPlanType"),
                    "a MONTHLY billing plan commits to a year of monthly payments; this subscription's period is "
                        + "\(period), not P1Y")
            }
            if plans.contains(where: { $0.kind == kind }) {
                throw fail(
                    join(planPath, "billingPlanType"), "a second \(name) billing plan; each kind may be listed once")
            }
            plans.append(BillingPlan(kind: kind, price: price, commitmentPrice: commitment))
        }
        return plans
    }

    func settings(_ object: [String: JSONValue], at path: String) throws(StoreSimulatorError) -> StoreSettings {
        var settings = StoreSettings()
        settings.askToBuyEnabled = try optionalBool(object, "_askToBuyEnabled", at: path) ?? false
        settings.disableDialogs = try optionalBool(object, "_disableDialogs", at: path) ?? false
        settings.interruptedPurchasesEnabled = try optionalBool(object, "_billingIssuesEnabled", at: path) ?? false
        settings.billingRetryOnRenewal = try optionalBool(object, "_renewalBillingIssuesEnabled", at: path) ?? false
        settings.billingGracePeriodEnabled = try optionalBool(object, "_billingGracePeriodEnabled", at: path) ?? false
        settings.failTransactionsEnabled = try optionalBool(object, "_failTransactionsEnabled", at: path) ?? false
        if let storefront = try optionalString(object, "_storefront", at: path) {
            settings.storefront = Storefront(countryCode: storefront)
        }
        if let locale = try optionalString(object, "_locale", at: path) { settings.locale = locale }
        if let rate = try optionalInt(object, "_timeRate", at: path) { settings.timeRate = rate }
        if let code = try optionalInt(object, "_storeKitError", at: path), code != 0 {
            settings.failureError = StoreErrorCode(rawValue: code) ?? .unknown
        }
        for (index, item) in try optionalArray(object, "_storeKitErrors", at: path).enumerated() {
            let entryPath = "\(path)._storeKitErrors[\(index)]"
            let entry = try self.object(item, at: entryPath)
            guard try optionalBool(entry, "enabled", at: entryPath) == true,
                let current = try optionalObject(entry, "current", at: entryPath),
                let api = Self.api(named: try optionalString(entry, "name", at: entryPath) ?? "")
            else { continue }
            let type = try optionalString(current, "type", at: join(entryPath, "current")) ?? "generic"
            settings.simulatedErrors[api] = StoreFailure(
                .unknown, "simulated \(type) error from the configuration file")
        }
        return settings
    }

    /// The operation an `_storeKitErrors` entry names, for the entries that apply to StoreKit 1.
    static func api(named name: String) -> StoreAPI? {
        switch name {
        case "Load Products": .loadProducts
        case "Purchase": .purchase
        case "App Store Sync": .restore
        case "App Transaction": .receiptRefresh
        default: nil
        }
    }
}
