public import Foundation
public import StoreModels
public import StoreSimulator

/// One step of a feed: an action on the store, the app or the clock, or an expectation.
public enum FeedStep: Sendable, Hashable {
    /// A transaction the feed refers to: by the handle a step gave it, or as the latest transaction of a product.
    public enum Reference: Sendable, Hashable, CustomStringConvertible {
        /// `t1`, named by `as t1`.
        case handle(String)
        /// The latest transaction of this product that the app heard of.
        case product(String)

        /// The handle or product identifier.
        public var description: String {
            switch self {
            case .handle(let name): name
            case .product(let id): id
            }
        }
    }

    /// How an observer treats what it hears.
    public enum FinishPolicy: String, Sendable, Hashable {
        /// Delivers and finishes purchased, restored and failed transactions at once.
        case auto
        /// Never finishes: the feed does, with `finish`.
        case manual
        /// Finishes every transaction it hears of, `purchasing` and `deferred` ones included: a misbehaving app, whose
        /// calls StoreKit answers with an exception (see `expect exception`).
        case all
    }

    /// A store setting a `set` step changes.
    public enum Setting: Sendable, Hashable {
        /// `set ask-to-buy on|off`.
        case askToBuy(Bool)
        /// `set account-ask-to-buy on|off`: the current user's account is a child's whose purchases ask a parent (on),
        /// or one whose purchases never do (off), whatever `set ask-to-buy` says; kept by the store.
        case accountAskToBuy(Bool)
        /// `set account-payments on|off`: the current user's account may make payments (on) or may not (off),
        /// whatever `set payments-allowed` says; kept by the store.
        case accountPayments(Bool)
        /// `set price-consent consent|decline|dismiss`: what the customer does when a price-consent sheet is shown.
        case priceConsent(PriceConsentAnswer)
        /// `set fail-transactions on [CODE]|off`.
        case failTransactions(Bool, StoreErrorCode)
        /// `set interrupted-purchases on|off`.
        case interruptedPurchases(Bool)
        /// `set payments-allowed on|off`.
        case paymentsAllowed(Bool)
        /// `set storefront USA`.
        case storefront(String)
        /// `set locale en_GB`.
        case locale(String)
        /// `set billing-retry on|off`.
        case billingRetry(Bool)
        /// `set grace-period on|off`.
        case gracePeriod(Bool)
        /// `set error load-products|purchase|restore|receipt-refresh CODE|off`.
        case simulatedError(String, StoreErrorCode?)
        /// `set history all|receipt-only`.
        case history(Bool)
    }

    /// What a feed checks.
    public enum Expectation: Sendable, Hashable {
        /// `expect states REF s1 s2 ...`: every state the app heard for the transaction, in order.
        case states(Reference, [TransactionState])
        /// `expect state REF s`: the last state the app heard.
        case state(Reference, TransactionState)
        /// `expect removed REF`: the app heard that the transaction was finished and removed.
        case removed(Reference)
        /// `expect error REF CODE`: the transaction failed with this StoreKit error.
        case error(Reference, StoreErrorCode)
        /// `expect restore finished`.
        case restoreFinished
        /// `expect restore failed [CODE]`.
        case restoreFailed(StoreErrorCode?)
        /// `expect unfinished N`: the current user's queue holds N transactions.
        case unfinished(Int)
        /// `expect owned PRODUCT` / `expect not-owned PRODUCT`: the account owns the product now.
        case owned(String, Bool)
        /// `expect subscribed PRODUCT [until DATE]` / `expect not-subscribed PRODUCT`.
        case subscribed(String, Bool, Date?)
        /// `expect revoked PRODUCT`: the app heard the entitlement revoked.
        case revoked(String)
        /// `expect history N`: the store's purchase history holds N transactions.
        case history(Int)
        /// `expect charged PRODUCT N`: the account was charged N times for the product.
        case charged(String, Int)
        /// `expect phase PRODUCT active|grace|billing-retry|expired|revoked|upgraded|none`: where the product stands
        /// for the user (`ProductAccess.Phase`'s names; `grace-period` is read as `grace`).
        case phase(String, ProductAccess.Phase)
        /// `expect access PRODUCT on|off`: whether the user has access to the product (`ProductAccess`).
        case access(String, Bool)
        /// `expect renewals PRODUCT N`: the store renewed the product's subscription N times so far.
        case renewals(String, Int)
        /// `expect receipt verifies`: the user's app receipt verifies against the test root, for the app and device.
        case receiptVerifies
        /// `expect receipt PRODUCT N`: the user's verified app receipt lists N purchases of the product.
        case receiptEntries(String, Int)
        /// `expect receipt-cancelled PRODUCT`: the latest receipt entry of the product carries a cancellation date.
        case receiptCancelled(String)
        /// `expect paywall ...`: see ``FeedStep/PaywallExpectation``.
        case paywall(PaywallExpectation)
        /// `expect sk2 ...`: see ``FeedStep/StoreKit2Expectation``.
        case storeKit2(StoreKit2Expectation)
        /// `expect receipt REF FIELD VALUE`: a field of the transaction's receipt entry (the latest entry of the
        /// product for a product identifier), by its receipt JSON name; `none` when the field is absent.
        case receiptField(Reference, String, ReceiptValue)
        /// `expect receipt PRODUCT N FIELD VALUE`: a field of the product's Nth receipt entry (1 is the first
        /// purchased).
        case receiptEntryField(String, Int, String, ReceiptValue)
        /// `expect no revocation [PRODUCT]`: the app heard no revocation (of the product).
        case noRevocation(String?)
        /// `expect restore finished|failed N times`: how many restores ended so since the app started.
        case restoreCount(finished: Bool, Int)
        /// `expect heard N updates for REF`: how many `updatedTransactions` callbacks listed the transaction.
        case heardUpdates(Reference, Int)
        /// `expect order REF STATE REF STATE ...`: the app heard these states in this order, across transactions.
        case order([HeardState])
        /// `expect original REF ORIGINAL`: the transaction has an identifier of its own and its `original` is
        /// ORIGINAL's transaction, as a restored transaction has.
        case original(Reference, Reference)
        /// `expect exception REF [purchasing|deferred]`: finishing the transaction raised StoreKit's exception (while
        /// it was in that state).
        case exception(Reference, TransactionState?)
        /// `expect no exception`: the app raised no StoreKit exception since it started.
        case noException
        /// `expect paid REF AMOUNT`: what the account was charged for the transaction.
        case paid(Reference, Decimal)
        /// `expect delegate asked REF` / `expect delegate not-asked REF`: whether the queue delegate was asked to go
        /// on with the transaction in a new storefront.
        case delegateAsked(Reference, Bool)
        /// `expect delegate asked-price-consent` / `expect delegate not-asked-price-consent`: whether the current
        /// device's queue delegate was asked `paymentQueueShouldShowPriceConsent(_:)` since the app started.
        case delegateAskedPriceConsent(Bool)
        /// `expect notification ...`, `expect notifications N`, `expect no notification`: see
        /// ``FeedStep/NotificationExpectation`` (a served run only).
        case notification(NotificationExpectation)
    }

    /// `config demo` or `config FILE.storekit` (relative to the feed).
    case configure(String)
    /// `offer-key KEYID FILE.p8`: the store checks offers signed with the In-App Purchase key `KEYID` (promotional
    /// offers, signed as JWS or not, and introductory offer eligibility) with the public half of the key in `FILE`,
    /// read when the feed is checked.
    case offerKey(keyID: String, file: String)
    /// `set ...`.
    case set(Setting)
    /// `user NAME`: later steps act for this user (own device and account).
    case user(String)
    /// `device NAME`: later steps act on this device of the current user (its own queue and `app` observer, the same
    /// account); `main` is the user's first device.
    case device(String)
    /// `observer add NAME [finish=auto|manual|all] [store-payments=yes|no]`: the last value is the observer's answer
    /// to `paymentQueue(_:shouldAddStorePayment:for:)`.
    case addObserver(String, FinishPolicy, storePayments: Bool)
    /// `observer remove NAME`.
    case removeObserver(String)
    /// `delegate should-continue yes|no` / `delegate remove`: the current device's queue delegate, answering a
    /// storefront change during a purchase; `nil` removes it.
    case delegate(Bool?)
    /// `delegate price-consent yes|no`: the current device's queue delegate (made if there is none, going on in a new
    /// storefront), answering `paymentQueueShouldShowPriceConsent(_:)`.
    case delegatePriceConsent(Bool)
    /// `show-price-consent`: the app calls `SKPaymentQueue.showPriceConsentIfNeeded()` on the current device.
    case showPriceConsent
    /// `buy PRODUCT [quantity N] [user NAME] [offer ID] [ask-to-buy] [as HANDLE]`.
    case buy(product: String, quantity: Int, username: String?, offer: String?, askToBuy: Bool, handle: String?)
    /// `next PRODUCT|any succeeds|fails CODE|asks-to-buy|is-interrupted|changes-storefront CODE`.
    case script(String?, ScriptOutcome)
    /// `approve REF`.
    case approve(Reference)
    /// `decline REF`.
    case decline(Reference)
    /// `finish REF`.
    case finish(Reference)
    /// `restore [user NAME]`.
    case restore(String?)
    /// `refund REF [prorated PERCENT%]`: the App Store refunds the purchase, in full or prorated (the share in
    /// thousandths of a percent).
    case refund(Reference, percentage: Int?)
    /// `reverse-refund REF`: the App Store reverses the refund of the purchase after a dispute.
    case reverseRefund(Reference)
    /// `refund-request REF [REASON]`: the customer asks the App Store for a refund of the purchase, for one of Apple's
    /// `consumptionRequestReason` values (`UNSATISFIED_WITH_PURCHASE` when none is given).
    case refundRequest(Reference, reason: RefundRequestReason)
    /// `refund-decline REF`: the App Store declines the refund the customer asked for.
    case refundDecline(Reference)
    /// `family NAME USER [USER ...]`: the users' accounts join the family (Family Sharing).
    case family(String, users: [String])
    /// `leave-family USER`: the user's account leaves its family.
    case leaveFamily(String)
    /// `resolve REF`: the customer fixes the billing issue of an interrupted purchase or a renewal.
    case resolve(Reference)
    /// `promote PRODUCT [as HANDLE]`: the user buys the product's promoted in-app purchase in the App Store; the store
    /// sends its purchase intent to the current device, whose observers are asked whether to add the payment.
    case promote(product: String, handle: String?)
    /// `buy-elsewhere PRODUCT [quantity N] [as HANDLE]`: a purchase made outside the app (on another device, in the App
    /// Store) arrives through the queue.
    case buyElsewhere(product: String, quantity: Int, handle: String?)
    /// `expire PRODUCT`: the subscription expires now.
    case expire(String)
    /// `renew PRODUCT`: the subscription renews now.
    case renew(String)
    /// `auto-renew REF on|off`.
    case autoRenew(Reference, Bool)
    /// `price-increase REF request|consent|decline`.
    case priceIncrease(Reference, String)
    /// `delete REF`: the transaction and those descending from it leave the store's history and the queues.
    case delete(Reference)
    /// `clear-transactions`: the store's history and every queue are emptied.
    case clearTransactions
    /// `cancellation-flow REF [LOCALE]`: the customer opens the cancellation flow of the subscription the transaction
    /// belongs to (Retention Messaging); `en-US` when no locale is given.
    case cancellationFlow(Reference, locale: String)
    /// `advance DURATION`.
    case advance(FeedDuration)
    /// `restart`: the app stops and starts again; unfinished transactions are redelivered.
    case restart
    /// `expect ...`.
    case expect(Expectation)
    /// `paywall ...`: see ``FeedStep/PaywallStep``.
    case paywall(PaywallStep)
    /// `sk2 ...`: see ``FeedStep/StoreKit2Step``.
    case storeKit2(StoreKit2Step)

    /// A scripted purchase outcome.
    public enum ScriptOutcome: Sendable, Hashable {
        /// The purchase goes through.
        case succeed
        /// It fails with the code.
        case fail(StoreErrorCode)
        /// It waits for Ask to Buy approval.
        case askToBuy
        /// It is interrupted.
        case interrupt
        /// The storefront changes to this country code while it is in progress, before the store decides it.
        case changeStorefront(String)
    }
}

/// A step with the line it came from.
public struct FeedLine: Sendable, Hashable {
    /// The 1-based line number.
    public let line: Int
    /// The text of the line, trimmed.
    public let text: String
    /// The step.
    public let step: FeedStep
}
