import Foundation
import StoreModels

extension StoreState {
    /// A value read from a state file that is outside its range or refers to nothing: where it is (the table or meta
    /// key, the row, the field) and what is wrong with it.
    struct StoredValueProblem: Error, CustomStringConvertible {
        /// The table, or `meta <key>` for a counter.
        var table: String
        /// The row's key, for a value in a table.
        var row: String?
        /// The field of the row.
        var field: String
        /// What is wrong, with the value found.
        var problem: String

        var description: String {
            let place = row.map { "table \(table), row \($0)" } ?? table
            return "\(place), field \(field): \(problem)"
        }
    }

    /// How far from 2001-01-01 a date in a state file may lie, in seconds: 10^13 (about 316,000 years), beyond the
    /// clock's last instant (``ManualClock/latestDate``) plus the longest period, and far from any overflow when a
    /// date is counted in milliseconds.
    static let storedDateLimit: TimeInterval = 1e13
    /// The most periods, billing attempts or offer periods a stored subscription may count: more than 10,000 years
    /// of daily renewals, and far from any overflow.
    static let storedCountLimit = 100_000_000
    /// The largest counter a state file may hold: 2^62. Files keep identifiers as signed 64-bit integers, and a
    /// counter grows by one per identifier it hands out, so from here a store would need 2^62 (about 4.6 × 10^18) more
    /// transactions before an identifier no longer fitted: none is ever handed out that the file could not hold.
    static let storedIdentifierLimit = UInt64(1) << 62
    /// The longest period (in its units) a stored catalog may give a subscription or an offer.
    static let storedPeriodLimit = 100_000

    /// Checks every number and reference of a state read from a file, before anything runs on it: counters in their
    /// range and above every identifier they handed out, dates within ``storedDateLimit`` of 2001, counts of periods and attempts
    /// within ``storedCountLimit``, each device's transactions once and its storefronts for its own transactions, each
    /// subscription filed under its own account and group, catalog periods and offers within their ranges, consumption
    /// information of a transaction handed out with its percentage in range, each mass extension filed under its own
    /// product and request identifier with a positive interval, a date and counts in range.
    /// - Throws: The first problem found, naming its table, row and field.
    func checkStoredValues() throws(StoredValueProblem) {
        typealias Meta = StoreTables.Meta
        let nextID = nextTransactionID
        try Self.require(
            (1...Self.storedIdentifierLimit).contains(nextID), "meta \(Meta.nextTransactionID)", nil, "value",
            "\(Int64(bitPattern: nextID)) is not a transaction identifier (1...\(Self.storedIdentifierLimit))")
        try Self.require(
            (1...Self.storedIdentifierLimit).contains(nextWebOrderLineItemID), "meta \(Meta.nextLineItemID)", nil,
            "value",
            "\(Int64(bitPattern: nextWebOrderLineItemID)) is not a line item identifier (1...\(Self.storedIdentifierLimit))"
        )
        let sequence = subscriptions.sequenceCounter
        try Self.require(
            sequence <= Self.storedIdentifierLimit, "meta \(Meta.subscriptionSequence)", nil, "value",
            "\(Int64(bitPattern: sequence)) is outside 0...\(Self.storedIdentifierLimit)")
        try checkCatalog()
        for record in records.values { try checkRecord(record) }
        for device in devices.values { try checkDevice(device) }
        for (slot, row) in subscriptions.rows(nil) { try checkSubscription(row, slot: slot) }
        for (id, information) in consumption { try checkConsumption(information, transaction: id) }
        for (key, request) in massExtensions { try checkMassExtension(request, key: key) }
    }

    private func checkConsumption(_ information: ConsumptionInformation, transaction id: UInt64)
        throws(StoredValueProblem)
    {
        let table = StoreTables.Table.consumption.rawValue
        let row = RecordRow.key(id)
        try checkIdentifier(id, table, row, "transaction")
        if let percentage = information.consumptionPercentage {
            try Self.require(
                ConsumptionInformation.percentageRange.contains(percentage), table, row, "consumptionPercentage",
                "\(percentage) is outside 0...100000")
        }
        if let field = information.version1?.invalidField {
            try Self.require(false, table, row, "version1.\(field)", "outside its values")
        }
    }

    private func checkMassExtension(_ request: MassRenewalExtension, key: String) throws(StoredValueProblem) {
        let table = StoreTables.Table.massExtensions.rawValue
        try Self.require(
            key == request.key, table, key, "productId, requestIdentifier",
            "the row holds the request \(request.requestIdentifier) of \(request.productID), not the one of its key")
        try Self.require(
            !request.requestIdentifier.isEmpty, table, key, "requestIdentifier", "the request identifier is empty")
        try Self.require(
            request.interval > 0 && request.interval <= Self.storedDateLimit, table, key, "interval",
            "\(request.interval) seconds is not a positive time within 10^13 seconds")
        try Self.checkDate(request.completeDate, table, key, "completeDate")
        for (count, field) in [(request.succeededCount, "succeededCount"), (request.failedCount, "failedCount")] {
            try Self.require(
                (0...Self.storedCountLimit).contains(count), table, key, field,
                "\(count) is outside 0...\(Self.storedCountLimit)")
        }
    }

    private func checkCatalog() throws(StoredValueProblem) {
        let table = StoreTables.Table.values.rawValue
        for product in configuration.catalog.products {
            guard let info = product.subscription else { continue }
            let field = "product \(product.id)"
            try Self.checkPeriod(info.period, table, "configuration", "\(field) subscription period")
            for offer in [info.introductoryOffer].compactMap({ $0 }) + info.promotionalOffers + info.winBackOffers {
                let name = "\(field) offer \(offer.identifier ?? "introductory")"
                try Self.checkPeriod(offer.period, table, "configuration", "\(name) period")
                try Self.require(
                    (1...Self.storedCountLimit).contains(offer.numberOfPeriods), table, "configuration",
                    "\(name) numberOfPeriods", "\(offer.numberOfPeriods) is outside 1...\(Self.storedCountLimit)")
            }
            for plan in info.billingPlans {
                try Self.require(
                    plan.price >= 0 && plan.commitmentPrice >= 0, table, "configuration",
                    "\(field) billing plan \(plan.kind.rawValue)", "a price is negative")
            }
        }
    }

    func checkRecord(_ record: TransactionRecord) throws(StoredValueProblem) {
        let table = StoreTables.Table.records.rawValue
        let row = RecordRow.key(record.id)
        try checkIdentifier(record.id, table, row, "id")
        try checkIdentifier(record.originalID, table, row, "originalID")
        try checkIdentifier(record.sharedFromID, table, row, "sharedFromID")
        if let item = record.webOrderLineItemID {
            try Self.require(
                item < nextWebOrderLineItemID, table, row, "webOrderLineItemID",
                "\(item) is not below the next line item identifier \(nextWebOrderLineItemID) "
                    + "(meta \(StoreTables.Meta.nextLineItemID)): it would be handed out again")
        }
        try Self.require(
            (1...Self.storedCountLimit).contains(record.quantity), table, row, "quantity",
            "\(record.quantity) is outside 1...\(Self.storedCountLimit)")
        for (date, field) in [
            (record.purchaseDate, "purchaseDate"), (record.originalPurchaseDate, "originalPurchaseDate"),
            (record.expirationDate, "expirationDate"), (record.cancellationDate, "cancellationDate"),
        ] {
            try Self.checkDate(date, table, row, field)
        }
        if let commitment = record.commitment {
            try Self.require(
                (1...Self.storedCountLimit).contains(commitment.totalBillingPeriods), table, row,
                "commitment totalBillingPeriods",
                "\(commitment.totalBillingPeriods) is outside 1...\(Self.storedCountLimit)")
            try Self.require(
                (1...commitment.totalBillingPeriods).contains(commitment.billingPeriodNumber), table, row,
                "commitment billingPeriodNumber",
                "\(commitment.billingPeriodNumber) is outside 1...\(commitment.totalBillingPeriods)")
            try Self.checkDate(commitment.expirationDate, table, row, "commitment expirationDate")
        }
    }

    private func checkDevice(_ device: Device) throws(StoredValueProblem) {
        let table = StoreTables.Table.devices.rawValue
        var seen = Set<UInt64>()
        for entry in device.queue {
            let transaction = entry.transaction
            try Self.require(
                seen.insert(transaction.id).inserted, table, device.id, "unfinished",
                "transaction \(transaction.id) is listed twice")
            try checkTransaction(transaction, table, device.id, "unfinished")
        }
        for transaction in device.otherDevicePurchases {
            try checkTransaction(transaction, table, device.id, "otherDevicePurchases")
        }
    }

    private func checkTransaction(
        _ transaction: DeviceTransaction, _ table: String, _ row: String, _ list: String
    ) throws(StoredValueProblem) {
        let field = "\(list) transaction \(transaction.id)"
        try checkIdentifier(transaction.id, table, row, field)
        try checkIdentifier(transaction.recordID, table, row, "\(field) recordID")
        try checkIdentifier(transaction.originalID, table, row, "\(field) originalID")
        try Self.require(
            (1...Self.storedCountLimit).contains(transaction.payment.quantity), table, row, "\(field) quantity",
            "\(transaction.payment.quantity) is outside 1...\(Self.storedCountLimit)")
        try Self.checkDate(transaction.transactionDate, table, row, "\(field) transactionDate")
    }

    private func checkSubscription(_ row: SubscriptionBook.SlotRow, slot: Int) throws(StoredValueProblem) {
        let table = StoreTables.Table.subscriptions.rawValue
        let key = StoreTables.slotKey(slot)
        if let due = row.due {
            try Self.checkDate(Date(timeIntervalSinceReferenceDate: due), table, key, "due")
        }
        if let sequence = row.sequence {
            try Self.require(
                sequence < subscriptions.sequenceCounter, table, key, "sequence",
                "\(sequence) is not below the scheduling counter \(subscriptions.sequenceCounter) (meta "
                    + "\(StoreTables.Meta.subscriptionSequence))")
        }
        guard let state = row.state else { return }
        try Self.require(
            row.key == Self.subscriptionKey(account: state.account, groupID: state.groupID), table, key, "key",
            "the key is not the subscription's account and group (\(state.account), \(state.groupID)): another "
                + "row has the same key, or the row was altered")
        try checkIdentifier(state.originalID, table, key, "originalID")
        try checkIdentifier(state.latestRecordID, table, key, "latestRecordID")
        for (count, field, lowest) in [
            (state.periodsPaid, "periodsPaid", 1), (state.periodsSinceAnchor, "periodsSinceAnchor", 0),
            (state.offerPeriodsLeft, "offerPeriodsLeft", 0), (state.failedRetryAttempts, "failedRetryAttempts", 0),
        ] {
            try Self.require(
                (lowest...Self.storedCountLimit).contains(count), table, key, field,
                "\(count) is outside \(lowest)...\(Self.storedCountLimit)")
        }
        for (date, field) in [
            (state.expiresAt, "expiresAt"), (state.gracePeriodEndsAt, "gracePeriodEndsAt"),
            (state.billingRetryEndsAt, "billingRetryEndsAt"), (state.billingIssueStartedAt, "billingIssueStartedAt"),
            (state.nextRetryAttemptAt, "nextRetryAttemptAt"), (state.periodAnchor, "periodAnchor"),
        ] {
            try Self.checkDate(date, table, key, field)
        }
        if let offer = state.offer {
            try Self.checkPeriod(offer.period, table, key, "offer period")
        }
    }

    /// A transaction identifier must have been handed out: below the next one.
    private func checkIdentifier(_ id: UInt64?, _ table: String, _ row: String, _ field: String)
        throws(StoredValueProblem)
    {
        guard let id else { return }
        try Self.require(
            id < nextTransactionID, table, row, field,
            "\(id) is not below the next transaction identifier \(nextTransactionID) (meta "
                + "\(StoreTables.Meta.nextTransactionID)): it would be handed out again")
    }

    private static func checkDate(_ date: Date?, _ table: String, _ row: String, _ field: String)
        throws(StoredValueProblem)
    {
        guard let date else { return }
        let seconds = date.timeIntervalSinceReferenceDate
        try require(
            (-storedDateLimit...storedDateLimit).contains(seconds), table, row, field,
            "\(seconds) seconds since 2001-01-01 is not a date within 10^13 seconds (about 316,000 years) of it")
    }

    private static func checkPeriod(_ period: SubscriptionPeriod, _ table: String, _ row: String, _ field: String)
        throws(StoredValueProblem)
    {
        try require(
            (1...storedPeriodLimit).contains(period.value), table, row, field,
            "\(period.value) is outside 1...\(storedPeriodLimit)")
    }

    private static func require(
        _ condition: Bool, _ table: String, _ row: String?, _ field: String, _ problem: @autoclosure () -> String
    ) throws(StoredValueProblem) {
        guard !condition else { return }
        throw StoredValueProblem(table: table, row: row, field: field, problem: problem())
    }
}
