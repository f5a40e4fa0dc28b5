import Foundation
public import ReceiptKit
import StoreModels
import Synchronization

extension SimulatedStore {
    /// The app receipt of a device as it stands now, signed like Apple's (PKCS#7 SignedData, RSA-2048, SHA-256, no
    /// signed attributes, certificates leaf, intermediate, root) by the store's signer.
    ///
    /// The receipt reflects the store's state: the app's bundle identifier and versions, an opaque value and device
    /// hash for the device, one entry per purchase as StoreKit lists them (non-consumables, subscription periods with
    /// their expiry, non-renewing subscriptions, and consumables until they are finished), cancellation dates after
    /// refunds. It is signed when read and signed again only after its contents changed.
    ///
    /// - Throws: `ReceiptError` if signing fails.
    public func appReceipt(deviceID: String = "00000000-0000-4000-8000-000000000001") throws(ReceiptError) -> [UInt8] {
        let contents = receiptContents(deviceID: deviceID)
        if let cached = receipts.withLock({ $0[deviceID] }), cached.contents == contents { return cached.bytes }
        var receipt = contents
        receipt.creationDate = clock.now
        let bytes = try signer.sign(receipt)
        receipts.withLock { $0[deviceID] = IssuedReceipt(contents: contents, bytes: bytes) }
        return bytes
    }

    /// The app receipt of a device as a model, unsigned, with the current time as its creation date.
    public func appReceiptModel(deviceID: String = "00000000-0000-4000-8000-000000000001") -> AppReceipt {
        var receipt = receiptContents(deviceID: deviceID)
        receipt.creationDate = clock.now
        return receipt
    }

    /// The identifier of a device as receipts hash it: its UUID bytes when the device identifier is a UUID, or a MAC
    /// address; otherwise 16 bytes derived from its text.
    public static func deviceIdentifier(for deviceID: String) -> DeviceIdentifier {
        if let parsed = try? DeviceIdentifier(parsing: deviceID) { return parsed }
        return DeviceIdentifier(uuid: UUID(uuid: uuidBytes(derivedFrom: deviceID, salt: 0x5EED)))
    }

    /// Everything a receipt says except when it was made (the creation date is the reference date).
    private func receiptContents(deviceID: String) -> AppReceipt {
        let app = self.app
        let (purchases, expired) = state.withLock { state -> ([InAppPurchaseReceipt], Bool) in
            let account = state.devices[deviceID]?.account ?? Self.defaultAccount
            state.loadRecords(of: account)
            let unfinished = Set(state.devices.holdingTransactions.flatMap { $0.unfinished.compactMap(\.recordID) })
            let purchases = state.records(of: account)
                .filter { $0.state == .purchased && ($0.productType != .consumable || unfinished.contains($0.id)) }
                .map(Self.receiptEntry)
            return (purchases, state.receiptExpired.contains(deviceID))
        }
        let opaque = Self.opaqueValue(for: deviceID)
        let device = Self.deviceIdentifier(for: deviceID)
        return AppReceipt(
            receiptType: "ProductionSandbox",
            bundleIdentifier: app.bundleIdentifier,
            applicationVersion: app.applicationVersion,
            opaqueValue: opaque,
            sha1Hash: AppReceipt.deviceHash(for: device, opaqueValue: opaque, bundleIdentifier: app.bundleIdentifier),
            creationDate: Date(timeIntervalSinceReferenceDate: 0),
            inAppPurchases: purchases,
            originalApplicationVersion: app.originalApplicationVersion,
            expirationDate: expired ? clock.now.addingTimeInterval(-86_400) : nil
        )
    }

    private static func receiptEntry(_ record: TransactionRecord) -> InAppPurchaseReceipt {
        InAppPurchaseReceipt(
            quantity: record.quantity,
            productIdentifier: record.productID,
            transactionIdentifier: String(record.id),
            purchaseDate: record.purchaseDate,
            originalTransactionIdentifier: String(record.originalID),
            originalPurchaseDate: record.originalPurchaseDate,
            productType: InAppProductType(rawValue: Int64(record.productType.receiptProductType)),
            subscriptionExpirationDate: record.expirationDate,
            webOrderLineItemIdentifier: record.webOrderLineItemID.map { Int64($0) },
            cancellationDate: record.cancellationDate,
            isTrialPeriod: record.isTrialPeriod,
            isInIntroOfferPeriod: record.isInIntroOfferPeriod,
            promotionalOfferIdentifier: record.promotionalOfferID
        )
    }

    /// A device's opaque value: 16 bytes fixed for the device, as the App Store keeps one per device.
    static func opaqueValue(for deviceID: String) -> [UInt8] {
        let bytes = uuidBytes(derivedFrom: deviceID, salt: 0x0A9E)
        return [
            bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5, bytes.6, bytes.7,
            bytes.8, bytes.9, bytes.10, bytes.11, bytes.12, bytes.13, bytes.14, bytes.15,
        ]
    }

    /// 16 bytes spread from a string with FNV-1a (an identifier, not a secret), shaped as a version 4 UUID.
    private static func uuidBytes(derivedFrom text: String, salt: UInt64) -> uuid_t {
        var first: UInt64 = 0xCBF2_9CE4_8422_2325 ^ salt
        var second: UInt64 = 0x8422_2325_CBF2_9CE4 ^ (salt << 17)
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            second = (second ^ UInt64(byte) ^ (first >> 29)) &* 0x0000_0100_0000_01B3
        }
        let a = withUnsafeBytes(of: first.bigEndian) { Array($0) }
        let b = withUnsafeBytes(of: second.bigEndian) { Array($0) }
        return (
            a[0], a[1], a[2], a[3], a[4], a[5], (a[6] & 0x0F) | 0x40, a[7], (b[0] & 0x3F) | 0x80, b[1], b[2], b[3],
            b[4], b[5], b[6], b[7]
        )
    }

    /// Makes the next receipts of a device expired, as `SKReceiptRefreshRequest` does in the sandbox with
    /// `SKReceiptPropertyIsExpired`.
    public func setReceiptExpired(_ expired: Bool, deviceID: String) {
        journal?.begin(.operation(.setReceiptExpired(expired, deviceID: deviceID)))
        defer { journal?.end() }
        state.withLock { state in
            if expired { state.receiptExpired.insert(deviceID) } else { state.receiptExpired.remove(deviceID) }
        }
    }
}
