import Foundation
import StoreModels
public import StoreSimulator

// swift-format-ignore: AlwaysUseLowerCamelCase
/// A receipt-refresh property: make the refreshed receipt expired (testing only).
public let SKReceiptPropertyIsExpired = "expired"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// A receipt-refresh property: make the refreshed receipt revoked (testing only; accepted and ignored).
public let SKReceiptPropertyIsRevoked = "revoked"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// A receipt-refresh property: make the refreshed receipt a volume purchase (testing only; accepted and ignored).
public let SKReceiptPropertyIsVolumePurchase = "vpp"

/// Asks the store for a fresh app receipt, for when the receipt is missing or does not verify.
///
/// On success the receipt of the device is signed anew if it changed, and ``SKPaymentQueue/appStoreReceiptURL`` and
/// ``SKPaymentQueue/appStoreReceiptData()`` give it; the delegate hears `requestDidFinish(_:)`, or
/// `request(_:didFailWithError:)` when the store's `receiptRefresh` operation is made to fail.
public final class SKReceiptRefreshRequest: SKRequest, @unchecked Sendable {
    // @unchecked: the properties and device are constant; the rest is SKRequest's.

    /// The properties asked for (testing only).
    public let receiptProperties: [String: Any]?
    /// The device whose receipt is refreshed.
    public let deviceID: String

    /// Creates a request for the receipt of ``SKPaymentQueue/default()``'s device.
    public convenience init(receiptProperties properties: [String: Any]?) {
        self.init(receiptProperties: properties, store: .default, deviceID: SKPaymentQueue.defaultDeviceID)
    }

    /// Creates a request for the receipt of a device of a store.
    public init(receiptProperties properties: [String: Any]?, store: SimulatedStore, deviceID: String) {
        self.receiptProperties = properties
        self.deviceID = deviceID
        super.init(store: store)
    }

    /// Refreshes the receipt and answers the delegate.
    public override func perform() {
        if let failure = store.settings.simulatedErrors[.receiptRefresh] {
            delegate?.request(self, didFailWithError: SKError(failure))
            return
        }
        let expired = (receiptProperties?[SKReceiptPropertyIsExpired] as? Bool) ?? false
        store.setReceiptExpired(expired, deviceID: deviceID)
        do {
            _ = try store.appReceipt(deviceID: deviceID)
            delegate?.requestDidFinish(self)
        } catch {
            delegate?.request(
                self, didFailWithError: SKError(StoreFailure(.unknown, "the receipt could not be signed: \(error)")))
        }
    }
}
