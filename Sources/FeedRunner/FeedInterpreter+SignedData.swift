import Foundation
import OpenStoreKit
import StoreModels
import StoreSimulator

extension FeedInterpreter {
    /// Every StoreKit 2 JWS the store signs now, by file name (see ``FeedResult/signedData``): each completed
    /// transaction, each subscription's renewal info, and the app transaction of each account that bought something
    /// and of the current user. A value the store cannot sign is left out.
    func signedData() -> [String: String] {
        var files: [String: String] = [:]
        let records = store.allTransactions()
        for record in records where record.state == .purchased || record.state == .restored {
            guard let jws = try? store.signedTransaction(record.id) else { continue }
            files["transaction-\(record.id)-\(Self.fileSafe(record.productID)).jws"] = jws
        }
        var accounts = Set(records.map(\.account))
        if let device = world.devices[world.currentSeat] { accounts.insert(device.queue.account) }
        for account in accounts.sorted() {
            for subscription in store.subscriptions(of: account) {
                guard let jws = try? store.signedRenewalInfo(originalTransactionID: subscription.originalID) else {
                    continue
                }
                files["renewal-info-\(subscription.originalID)-\(Self.fileSafe(subscription.groupID)).jws"] = jws
            }
            if let jws = try? store.signedAppTransaction(account: account) {
                files["app-transaction-\(Self.fileSafe(account)).jws"] = jws
            }
        }
        return files
    }

    /// A name made safe for a file name: letters, digits, `.`, `-` and `_` kept, anything else `_`.
    static func fileSafe(_ name: String) -> String {
        let kept = name.unicodeScalars.map { scalar -> Character in
            let safe =
                (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)))
                || "._-".unicodeScalars.contains(scalar)
            return safe ? Character(scalar) : "_"
        }
        let text = String(kept)
        return text.isEmpty || text.hasPrefix(".") ? "_" + text : text
    }
}
