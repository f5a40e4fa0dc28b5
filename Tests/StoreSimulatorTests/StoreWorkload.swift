import Foundation
import StoreModels
import StoreSimulator
import Synchronization

/// A device that hears everything and answers the storefront question by the parity of the transaction identifier,
/// so that two stores given the same devices get the same answers.
final class WorkloadDevice: DeviceListener, @unchecked Sendable {
    let deviceID: String
    private let heard = Mutex(0)
    /// The connection to the store it was last connected to.
    private(set) var connection: DeviceConnection?

    init(_ deviceID: String) { self.deviceID = deviceID }

    /// Connects to a store, signed in to an account.
    func connect(to store: SimulatedStore, account: String) {
        connection = store.connect(deviceID: deviceID, account: account, frontEnd: "workload", listener: self)
    }

    /// How many events it heard.
    var events: Int { heard.withLock { $0 } }

    func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {
        heard.withLock { $0 += 1 }
    }

    func connection(
        _ connection: DeviceConnection, shouldContinue transaction: DeviceTransaction, in storefront: Storefront
    ) -> Bool {
        transaction.id % 2 == 0
    }
}

/// Random but reproducible changes of every kind a store accepts, applied to several stores in lockstep: what each
/// step does depends only on the generator and on the store's state, so stores with equal states stay equal.
struct StoreWorkload {
    static let products = [
        "com.example.coins100", "com.example.pro", "com.example.season", "com.example.premium.monthly",
        "com.example.premium.yearly",
    ]
    static let devices = [("d1", "default"), ("d2", "alice"), ("d3", "default")]

    var generator: SeededRandom
    /// The devices kept connected to each store, by store.
    private var connected: [ObjectIdentifier: [WorkloadDevice]] = [:]

    init(seed: UInt64) {
        generator = SeededRandom(seed: seed)
    }

    /// Connects the workload's devices to `store` (again, after it was reopened).
    mutating func connect(_ store: SimulatedStore) {
        var devices: [WorkloadDevice] = []
        for (id, account) in Self.devices {
            let device = WorkloadDevice(id)
            device.connect(to: store, account: account)
            devices.append(device)
        }
        connected[ObjectIdentifier(store)] = devices
    }

    /// Applies the next random step to every store, in order, and runs their lanes.
    mutating func step(_ stores: [SimulatedStore]) {
        let choice = Int.random(in: 0..<100, using: &generator)
        let pick = UInt64.random(in: 0..<UInt64.max, using: &generator)
        let product = Self.products[Int(pick % UInt64(Self.products.count))]
        let (deviceID, account) = Self.devices[Int((pick >> 8) % UInt64(Self.devices.count))]
        let hours = Double((pick >> 16) % 24 * 7 + 1)
        for store in stores {
            apply(choice, pick: pick, product: product, deviceID: deviceID, account: account, hours: hours, to: store)
            store.runUntilIdle()
        }
    }

    private func apply(
        _ choice: Int, pick: UInt64, product: String, deviceID: String, account: String, hours: Double,
        to store: SimulatedStore
    ) {
        func nth<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int(pick % UInt64(items.count))] }
        let history = store.allTransactions()
        // The store's steps one at a time, so that payments stay `.purchasing` across steps and storefront changes.
        let device = connected[ObjectIdentifier(store)]!.first { $0.deviceID == deviceID }!.connection!
        switch choice {
        case 0..<22:
            let request = PaymentRequest(
                productID: product, quantity: Int(pick % 3) + 1, applicationUsername: pick % 5 == 0 ? "user" : nil,
                simulatesAskToBuy: pick % 11 == 0)
            let transaction = device.submitNow(request)
            if pick % 4 != 0 { device.processNow(transaction.id) }
        case 22..<30:
            let purchasing = store.unfinishedTransactions(deviceID: deviceID).filter { $0.state == .purchasing }
            if let transaction = nth(purchasing) { device.processNow(transaction.id) }
        case 30..<42:
            let finishable = store.unfinishedTransactions(deviceID: deviceID).filter {
                $0.state != .purchasing && $0.state != .deferred
            }
            if let transaction = nth(finishable) { device.finishNow(transaction.id) }
        case 42..<46:
            device.restoreNow(applicationUsername: pick % 2 == 0 ? nil : "user")
        case 46..<52:
            _ = try? store.buyProduct(product, account: account)
        case 52..<62:
            _ = try? store.advance(by: hours * 3600 * (pick % 5 == 0 ? 10 : 1))
        case 62..<65:
            if let record = nth(history.filter { $0.isOwned }) {
                _ = try? store.refund(record.id, reason: pick % 2 == 0 ? .other : .developerIssue)
            }
        case 65..<72:
            store.updateSettings { settings in
                switch pick % 8 {
                case 0: settings.askToBuyEnabled.toggle()
                case 1: settings.billingRetryOnRenewal.toggle()
                case 2: settings.billingGracePeriodEnabled.toggle()
                case 3: settings.storefront = Storefront(countryCode: pick % 16 < 8 ? "GBR" : "USA")
                case 4: settings.failTransactionsEnabled = pick % 16 < 3
                case 5: settings.interruptedPurchasesEnabled = pick % 16 < 3
                case 6: settings.simulatedErrors[.restore] = pick % 16 < 4 ? StoreFailure(.unknown, "down") : nil
                default: settings.paymentsAllowed = pick % 16 != 0
                }
            }
        case 72..<75:
            let outcomes: [ScriptedOutcome] = [
                .succeed, .askToBuy, .interrupt, .fail(StoreFailure(.paymentCancelled, "cancelled")),
            ]
            store.script(outcomes[Int(pick % 4)], forProduct: pick % 3 == 0 ? nil : product)
        case 75..<79:
            let pending = history.filter { $0.pendingAskToBuyConfirmation }
            if let record = nth(pending) {
                if pick % 3 == 0 {
                    try? store.declineAskToBuy(record.id)
                } else {
                    try? store.approveAskToBuy(record.id)
                }
            }
        case 79..<82:
            if let record = nth(history.filter { $0.hasPurchaseIssue }) { _ = try? store.resolveIssue(record.id) }
        case 82..<88:
            let subscriptions = history.filter { $0.productType == .autoRenewableSubscription && $0.isOwned }
            if let record = nth(subscriptions) {
                switch pick % 4 {
                case 0: try? store.setAutoRenew(pick % 8 < 4, transactionID: record.id)
                case 1: try? store.requestPriceIncreaseConsent(record.id)
                case 2: try? store.consentToPriceIncrease(record.id)
                default: try? store.declinePriceIncrease(record.id)
                }
            }
        case 88..<92:
            if pick % 2 == 0 {
                _ = try? store.expireSubscription(productID: product, account: account)
            } else {
                _ = try? store.forceRenewal(productID: product, account: account)
            }
        case 92..<94:
            if let record = nth(history) { try? store.deleteTransaction(record.id) }
        case 94..<95:
            store.setReceiptExpired(pick % 2 == 0, deviceID: deviceID)
        case 95..<97:
            // What a developer's server sends and reads back: kept by the store like any change.
            if pick % 2 == 0, let record = nth(history.filter { $0.state == .purchased }) {
                let information = ConsumptionInformation(
                    sampleContentProvided: pick % 4 == 0,
                    deliveryStatus: ConsumptionInformation.DeliveryStatus.allCases[Int(pick / 8 % 5)],
                    consumptionPercentage: record.productType == .autoRenewableSubscription
                        ? nil : Int(pick / 256 % 100_001),
                    refundPreference: pick % 3 == 0 ? nil : .grantProrated)
                try? store.setConsumptionInformation(information, forTransaction: record.id)
            } else {
                let subscription = pick % 7 == 0 ? product : Self.products[3 + Int(pick / 8 % 2)]
                _ = try? store.extendRenewalDates(
                    productID: subscription, by: hours * 3600, requestIdentifier: "r\(pick / 8 % 4)",
                    storefrontCountryCodes: pick % 5 == 1 ? ["GBR"] : nil)
            }
        case 97..<98:
            switch pick % 4 {
            case 0:
                store.updateAccountSettings(account) { settings in
                    settings.paymentsAllowed = pick % 16 < 4 ? false : pick % 16 < 6 ? true : nil
                    settings.askToBuyEnabled = pick % 32 < 8 ? true : pick % 32 < 10 ? false : nil
                }
            case 1:
                store.updateSettings { $0.priceConsentAnswer = PriceConsentAnswer.allCases[Int(pick / 4 % 3)] }
                store.showPriceConsent(account: account)
            default:
                store.resetSettings()
            }
        default:
            if pick % 50 == 0 { store.clearTransactions() } else { _ = try? store.advance(by: 30 * 86_400) }
        }
    }
}
