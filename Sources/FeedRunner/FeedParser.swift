public import Foundation
import StoreModels
import StoreSimulator

/// Reads feed text, line by line, into steps: the grammar of feeds. One step per line, `#` starts a comment;
/// `FeedLexer` splits a line into words and `TokenReader` walks them.
///
/// Lines end with a line feed, a carriage return and line feed (CRLF), or a lone carriage return. ``validate(_:)-(String)``
/// checks a whole feed before anything runs; ``forEachStep(in:_:)`` parses it again as it runs, so a feed of millions
/// of steps never sits in memory as steps. A feed file (``FeedFile``) is read the same way, line by line, so its text
/// never sits in memory whole either.
public struct FeedParser: Sendable {
    /// The most bytes one line may hold (64 KiB).
    public static let maximumLineLength = 65_536

    /// The file name used in error messages.
    public let file: String
    /// Where `config` paths are resolved; the current directory when `nil`.
    public let baseDirectory: URL?

    /// Creates a parser whose errors name `file` and whose `config` paths are relative to `baseDirectory`.
    public init(file: String, baseDirectory: URL? = nil) {
        self.file = file
        self.baseDirectory = baseDirectory
    }

    /// Checks every line of a feed, every handle reference and every product identifier (against the demo catalog,
    /// or the `.storekit` file a `config` step loads); returns how many steps it has.
    ///
    /// - Throws: ``FeedError`` for the first malformed line, for a product the catalog does not have, or `noSteps`
    ///   for a feed without steps.
    @discardableResult
    public func validate(_ text: String) throws(FeedError) -> Int {
        try FeedChecker(parser: self).check(.text(text), startingWith: .demo).steps
    }

    /// Checks every line of a feed file, as ``validate(_:)`` checks text, reading it line by line.
    ///
    /// - Throws: ``FeedError`` for the first line that is not text or is malformed, as ``validate(_:)``.
    @discardableResult
    public func validate(_ feed: FeedFile) throws(FeedError) -> Int {
        try FeedChecker(parser: self).check(.file(feed), startingWith: .demo).steps
    }

    /// The first words of the steps, as docs/feeds.md lists them: what an unknown step is compared with.
    static let stepNames = [
        "config", "set", "user", "device", "observer", "delegate", "buy", "buy-elsewhere", "promote", "next",
        "approve", "decline", "finish", "delete", "clear-transactions", "resolve", "refund", "reverse-refund",
        "refund-request", "refund-decline", "restore", "show-price-consent", "advance", "restart", "expire", "renew",
        "auto-renew", "price-increase", "family", "leave-family", "paywall", "sk2", "offer-key", "expect",
        "cancellation-flow",
    ]

    /// Parses each step in order and hands it to `body`.
    ///
    /// - Throws: ``FeedError`` for a malformed line, or what `body` throws.
    public func forEachStep(
        in text: String,
        _ body: (FeedLine) throws(FeedError) -> Void
    ) throws(FeedError) {
        try forEachLine(in: .text(text)) { (line: FeedLine, _) throws(FeedError) in try body(line) }
    }

    /// Parses each step of a feed source in order and hands it to `body`.
    func forEachStep(
        in source: FeedSource,
        _ body: (FeedLine) throws(FeedError) -> Void
    ) throws(FeedError) {
        try forEachLine(in: source) { (line: FeedLine, _) throws(FeedError) in try body(line) }
    }

    /// Parses each step in order and hands it to `body` with the words of its line.
    func forEachLine(
        in source: FeedSource,
        _ body: (FeedLine, [FeedLexer.Token]) throws(FeedError) -> Void
    ) throws(FeedError) {
        try source.forEachLine(file: file) { (lineNumber: Int, rawLine: Substring) throws(FeedError) in
            let (tokens, trimmed) = FeedLexer.scan(rawLine)
            guard !tokens.isEmpty else { return }
            let step = try parse(tokens, line: lineNumber)
            try body(FeedLine(line: lineNumber, text: trimmed, step: step), tokens)
        }
    }

    // MARK: Steps

    private func parse(_ tokens: [FeedLexer.Token], line: Int) throws(FeedError) -> FeedStep {
        var reader = TokenReader(tokens: tokens, file: file, line: line)
        let verb = reader.next()!
        let step: FeedStep
        switch verb.word {
        case "config":
            step = .configure(try reader.word("a .storekit file, or `demo`"))
        case "offer-key":
            let keyID = try reader.word("the key's identifier, as App Store Connect shows it")
            step = .offerKey(keyID: keyID, file: try reader.word("the key's .p8 file"))
        case "set":
            step = .set(try setting(&reader))
        case "user":
            step = .user(try reader.word("a user name"))
        case "device":
            step = .device(try reader.word("a device name"))
        case "delegate":
            if reader.peek == "price-consent" {
                _ = reader.next()
                step = .delegatePriceConsent(try reader.flag())
            } else {
                step = .delegate(try delegateAnswer(&reader))
            }
        case "show-price-consent":
            step = .showPriceConsent
        case "observer":
            step = try observer(&reader)
        case "buy":
            step = try buy(&reader)
        case "next":
            step = try next(&reader)
        case "approve":
            step = .approve(try reader.reference())
        case "decline":
            step = .decline(try reader.reference())
        case "finish":
            step = .finish(try reader.reference())
        case "restore":
            var username: String?
            if reader.peek == "user" {
                _ = reader.next()
                username = try reader.word("a user name")
            }
            step = .restore(username)
        case "advance":
            let rest = reader.rest()
            let duration: FeedDuration
            switch FeedDuration.parse(rest.map(\.word)) {
            case .success(let parsed):
                duration = parsed
            case .failure(let problem):
                throw reader.error(
                    problem.isBound ? .outOfBounds : .invalidValue,
                    at: problem.word < rest.count ? rest[problem.word].column : verb.column,
                    problem.message,
                    hint: problem.isBound
                        ? "advance at most 100 years at a time (`100y`, `36525d`); use several steps for more"
                        : "write a duration such as `3d`, `1 month`, `2h 30m`, `1y` or `90s`"
                )
            }
            step = .advance(duration)
        case "restart":
            step = .restart
        case "refund":
            step = try refund(&reader)
        case "reverse-refund":
            step = .reverseRefund(try reader.reference())
        case "cancellation-flow":
            step = .cancellationFlow(try reader.reference(), locale: reader.next()?.word ?? "en-US")
        case "refund-request":
            step = try refundRequest(&reader)
        case "refund-decline":
            step = .refundDecline(try reader.reference())
        case "family":
            let name = try reader.word("a family name")
            let users = reader.rest().map(\.word)
            guard !users.isEmpty else {
                throw reader.error(
                    .wrongArguments, at: reader.endColumn, "missing the users to put in family \(name)",
                    hint: "name one user or more after the family: `family \(name) alice bob`")
            }
            step = .family(name, users: users)
        case "leave-family":
            step = .leaveFamily(try reader.word("a user name"))
        case "delete":
            step = .delete(try reader.reference())
        case "clear-transactions":
            step = .clearTransactions
        case "resolve":
            step = .resolve(try reader.reference())
        case "promote":
            let product = try reader.word("a product identifier")
            var handle: String?
            if reader.peek != nil {
                try reader.keyword(["as"], "write `promote PRODUCT as HANDLE`")
                handle = try reader.word("a handle name such as t1")
            }
            step = .promote(product: product, handle: handle)
        case "buy-elsewhere":
            let product = try reader.word("a product identifier")
            var quantity = 1
            var handle: String?
            while let option = reader.peek {
                _ = reader.next()
                switch option {
                case "quantity": quantity = try reader.integer("a quantity")
                case "as": handle = try reader.word("a handle name such as t1")
                default:
                    throw reader.error(
                        .wrongArguments,
                        at: reader.lastColumn,
                        "unknown buy-elsewhere option \"\(option)\"",
                        hint: "options are quantity N and as HANDLE"
                    )
                }
            }
            step = .buyElsewhere(product: product, quantity: quantity, handle: handle)
        case "expire":
            step = .expire(try reader.word("a subscription product identifier"))
        case "renew":
            step = .renew(try reader.word("a subscription product identifier"))
        case "auto-renew":
            step = .autoRenew(try reader.reference(), try reader.flag())
        case "price-increase":
            let reference = try reader.reference()
            let action = try reader.word("request, consent or decline")
            guard ["request", "consent", "decline"].contains(action) else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(action)\" is not a price-increase action",
                    hint: "use request, consent or decline")
            }
            step = .priceIncrease(reference, action)
        case "expect":
            step = .expect(try expectation(&reader))
        case "paywall":
            step = .paywall(try paywallStep(&reader))
        case "sk2":
            step = .storeKit2(try storeKit2Step(&reader))
        default:
            let close = EditDistance.closest(to: verb.word, among: Self.stepNames)
            throw reader.error(
                .unknownStep,
                at: verb.column,
                "unknown step \"\(verb.word)\"",
                hint: close.isEmpty
                    ? "steps are " + Self.stepNames.dropLast().joined(separator: ", ") + " and "
                        + (Self.stepNames.last ?? "") + " (docs/feeds.md)"
                    : "did you mean " + close.joined(separator: " or ") + "?"
            )
        }
        try reader.end()
        return step
    }

    private func setting(_ reader: inout TokenReader) throws(FeedError) -> FeedStep.Setting {
        let name = try reader.word("a setting")
        switch name {
        case "ask-to-buy": return .askToBuy(try reader.flag())
        case "account-ask-to-buy": return .accountAskToBuy(try reader.flag())
        case "account-payments": return .accountPayments(try reader.flag())
        case "price-consent":
            let value = try reader.word("consent, decline or dismiss")
            guard let answer = PriceConsentAnswer(rawValue: value) else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(value)\" is not an answer to a price-consent sheet",
                    hint: "use consent, decline or dismiss")
            }
            return .priceConsent(answer)
        case "interrupted-purchases": return .interruptedPurchases(try reader.flag())
        case "payments-allowed": return .paymentsAllowed(try reader.flag())
        case "billing-retry": return .billingRetry(try reader.flag())
        case "grace-period": return .gracePeriod(try reader.flag())
        case "fail-transactions":
            let on = try reader.flag()
            let code = on && reader.peek != nil ? try reader.errorCode() : .unknown
            return .failTransactions(on, code)
        case "storefront":
            return .storefront(try reader.countryCode())
        case "locale":
            return .locale(try reader.word("a locale such as en_US"))
        case "error":
            let api = try reader.word("load-products, purchase, restore or receipt-refresh")
            guard ["load-products", "purchase", "restore", "receipt-refresh"].contains(api) else {
                throw reader.error(
                    .invalidValue,
                    at: reader.lastColumn,
                    "\"\(api)\" is not an operation that can fail",
                    hint: "use load-products, purchase, restore or receipt-refresh"
                )
            }
            if reader.peek == "off" {
                _ = reader.next()
                return .simulatedError(api, nil)
            }
            return .simulatedError(api, try reader.errorCode())
        case "history":
            let value = try reader.word("all or receipt-only")
            guard value == "all" || value == "receipt-only" else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(value)\" is not a history setting",
                    hint: "use all or receipt-only")
            }
            return .history(value == "all")
        default:
            throw reader.error(
                .invalidValue,
                at: reader.lastColumn,
                "unknown setting \"\(name)\"",
                hint:
                    "settings are ask-to-buy, account-ask-to-buy, account-payments, price-consent, fail-transactions, interrupted-purchases, payments-allowed, storefront, locale, billing-retry, grace-period, error and history"
            )
        }
    }

    private func observer(_ reader: inout TokenReader) throws(FeedError) -> FeedStep {
        let action = try reader.word("add or remove")
        let actionColumn = reader.lastColumn
        let name = try reader.word("an observer name")
        switch action {
        case "add":
            var policy = FeedStep.FinishPolicy.auto
            var storePayments = true
            while let option = reader.peek {
                _ = reader.next()
                if option.hasPrefix("finish="),
                    let parsed = FeedStep.FinishPolicy(rawValue: String(option.dropFirst(7)))
                {
                    policy = parsed
                } else if option == "store-payments=yes" || option == "store-payments=no" {
                    storePayments = option == "store-payments=yes"
                } else {
                    throw reader.error(
                        .invalidValue, at: reader.lastColumn, "\"\(option)\" is not an observer option",
                        hint:
                            "use finish=auto, finish=manual or finish=all, and store-payments=yes or store-payments=no")
                }
            }
            return .addObserver(name, policy, storePayments: storePayments)
        case "remove":
            return .removeObserver(name)
        default:
            throw reader.error(
                .invalidValue, at: actionColumn, "\"\(action)\" is not an observer action",
                hint: "write `observer add NAME` or `observer remove NAME`")
        }
    }

    /// `refund-request REF [REASON]`, the reason one of Apple's `consumptionRequestReason` values.
    private func refundRequest(_ reader: inout TokenReader) throws(FeedError) -> FeedStep {
        let reference = try reader.reference()
        guard reader.peek != nil else { return .refundRequest(reference, reason: .unsatisfiedWithPurchase) }
        let value = try reader.word("a refund request reason")
        guard let reason = RefundRequestReason(rawValue: value) else {
            throw reader.error(
                .invalidValue, at: reader.lastColumn, "\"\(value)\" is not a refund request reason",
                hint: "write one of " + RefundRequestReason.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return .refundRequest(reference, reason: reason)
    }

    private func buy(_ reader: inout TokenReader) throws(FeedError) -> FeedStep {
        let product = try reader.word("a product identifier")
        var quantity = 1
        var username: String?
        var offer: String?
        var askToBuy = false
        var handle: String?
        while let option = reader.peek {
            _ = reader.next()
            switch option {
            case "quantity": quantity = try reader.integer("a quantity")
            case "user": username = try reader.word("an application username")
            case "offer": offer = try reader.word("a promotional offer identifier")
            case "ask-to-buy": askToBuy = true
            case "as": handle = try reader.word("a handle name such as t1")
            default:
                throw reader.error(
                    .wrongArguments,
                    at: reader.lastColumn,
                    "unknown buy option \"\(option)\"",
                    hint: "options are quantity N, user NAME, offer ID, ask-to-buy and as HANDLE"
                )
            }
        }
        return .buy(
            product: product, quantity: quantity, username: username, offer: offer, askToBuy: askToBuy, handle: handle)
    }

    private func next(_ reader: inout TokenReader) throws(FeedError) -> FeedStep {
        let product = try reader.word("a product identifier or `any`")
        let verb = try reader.word("succeeds, fails CODE, asks-to-buy, is-interrupted or changes-storefront CODE")
        let outcome: FeedStep.ScriptOutcome
        switch verb {
        case "succeeds": outcome = .succeed
        case "fails": outcome = .fail(try reader.errorCode())
        case "asks-to-buy": outcome = .askToBuy
        case "is-interrupted": outcome = .interrupt
        case "changes-storefront": outcome = .changeStorefront(try reader.countryCode())
        default:
            throw reader.error(
                .invalidValue, at: reader.lastColumn, "\"\(verb)\" is not an outcome",
                hint: "use succeeds, fails CODE, asks-to-buy, is-interrupted or changes-storefront CODE")
        }
        return .script(product == "any" ? nil : product, outcome)
    }

    private func expectation(_ reader: inout TokenReader) throws(FeedError) -> FeedStep.Expectation {
        let kind = try reader.word("what to expect")
        switch kind {
        case "states":
            let reference = try reader.reference()
            var states: [TransactionState] = []
            while reader.peek != nil { states.append(try reader.state()) }
            guard !states.isEmpty else {
                throw reader.error(
                    .wrongArguments, at: reader.lastColumn, "`expect states` needs at least one state",
                    hint: "e.g. `expect states t1 purchasing purchased`")
            }
            return .states(reference, states)
        case "state": return .state(try reader.reference(), try reader.state())
        case "removed": return .removed(try reader.reference())
        case "error": return .error(try reader.reference(), try reader.errorCode())
        case "restore":
            let outcome = try reader.word("finished or failed")
            if outcome == "finished" || outcome == "failed", reader.remaining == 2,
                ["time", "times"].contains(reader.peek(after: 1))
            {
                let count = try reader.count("a number of restores")
                _ = reader.next()
                return .restoreCount(finished: outcome == "finished", count)
            }
            switch outcome {
            case "finished": return .restoreFinished
            case "failed": return .restoreFailed(reader.peek == nil ? nil : try reader.errorCode())
            default:
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(outcome)\" is not a restore outcome",
                    hint: "write `expect restore finished` or `expect restore failed [CODE]`")
            }
        case "unfinished": return .unfinished(try reader.count("a number of transactions"))
        case "owned": return .owned(try reader.word("a product identifier"), true)
        case "not-owned": return .owned(try reader.word("a product identifier"), false)
        case "subscribed":
            let product = try reader.word("a product identifier")
            var until: Date?
            if reader.peek == "until" {
                _ = reader.next()
                until = try reader.date()
            }
            return .subscribed(product, true, until)
        case "not-subscribed": return .subscribed(try reader.word("a product identifier"), false, nil)
        case "revoked": return .revoked(try reader.word("a product identifier"))
        case "history": return .history(try reader.count("a number of transactions"))
        case "charged":
            return .charged(try reader.word("a product identifier"), try reader.count("a number of charges"))
        case "receipt":
            let what = try reader.word("`verifies`, or a product identifier and a count")
            if what == "verifies" { return .receiptVerifies }
            if reader.remaining == 2 {
                let (field, value) = try receiptField(&reader)
                return .receiptField(what.contains(".") ? .product(what) : .handle(what), field, value)
            }
            if reader.remaining == 3 {
                let first = "write 1 for the product's first entry"
                let index = try reader.count("the position of the product's receipt entry", hint: first)
                guard index > 0 else {
                    throw reader.error(
                        .outOfBounds, at: reader.lastColumn, "receipt entries are counted from 1", hint: first)
                }
                let (field, value) = try receiptField(&reader)
                return .receiptEntryField(what, index, field, value)
            }
            return .receiptEntries(what, try reader.count("a number of receipt entries"))
        case "receipt-cancelled":
            return .receiptCancelled(try reader.word("a product identifier"))
        case "renewals":
            return .renewals(try reader.word("a product identifier"), try reader.count("a number of renewals"))
        case "phase":
            let product = try reader.word("a product identifier")
            let names = ProductAccess.Phase.allCases.map(\.rawValue)
            let phase = try reader.word(names.joined(separator: ", "))
            guard let parsed = phase == "grace-period" ? .grace : ProductAccess.Phase(rawValue: phase) else {
                throw reader.error(
                    .invalidValue,
                    at: reader.lastColumn,
                    "\"\(phase)\" is not a phase",
                    hint: "phases are " + names.joined(separator: ", ")
                )
            }
            return .phase(product, parsed)
        case "access":
            return .access(try reader.word("a product identifier"), try reader.flag())
        case "paywall":
            return .paywall(try paywallExpectation(&reader))
        case "sk2":
            return .storeKit2(try storeKit2Expectation(&reader))
        case "notification", "notifications":
            return .notification(try notificationExpectation(kind, &reader))
        case "no" where reader.peek == "notification":
            return .notification(try notificationExpectation(kind, &reader))
        default:
            return try observationExpectation(kind, &reader)
        }
    }
}
