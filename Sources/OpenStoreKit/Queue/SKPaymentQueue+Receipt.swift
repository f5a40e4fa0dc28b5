public import Foundation
import StoreSimulator

extension SKPaymentQueue {
    /// The app receipt of this queue's device, signed like Apple's: what `Bundle.main.appStoreReceiptURL` reads on
    /// Apple platforms. `nil` if it cannot be signed.
    public func appStoreReceiptData() -> Data? {
        (try? store.appReceipt(deviceID: deviceID)).map { Data($0) }
    }

    /// A file holding the app receipt of this queue's device, written when read: the `Bundle.main.appStoreReceiptURL`
    /// of this queue. The file lives in a folder of the system's temporary directory named after the store and the
    /// device.
    public var appStoreReceiptURL: URL? {
        guard let data = appStoreReceiptData() else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstorekit-receipts")
            .appendingPathComponent(String(UInt(bitPattern: ObjectIdentifier(store).hashValue), radix: 16))
            .appendingPathComponent(deviceID)
        let url = folder.appendingPathComponent("receipt")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if (try? Data(contentsOf: url)) != data { try data.write(to: url, options: .atomic) }
            return url
        } catch {
            return nil
        }
    }
}
