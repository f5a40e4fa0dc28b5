import OpenStoreKit
import OpenStoreKit2
import StoreModels
import StoreSimulator

extension FeedInterpreter {
    /// StoreKit 2 on the current user's device.
    private var storeKit2Driver: StoreKitDriver? {
        if let driver = storeKit2.drivers[currentSeat] { return driver }
        guard let queue = users[currentSeat]?.queue else { return nil }
        let driver = StoreKitDriver(store: store, deviceID: queue.deviceID, account: queue.account)
        storeKit2.drivers[currentSeat] = driver
        return driver
    }

    /// Carries out an `sk2` step; returns a failure message, or nil.
    func performStoreKit2(_ step: FeedStep.StoreKit2Step) -> String? {
        guard let driver = storeKit2Driver else { return "\(currentSeatDescription) has no device" }
        switch step {
        case .listen:
            guard !storeKit2.listening.contains(currentSeat) else { return nil }
            storeKit2.listening.append(currentSeat)
            listen(seat: currentSeat, user: currentUser, driver: driver)
        case .buy(let product, let quantity, let askToBuy, let handle):
            let outcome = driver.purchase(product, quantity: quantity, askToBuy: askToBuy)
            var purchase = FeedStoreKit2.Purchase(product: product, result: "failed")
            var event = EventLine(logging: logs, seq: nextSequence(), time: clock.now, event: "sk2-purchase")
            event.add("user", currentUser)
            if currentDevice != Self.mainDevice { event.add("device", currentDevice) }
            event.add("handle", handle)
            event.add("product", product)
            switch outcome {
            case .success(let verification):
                let transaction = verification.unsafePayloadValue
                let verified = Self.isVerified(verification)
                purchase.result = "success"
                purchase.transactionID = transaction.id
                purchase.verified = verified
                storeKit2.latest[currentSeat + "\n" + product] = (transaction.id, verified)
                event.add("result", "success")
                event.add("id", String(transaction.id))
                event.add("verified", verified)
            case .userCancelled:
                purchase.result = "cancelled"
                event.add("result", "cancelled")
            case .pending:
                purchase.result = "pending"
                event.add("result", "pending")
            case .failed(let message):
                event.add("result", "failed")
                event.add("error", message)
            }
            sink.append(event.line)
            if let handle { storeKit2.purchases[handle] = purchase }
        case .finish(let reference):
            guard let (id, _) = storeKit2Transaction(reference) else {
                return "no StoreKit 2 transaction for \(reference) yet"
            }
            var event = EventLine(logging: logs, seq: nextSequence(), time: clock.now, event: "sk2-finish")
            event.add("user", currentUser)
            event.add("id", String(id))
            sink.append(event.line)
            driver.finish(id)
        }
        return nil
    }

    /// Starts a seat's updates listener, which logs each update and remembers its product.
    private func listen(seat: String, user: String, driver: StoreKitDriver) {
        let reference = FeedRunReference(run: self)
        let device = seat.split(separator: "\n").dropFirst().first.map(String.init)
        driver.listen { update in
            let run = reference.run
            let transaction = update.unsafePayloadValue
            let verified = Self.isVerified(update)
            run.storeKit2.heard[seat, default: []].append(transaction.productID)
            run.storeKit2.latest[seat + "\n" + transaction.productID] = (transaction.id, verified)
            var event = EventLine(logging: run.logs, seq: run.nextSequence(), time: run.clock.now, event: "sk2-update")
            event.add("user", user)
            if let device { event.add("device", device) }
            event.add("product", transaction.productID)
            event.add("id", String(transaction.id))
            event.add("reason", transaction.reason.rawValue)
            event.add("revoked", transaction.revocationDate != nil)
            event.add("verified", verified)
            run.sink.append(event.line)
        }
    }

    /// After a restart: StoreKit 2 starts again on each device, and apps that listened listen again.
    func restartStoreKit2() {
        storeKit2.drivers.removeAll()
        for seat in storeKit2.listening {
            guard let queue = users[seat]?.queue else { continue }
            let driver = StoreKitDriver(store: store, deviceID: queue.deviceID, account: queue.account)
            storeKit2.drivers[seat] = driver
            listen(seat: seat, user: queue.account, driver: driver)
        }
    }

    private static func isVerified(_ result: VerificationResult<Transaction>) -> Bool {
        if case .verified = result { return true }
        return false
    }

    /// The transaction a reference names: an `sk2 buy` handle, or the latest StoreKit 2 transaction of a product.
    private func storeKit2Transaction(_ reference: FeedStep.Reference) -> (UInt64, Bool)? {
        switch reference {
        case .handle(let name):
            guard let purchase = storeKit2.purchases[name], let id = purchase.transactionID else { return nil }
            return (id, purchase.verified ?? false)
        case .product(let product):
            return storeKit2.latest[currentSeat + "\n" + product].map { ($0.id, $0.verified) }
        }
    }

    /// Checks an `expect sk2` expectation; returns a failure message, or nil.
    func checkStoreKit2(_ expectation: FeedStep.StoreKit2Expectation) -> String? {
        guard let driver = storeKit2Driver else { return "\(currentSeatDescription) has no device" }
        switch expectation {
        case .result(let reference, let expected):
            let result: String
            switch reference {
            case .handle(let name): result = storeKit2.purchases[name]?.result ?? "none"
            case .product: result = storeKit2Transaction(reference) == nil ? "none" : "success"
            }
            return result == expected ? nil : "expected the purchase \(reference) \(expected), it was \(result)"
        case .updates(let expected):
            let heard = storeKit2.heard[currentSeat] ?? []
            return heard == expected
                ? nil : "expected updates [\(expected.joined(separator: " "))], heard [\(heard.joined(separator: " "))]"
        case .entitlements(let expected):
            let products = driver.currentEntitlements().map(\.unsafePayloadValue.productID)
            return products == expected
                ? nil
                : "expected entitlements [\(expected.joined(separator: " "))], found [\(products.joined(separator: " "))]"
        case .status(let group, let expected):
            let state = driver.statuses(groupID: group).first.map { Self.name(of: $0.state) } ?? "none"
            return state == expected ? nil : "expected \(group) \(expected), it is \(state)"
        case .verified(let reference, let expected):
            guard let (_, verified) = storeKit2Transaction(reference) else {
                return "no StoreKit 2 transaction for \(reference) yet"
            }
            return verified == expected
                ? nil
                : "expected \(reference) \(expected ? "verified" : "unverified"), it is \(verified ? "verified" : "unverified")"
        case .unfinished(let expected):
            let count = driver.unfinished().count
            return count == expected ? nil : "expected \(expected) unfinished StoreKit 2 transactions, found \(count)"
        }
    }

    private static func name(of state: Product.SubscriptionInfo.RenewalState) -> String {
        switch state {
        case .subscribed: "subscribed"
        case .expired: "expired"
        case .inBillingRetryPeriod: "billing-retry"
        case .inGracePeriod: "grace-period"
        case .revoked: "revoked"
        default: "unknown"
        }
    }
}
