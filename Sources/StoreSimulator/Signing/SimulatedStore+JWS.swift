import Foundation
public import ReceiptKit
public import StoreModels
import Synchronization

extension SimulatedStore {
    /// The environment the store's JWS name: `Xcode` when ``jwsSigner`` signs with one self-signed certificate
    /// (`JWSSigningIdentity.openStoreKitXcode`), `Sandbox` otherwise.
    public var jwsEnvironment: JWSEnvironment {
        jwsSigner.identity.certificates.count == 1 ? .xcode : .sandbox
    }

    /// How the JWS the store hands out are spoiled: ``JWSTampering/none`` by default. Not kept in a state file.
    ///
    /// The store keeps signing honestly; only what the `signed…` methods return is spoiled, so that a test sees
    /// verification fail downstream (``JWSTampering/payload`` and ``JWSTampering/signature`` with
    /// `signatureInvalid`, ``JWSTampering/wrongRoot`` with `chainNotTrusted`).
    public var jwsTampering: JWSTampering {
        get { tampering.withLock { $0 } }
        set { tampering.withLock { $0 = newValue } }
    }

    /// The mapping from the store's records to Apple's payloads as the store stands now: its app, ``jwsEnvironment``,
    /// storefront and catalog.
    public var payloadMapping: SignedPayloadMapping {
        let environment = jwsEnvironment
        return state.withLock { payloadMapping(of: $0, environment: environment) }
    }

    /// The mapping as a state of the store stands; called under the store's lock.
    func payloadMapping(of state: borrowing StoreState, environment: JWSEnvironment) -> SignedPayloadMapping {
        SignedPayloadMapping(
            app: app, environment: environment, storefront: state.settings.storefront,
            catalog: state.configuration.catalog)
    }

    // MARK: Transactions

    /// A transaction signed as StoreKit 2 receives it, with its payload.
    ///
    /// It is signed when first asked for and signed again only after the record changed (a refund, an upgrade);
    /// `signedDate` is the store's clock at signing.
    ///
    /// - Parameter id: The transaction identifier.
    /// - Returns: The JWS and its payload.
    /// - Throws: `unknownTransaction`, `transactionNotSigned` for a transaction that is not a completed purchase
    ///   (failed, deferred, being bought), or `jwsSigningFailed`.
    public func signedTransactionValue(_ id: UInt64) throws(StoreSimulatorError) -> StoreSignedValue<JWSTransaction> {
        let environment = jwsEnvironment
        let (found, mapping) = state.withLock { ($0.records[id], payloadMapping(of: $0, environment: environment)) }
        guard let record = found else { throw Self.unknownTransaction(id) }
        return try signedTransactionValue(record, mapping: mapping)
    }

    /// A record signed as StoreKit 2 receives it, with its payload: ``signedTransactionValue(_:)`` of a record the
    /// caller already holds, such as the one a decided purchase reports
    /// (``DeviceListener/connection(_:didDecide:record:)``), so that the store need not look it up again.
    ///
    /// The JWS is cached by transaction identifier with the payload it was signed from: asking again for the same
    /// record, or for one whose payload has not changed, hands out the same JWS without signing.
    ///
    /// - Parameter record: The record, as the store wrote it.
    /// - Returns: The JWS and its payload.
    /// - Throws: `transactionNotSigned` for a record that is not a completed purchase, or `jwsSigningFailed`.
    package func signedTransactionValue(of record: TransactionRecord) throws(StoreSimulatorError)
        -> StoreSignedValue<JWSTransaction>
    {
        try signedTransactionValue(record, mapping: payloadMapping)
    }

    /// A record signed with a mapping: the cached JWS while the payload is the same.
    private func signedTransactionValue(_ record: TransactionRecord, mapping: SignedPayloadMapping)
        throws(StoreSimulatorError) -> StoreSignedValue<JWSTransaction>
    {
        guard record.state == .purchased || record.state == .restored else {
            throw StoreSimulatorError(
                .transactionNotSigned,
                "transaction \(record.id) is \(record.state), not purchased: the App Store signs only completed purchases"
            )
        }
        let id = record.id
        var unsigned = mapping.transaction(record, signedDate: Date(timeIntervalSince1970: 0))
        unsigned.signedDate = nil
        var grown = false
        let entry = try signed(
            unsigned, cached: { $0.transactions[id] },
            store: { cache, entry in grown = cache.keep(entry, forTransaction: id) },
            dated: { payload, now in payload.signedDate = JWSDate(now) })
        if grown { forgetSignedTransactionsOfDroppedRecords() }
        return entry
    }

    /// A record of a customer (``customer(ofTransaction:including:)``) signed as ``signedTransaction(_:)`` signs it,
    /// with the customer's payload mapping, without reading the store again: the same JWS while the record is the
    /// same.
    ///
    /// - Parameters:
    ///   - record: The customer's transaction, or one of its records.
    ///   - customer: The customer, as read.
    /// - Returns: The compact JWS.
    /// - Throws: `transactionNotSigned` for a transaction that is not a completed purchase, or `jwsSigningFailed`.
    public func signedTransaction(_ record: TransactionRecord, in customer: StoreCustomer) throws(StoreSimulatorError)
        -> String
    {
        try signedTransactionValue(record, mapping: customer.payloadMapping).jwsRepresentation
    }

    /// Drops the cached JWS of records the store no longer keeps (finished consumables of a store with
    /// `retention: .receiptOnly`, records of a reset), so that the cache holds no more than the history.
    private func forgetSignedTransactionsOfDroppedRecords() {
        let cached = jwsCache.withLock { Array($0.transactions.keys) }
        let dropped = state.withLock { state in cached.filter { state.records[$0] == nil } }
        jwsCache.withLock { $0.forget(transactions: dropped) }
    }

    /// A transaction signed as StoreKit 2 receives it: ``signedTransactionValue(_:)``'s JWS.
    ///
    /// - Parameter id: The transaction identifier.
    /// - Returns: The compact JWS.
    /// - Throws: As ``signedTransactionValue(_:)``.
    public func signedTransaction(_ id: UInt64) throws(StoreSimulatorError) -> String {
        try signedTransactionValue(id).jwsRepresentation
    }

    // MARK: Renewal info

    /// The renewal info of the subscription that began with a transaction, signed, with its payload.
    ///
    /// - Parameter originalTransactionID: The subscription's original transaction identifier.
    /// - Returns: The JWS and its payload.
    /// - Throws: `noSubscription` if no subscription began with that transaction, or `jwsSigningFailed`.
    public func signedRenewalInfoValue(originalTransactionID: UInt64) throws(StoreSimulatorError)
        -> StoreSignedValue<JWSRenewalInfo>
    {
        let environment = jwsEnvironment
        let now = clock.now
        let (found, mapping) = state.withLock {
            (
                $0.renewalSource(originalTransactionID: originalTransactionID, now: now),
                payloadMapping(of: $0, environment: environment)
            )
        }
        guard let source = found else { throw Self.noSubscription(originalTransactionID) }
        return try signedRenewalInfo(source, mapping: mapping)
    }

    /// The renewal info of a subscription of a customer (one of its ``StoreCustomer/subscriptionStatuses``, read with
    /// ``StoreCustomer/Parts/subscriptionStatuses``) signed as ``signedRenewalInfo(originalTransactionID:)`` signs it,
    /// without reading the store again.
    ///
    /// - Parameters:
    ///   - originalTransactionID: The original transaction a status of the customer names.
    ///   - customer: The customer, as read.
    /// - Returns: The compact JWS.
    /// - Throws: `noSubscription` if no status of the customer names that transaction, or `jwsSigningFailed`.
    public func signedRenewalInfo(originalTransactionID: UInt64, in customer: StoreCustomer)
        throws(StoreSimulatorError) -> String
    {
        guard let source = customer.renewals[originalTransactionID] else {
            throw Self.noSubscription(originalTransactionID)
        }
        return try signedRenewalInfo(source, mapping: customer.payloadMapping).jwsRepresentation
    }

    private static func noSubscription(_ originalTransactionID: UInt64) -> StoreSimulatorError {
        StoreSimulatorError(
            .noSubscription,
            "no subscription began with transaction \(originalTransactionID); list them with subscriptions(of:)")
    }

    /// The renewal info of an account's subscription in a group, signed, with its payload.
    ///
    /// - Parameters:
    ///   - groupID: The subscription group.
    ///   - account: The account.
    /// - Returns: The JWS and its payload.
    /// - Throws: `noSubscription` if the account never subscribed in the group, or `jwsSigningFailed`.
    public func signedRenewalInfoValue(groupID: String, account: String = SimulatedStore.defaultAccount)
        throws(StoreSimulatorError) -> StoreSignedValue<JWSRenewalInfo>
    {
        guard let subscription = subscription(groupID: groupID, account: account) else {
            throw StoreSimulatorError(
                .noSubscription, "account \(account) has no subscription in group \(groupID)")
        }
        return try signedRenewalInfoValue(originalTransactionID: subscription.originalID)
    }

    /// ``signedRenewalInfoValue(originalTransactionID:)``'s JWS.
    ///
    /// - Parameter originalTransactionID: The subscription's original transaction identifier.
    /// - Returns: The compact JWS.
    /// - Throws: As ``signedRenewalInfoValue(originalTransactionID:)``.
    public func signedRenewalInfo(originalTransactionID: UInt64) throws(StoreSimulatorError) -> String {
        try signedRenewalInfoValue(originalTransactionID: originalTransactionID).jwsRepresentation
    }

    /// ``signedRenewalInfoValue(groupID:account:)``'s JWS.
    ///
    /// - Parameters:
    ///   - groupID: The subscription group.
    ///   - account: The account.
    /// - Returns: The compact JWS.
    /// - Throws: As ``signedRenewalInfoValue(groupID:account:)``.
    public func signedRenewalInfo(groupID: String, account: String = SimulatedStore.defaultAccount)
        throws(StoreSimulatorError) -> String
    {
        try signedRenewalInfoValue(groupID: groupID, account: account).jwsRepresentation
    }

    /// The renewal info of a subscription signed with a mapping: an account's own subscription's cached while its
    /// payload is the same; a family member's shared subscription's (the purchaser's subscription, its renewal
    /// settings and billing, under the member's original transaction identifier) signed each time.
    private func signedRenewalInfo(_ source: StoreState.RenewalSource, mapping: SignedPayloadMapping)
        throws(StoreSimulatorError) -> StoreSignedValue<JWSRenewalInfo>
    {
        let subscription = source.subscription
        if let sharedOriginalID = source.sharedOriginalID {
            var payload = mapping.renewalInfo(
                subscription, history: source.history, eligibleWinBackOfferIDs: source.eligibleWinBackOfferIDs,
                signedDate: clock.now)
            payload.originalTransactionId = String(sharedOriginalID)
            return try signed(payload, cached: { _ in nil }, store: { _, _ in }, dated: { _, _ in })
        }
        let key = subscription.originalID
        var unsigned = mapping.renewalInfo(
            subscription, history: source.history, eligibleWinBackOfferIDs: source.eligibleWinBackOfferIDs,
            signedDate: Date(timeIntervalSince1970: 0))
        unsigned.signedDate = nil
        return try signed(
            unsigned, cached: { $0.renewals[key] }, store: { $0.renewals[key] = $1 },
            dated: { payload, now in payload.signedDate = JWSDate(now) })
    }

    // MARK: At a change

    /// The transaction of a change signed as it stood right after the change, with `signedDate` the change's date:
    /// what a notification of the change carries, even when the store moved on since.
    ///
    /// - Parameter change: A change the store told (``addChangeObserver(_:)``).
    /// - Returns: The JWS and its payload.
    /// - Throws: `jwsSigningFailed`.
    public func signedTransactionValue(of change: StoreChange) throws(StoreSimulatorError)
        -> StoreSignedValue<JWSTransaction>
    {
        let payload = payloadMapping.transaction(change.transaction, signedDate: change.date)
        return try signed(payload, cached: { _ in nil }, store: { _, _ in }, dated: { _, _ in })
    }

    /// The renewal info of a change's subscription signed as it stood right after the change, with `signedDate` the
    /// change's date; `nil` for a change of a product that is not an auto-renewable subscription.
    ///
    /// The subscription's periods are the history's up to the change's transaction, with that transaction as the change
    /// saw it.
    ///
    /// - Parameter change: A change the store told (``addChangeObserver(_:)``).
    /// - Returns: The JWS and its payload.
    /// - Throws: `jwsSigningFailed`.
    public func signedRenewalInfoValue(of change: StoreChange) throws(StoreSimulatorError)
        -> StoreSignedValue<JWSRenewalInfo>?
    {
        guard let subscription = change.subscription else { return nil }
        let latest = max(subscription.latestRecordID, change.transaction.id)
        var history = state.withLock { state in
            state.records(of: subscription.account).filter {
                $0.originalID == subscription.originalID && $0.id <= latest && $0.id != change.transaction.id
            }
        }
        history.append(change.transaction)
        let eligible = StoreState.eligibleWinBackOffers(
            of: subscription, history: history, catalog: catalog, now: change.date)
        let payload = payloadMapping.renewalInfo(
            subscription, history: history, eligibleWinBackOfferIDs: eligible.compactMap(\.identifier),
            signedDate: change.date)
        return try signed(payload, cached: { _ in nil }, store: { _, _ in }, dated: { _, _ in })
    }

    // MARK: App transaction

    /// The app transaction of an account, signed, with its payload; its `receiptCreationDate` is the store's clock
    /// at signing.
    ///
    /// - Parameter account: The account.
    /// - Returns: The JWS and its payload.
    /// - Throws: `jwsSigningFailed`.
    public func signedAppTransactionValue(account: String = SimulatedStore.defaultAccount)
        throws(StoreSimulatorError) -> StoreSignedValue<JWSAppTransaction>
    {
        var unsigned = payloadMapping.appTransaction(account: account, signedDate: Date(timeIntervalSince1970: 0))
        unsigned.receiptCreationDate = nil
        return try signed(
            unsigned, cached: { $0.apps[account] }, store: { $0.apps[account] = $1 },
            dated: { payload, now in payload.receiptCreationDate = JWSDate(now) })
    }

    /// ``signedAppTransactionValue(account:)``'s JWS.
    ///
    /// - Parameter account: The account.
    /// - Returns: The compact JWS.
    /// - Throws: As ``signedAppTransactionValue(account:)``.
    public func signedAppTransaction(account: String = SimulatedStore.defaultAccount) throws(StoreSimulatorError)
        -> String
    {
        try signedAppTransactionValue(account: account).jwsRepresentation
    }

    // MARK: Signing

    /// Signs a payload unless the cache holds the same one, and hands it out spoiled as ``jwsTampering`` says.
    private func signed<Payload: Encodable & Sendable & Hashable>(
        _ unsigned: Payload,
        cached: (JWSCache) -> JWSCache.Entry<Payload>?,
        store: (inout JWSCache, JWSCache.Entry<Payload>) -> Void,
        dated: (inout Payload, Date) -> Void
    ) throws(StoreSimulatorError) -> StoreSignedValue<Payload> {
        let honest: StoreSignedValue<Payload>
        if let entry = jwsCache.withLock({ cached($0) }), entry.unsigned == unsigned {
            honest = entry.signed
        } else {
            var payload = unsigned
            dated(&payload, clock.now)
            let jws = try sign(payload, with: jwsSigner)
            honest = StoreSignedValue(jwsRepresentation: jws, payload: payload)
            jwsCache.withLock { store(&$0, JWSCache.Entry(unsigned: unsigned, signed: honest)) }
        }
        switch jwsTampering {
        case .none:
            return honest
        case .payload:
            return StoreSignedValue(
                jwsRepresentation: Self.spoilPayload(of: honest.jwsRepresentation), payload: honest.payload)
        case .signature:
            return StoreSignedValue(
                jwsRepresentation: Self.spoilSignature(of: honest.jwsRepresentation), payload: honest.payload)
        case .wrongRoot:
            let jws = try sign(honest.payload, with: Self.unrelatedRootSigner)
            return StoreSignedValue(jwsRepresentation: jws, payload: honest.payload)
        }
    }

    private func sign(_ payload: some Encodable, with signer: JWSSigner) throws(StoreSimulatorError) -> String {
        do {
            return try signer.sign(payload)
        } catch {
            throw StoreSimulatorError(.jwsSigningFailed, "the store cannot sign a JWS: \(error)")
        }
    }

    private static let unrelatedRootSigner = JWSSigner(identity: .openStoreKitUnrelatedRoot)

    /// The JWS with one space added at the start of its payload's JSON: still a JSON object, no longer what was
    /// signed.
    static func spoilPayload(of jws: String) -> String {
        var segments = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segments.count == 3, let payload = base64URLDecoded(segments[1]) else { return jws }
        var json = payload
        if let brace = json.firstIndex(of: UInt8(ascii: "{")) { json.insert(UInt8(ascii: " "), at: brace + 1) }
        segments[1] = base64URLEncoded(json)
        return segments.joined(separator: ".")
    }

    /// The JWS with the first byte of its signature changed.
    static func spoilSignature(of jws: String) -> String {
        var segments = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segments.count == 3, var signature = base64URLDecoded(segments[2]), !signature.isEmpty else {
            return jws
        }
        signature[0] ^= 0x01
        segments[2] = base64URLEncoded(signature)
        return segments.joined(separator: ".")
    }

    private static func base64URLDecoded(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }

    private static func base64URLEncoded(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
