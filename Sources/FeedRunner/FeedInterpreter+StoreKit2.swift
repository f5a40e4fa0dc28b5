import OpenStoreKit
import OpenStoreKit2
import StoreModels
import StoreSimulator

extension FeedInterpreter {
    /// Carries out an `sk2` step; returns a failure message, or nil.
    func performStoreKit2(_ step: FeedStep.StoreKit2Step) -> String? {
        guard let driver = world.currentStoreKit2Driver() else {
            return "\(world.currentSeatDescription) has no device"
        }
        switch step {
        case .listen:
            guard !world.storeKit2.listening.contains(world.currentSeat) else { return nil }
            world.storeKit2.listening.append(world.currentSeat)
            listen(seat: world.currentSeat, user: world.currentUser, driver: driver)
        case .buy(let product, let quantity, let askToBuy, let offers, let handle):
            let outcome = driver.purchase(product, quantity: quantity, askToBuy: askToBuy) { product in
                try purchaseOptions(offers, of: product)
            }
            var purchase = FeedStoreKit2.Purchase(product: product, result: "failed")
            var event = log.line("sk2-purchase")
            event.add("user", world.currentUser)
            if world.currentDevice != FeedWorld.mainDevice { event.add("device", world.currentDevice) }
            event.add("handle", handle)
            event.add("product", product)
            switch outcome {
            case .success(let verification):
                let transaction = verification.unsafePayloadValue
                let verified = FeedStoreKit2.isVerified(verification)
                purchase.result = "success"
                purchase.transactionID = transaction.id
                purchase.verified = verified
                world.storeKit2.latest[world.currentSeat + "\n" + product] = (transaction.id, verified)
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
            log.write(event)
            if let handle { world.storeKit2.purchases[handle] = purchase }
        case .finish(let reference):
            guard let (id, _) = world.storeKit2.transaction(reference, seat: world.currentSeat) else {
                return "no StoreKit 2 transaction for \(reference) yet"
            }
            var event = log.line("sk2-finish")
            event.add("user", world.currentUser)
            event.add("id", String(id))
            log.write(event)
            driver.finish(id)
        }
        return nil
    }

    /// The purchase options an `sk2 buy`'s offers make, as the app makes them from the product and the JWS its
    /// server signed; a win-back offer the product lacks (a `config` changed the catalog) fails the purchase.
    private func purchaseOptions(_ offers: FeedStep.StoreKit2Offers, of product: Product) throws
        -> [Product.PurchaseOption]
    {
        var options: [Product.PurchaseOption] = []
        if let id = offers.winBack {
            guard let offer = product.subscription?.winBackOffers.first(where: { $0.id == id }) else {
                throw Product.PurchaseError.invalidOfferIdentifier
            }
            options.append(.winBackOffer(offer))
        }
        if let id = offers.promotional, let file = offers.promotionalJWSFile, let jws = signedOffers[file] {
            options += Product.PurchaseOption.promotionalOffer(id, compactJWS: jws)
        }
        if let file = offers.eligibilityJWSFile, let jws = signedOffers[file] {
            options.append(.introductoryOfferEligibility(compactJWS: jws))
        }
        if let plan = offers.billingPlan {
            options.append(.billingPlanType(plan == .monthly ? .monthly : .upFront))
        }
        return options
    }

    /// Starts a seat's updates listener, which logs each update and remembers its product.
    private func listen(seat: String, user: String, driver: StoreKitDriver) {
        let reference = FeedRecorderReference(recorder: recorder)
        let device = seat.split(separator: "\n").dropFirst().first.map(String.init)
        driver.listen { update in
            reference.recorder.heardStoreKit2(update, seat: seat, user: user, device: device)
        }
    }

    /// After a restart: StoreKit 2 starts again on each device, and apps that listened listen again.
    func restartStoreKit2() {
        world.storeKit2.drivers.removeAll()
        for seat in world.storeKit2.listening {
            guard let queue = world.devices[seat]?.queue else { continue }
            let driver = StoreKitDriver(store: store, deviceID: queue.deviceID, account: queue.account)
            world.storeKit2.drivers[seat] = driver
            listen(seat: seat, user: queue.account, driver: driver)
        }
    }
}
