public import Foundation
import StoreModels
import StoreSimulator

/// Reads feed text, line by line: one step per line, `#` starts a comment.
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
        try check(.text(text), startingWith: .demo).steps
    }

    /// Checks every line of a feed file, as ``validate(_:)`` checks text, reading it line by line.
    ///
    /// - Throws: ``FeedError`` for the first line that is not text or is malformed, as ``validate(_:)``.
    @discardableResult
    public func validate(_ feed: FeedFile) throws(FeedError) -> Int {
        try check(.file(feed), startingWith: .demo).steps
    }

    /// What checking a feed found: its number of steps and the configurations its `config` steps load, by source.
    struct Checked {
        var steps = 0
        var configurations: [String: StoreConfiguration] = [:]
        /// Where the first `expect notification`, `expect notifications` or `expect no notification` is, if any.
        var firstNotificationExpectation: (line: Int, column: Int)?
    }

    /// Checks a feed whose run starts on `configuration`'s catalog.
    func check(_ source: FeedSource, startingWith configuration: StoreConfiguration) throws(FeedError) -> Checked {
        var handles = Set<String>()
        var checked = Checked()
        var catalog = configuration
        try forEachLine(in: source) { (line: FeedLine, tokens: [(word: String, column: Int)]) throws(FeedError) in
            checked.steps += 1
            func column(of word: String) -> Int {
                if let token = tokens.dropFirst().first(where: { $0.word == word }) { return token.column }
                for token in tokens.dropFirst() {
                    if let range = token.word.range(of: word) {
                        return token.column + token.word.distance(from: token.word.startIndex, to: range.lowerBound)
                    }
                }
                return tokens.first?.column ?? 1
            }
            if case .expect(.notification) = line.step, checked.firstNotificationExpectation == nil {
                checked.firstNotificationExpectation = (line.line, column(of: "notification"))
            }
            if case .configure(let source) = line.step {
                catalog = try loadConfiguration(source, line: line.line, column: column(of: source))
                checked.configurations[source] = catalog
            }
            for product in Self.products(in: line.step) where catalog.catalog.product(product) == nil {
                throw unknownProduct(product, in: catalog, line: line.line, column: column(of: product))
            }
            for reference in references(in: line.step) {
                guard case .handle(let name) = reference, !handles.contains(name) else { continue }
                throw FeedError(
                    .unknownHandle,
                    file: file,
                    line: line.line,
                    column: column(of: reference.description),
                    "no transaction is named \"\(name)\" yet",
                    hint:
                        "name a transaction first, e.g. `buy com.example.pro as \(name)`, or refer to it by product id"
                )
            }
            var named: String?
            if case .buy(_, _, _, _, _, let handle?) = line.step { named = handle }
            if case .buyElsewhere(_, _, let handle?) = line.step { named = handle }
            if case .promote(_, let handle?) = line.step { named = handle }
            if case .storeKit2(.buy(_, _, _, let handle?)) = line.step { named = handle }
            if let handle = named {
                guard handles.insert(handle).inserted else {
                    let after = tokens.firstIndex { $0.word == "as" }.map { $0 + 1 } ?? 0
                    throw FeedError(
                        .unknownHandle,
                        file: file,
                        line: line.line,
                        column: after < tokens.count ? tokens[after].column : 1,
                        "the handle \"\(handle)\" is already taken",
                        hint: "give each transaction its own handle"
                    )
                }
            }
        }
        guard checked.steps > 0 else {
            throw FeedError(
                .noSteps, file: file, line: 1, column: 1, "the feed has no steps, only blank lines and comments",
                hint: "add steps, e.g. `buy com.example.pro as pro` and `expect state pro purchased` (docs/feeds.md)")
        }
        return checked
    }

    /// The URL of the `.storekit` file a `config` step names.
    func configurationURL(_ source: String) -> URL {
        source.hasPrefix("/")
            ? URL(fileURLWithPath: source)
            : (baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                .appendingPathComponent(source)
    }

    /// The first words of the steps, as docs/feeds.md lists them: what an unknown step is compared with.
    static let stepNames = [
        "config", "set", "user", "device", "observer", "delegate", "buy", "buy-elsewhere", "promote", "next",
        "approve", "decline", "finish", "delete", "clear-transactions", "resolve", "refund", "reverse-refund",
        "refund-request", "refund-decline", "restore", "show-price-consent", "advance", "restart", "expire", "renew",
        "auto-renew", "price-increase", "family", "leave-family", "paywall", "sk2", "expect",
    ]

    /// The most bytes of a `.storekit` file a `config` step loads (16 MiB).
    static let maximumConfigurationLength = 16 << 20

    /// Loads the configuration a `config` step names: the demo, or a `.storekit` file.
    func loadConfiguration(_ source: String, line: Int, column: Int) throws(FeedError) -> StoreConfiguration {
        guard source != "demo" else { return .demo }
        let url = configurationURL(source)
        let data = try FeedText.read(
            url, file: file, line: line, column: column, what: "a .storekit file",
            limit: Self.maximumConfigurationLength, code: .badConfiguration)
        do throws(StoreSimulatorError) {
            return try StoreConfiguration(data: data, sourceName: url.lastPathComponent)
        } catch {
            throw FeedError(
                .badConfiguration,
                file: file,
                line: line,
                column: column,
                "\(url.path): \(error.detail)",
                hint: "config takes `demo` or a .storekit file path relative to the feed"
            )
        }
    }

    private func unknownProduct(_ product: String, in configuration: StoreConfiguration, line: Int, column: Int)
        -> FeedError
    {
        let known = configuration.catalog.products.map(\.id)
        let suggestions = EditDistance.closest(to: product, among: known)
        let hint: String
        if !suggestions.isEmpty {
            hint = "did you mean " + suggestions.joined(separator: " or ") + "?"
        } else if known.isEmpty {
            hint = "the catalog has no products; name a .storekit file that has some with `config FILE.storekit`"
        } else {
            let listed = known.prefix(8).joined(separator: ", ")
            hint = "the catalog has \(listed)\(known.count > 8 ? ", ... (\(known.count) products)" : "")"
        }
        return FeedError(
            .unknownProduct, file: file, line: line, column: column,
            "no product \"\(product)\" in the catalog (\(configuration.sourceName))", hint: hint)
    }

    /// The product identifiers a step names.
    static func products(in step: FeedStep) -> [String] {
        var products: [String] = storeKit2Products(in: step)
        func add(_ reference: FeedStep.Reference) {
            if case .product(let id) = reference { products.append(id) }
        }
        switch step {
        case .buy(let product, _, _, _, _, _), .buyElsewhere(let product, _, _), .promote(let product, _),
            .expire(let product),
            .renew(let product):
            products.append(product)
        case .script(let product?, _):
            products.append(product)
        case .approve(let reference), .decline(let reference), .finish(let reference), .refund(let reference),
            .reverseRefund(let reference), .refundRequest(let reference, _), .refundDecline(let reference),
            .resolve(let reference), .autoRenew(let reference, _),
            .priceIncrease(let reference, _),
            .delete(let reference):
            add(reference)
        case .expect(let expectation):
            switch expectation {
            case .states(let reference, _), .state(let reference, _), .removed(let reference), .error(let reference, _):
                add(reference)
            case .receiptField, .heardUpdates, .order, .original, .exception, .paid, .delegateAsked:
                for reference in Self.observationReferences(in: expectation) { add(reference) }
            case .noRevocation(let product?):
                products.append(product)
            case .notification(.next(let pattern)):
                if let reference = pattern.reference { add(reference) }
                if let product = pattern.product { products.append(product) }
            case .receiptEntryField(let product, _, _, let value):
                products.append(product)
                if case .transaction(let reference) = value { add(reference) }
            case .owned(let product, _), .subscribed(let product, _, _), .revoked(let product),
                .charged(let product, _), .phase(let product, _), .access(let product, _),
                .renewals(let product, _), .receiptEntries(let product, _), .receiptCancelled(let product):
                products.append(product)
            default:
                break
            }
        case .paywall(let paywall):
            switch paywall {
            case .show(_, let listed, _, let selected, _):
                products += listed
                if let selected { products.append(selected) }
            case .select(let product), .purchase(let product?), .webPurchase(let product?), .webBuy(let product):
                products.append(product)
            default:
                break
            }
        default:
            break
        }
        return products
    }

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
        _ body: (FeedLine, [(word: String, column: Int)]) throws(FeedError) -> Void
    ) throws(FeedError) {
        try source.forEachLine(file: file) { (lineNumber: Int, rawLine: Substring) throws(FeedError) in
            let (tokens, trimmed) = Self.scan(rawLine)
            guard !tokens.isEmpty else { return }
            let step = try parse(tokens, line: lineNumber)
            try body(FeedLine(line: lineNumber, text: trimmed, step: step), tokens)
        }
    }

    /// The words of a line with their 1-based columns (as ``tokenize(_:)`` finds them), and its text before any `#`
    /// comment without the spaces and tabs around it.
    static func scan(_ line: Substring) -> (tokens: [(word: String, column: Int)], text: String) {
        if let scanned = scanASCII(line) { return scanned }
        let trimmed = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return (tokenize(line), trimmed.trimmingCharacters(in: .whitespaces))
    }

    /// ``scan(_:)`` of a line whose text before any `#` is ASCII, byte by byte: each byte is then one Character (a
    /// line holds no CR), and the whitespace trimmed is spaces and tabs. `nil` for any other line.
    private static func scanASCII(_ line: Substring) -> (tokens: [(word: String, column: Int)], text: String)? {
        let scanned = line.utf8.withContiguousStorageIfAvailable {
            bytes -> (tokens: [(word: String, column: Int)], text: String)? in
            func string(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            var tokens: [(word: String, column: Int)] = []
            var wordStart: Int?
            var end = bytes.count
            for position in 0..<bytes.count {
                let byte = bytes[position]
                guard byte < 0x80 else { return nil }
                if byte == UInt8(ascii: "#") {
                    end = position
                    break
                }
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                    if let start = wordStart { tokens.append((string(start..<position), start + 1)) }
                    wordStart = nil
                } else if wordStart == nil {
                    wordStart = position
                }
            }
            if let start = wordStart { tokens.append((string(start..<end), start + 1)) }
            func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            var low = 0
            var high = end
            while low < high, isBlank(bytes[low]) { low += 1 }
            while high > low, isBlank(bytes[high - 1]) { high -= 1 }
            return (tokens, string(low..<high))
        }
        return scanned ?? nil
    }

    /// Words of a line with their 1-based columns, up to a `#` comment.
    static func tokenize(_ line: Substring) -> [(word: String, column: Int)] {
        var tokens: [(String, Int)] = []
        var current = ""
        var start = 0
        var column = 0
        for character in line {
            column += 1
            if character == "#" { break }
            if character == " " || character == "\t" || character == "\r" {
                if !current.isEmpty { tokens.append((current, start)) }
                current = ""
            } else {
                if current.isEmpty { start = column }
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append((current, start)) }
        return tokens
    }

    private func references(in step: FeedStep) -> [FeedStep.Reference] {
        let storeKit2 = Self.storeKit2References(in: step)
        guard storeKit2.isEmpty else { return storeKit2 }
        switch step {
        case .approve(let reference), .decline(let reference), .finish(let reference), .refund(let reference),
            .reverseRefund(let reference), .refundRequest(let reference, _), .refundDecline(let reference),
            .resolve(let reference), .autoRenew(let reference, _),
            .priceIncrease(let reference, _),
            .delete(let reference):
            return [reference]
        case .expect(let expectation):
            switch expectation {
            case .states(let reference, _), .state(let reference, _), .removed(let reference), .error(let reference, _):
                return [reference]
            case .notification(.next(let pattern)):
                return pattern.reference.map { [$0] } ?? []
            default:
                return Self.observationReferences(in: expectation)
            }
        default:
            return []
        }
    }

    // MARK: Steps

    private func parse(_ tokens: [(word: String, column: Int)], line: Int) throws(FeedError) -> FeedStep {
        var reader = TokenReader(tokens: tokens, file: file, line: line)
        let verb = reader.next()!
        let step: FeedStep
        switch verb.word {
        case "config":
            step = .configure(try reader.word("a .storekit file, or `demo`"))
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
            step = .refund(try reader.reference())
        case "reverse-refund":
            step = .reverseRefund(try reader.reference())
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

/// Walks the words of one line.
struct TokenReader {
    let tokens: [(word: String, column: Int)]
    let file: String
    let line: Int
    var index = 0

    init(tokens: [(word: String, column: Int)], file: String, line: Int) {
        self.tokens = tokens
        self.file = file
        self.line = line
    }

    var peek: String? { index < tokens.count ? tokens[index].word : nil }
    var lastColumn: Int { tokens[max(0, min(index, tokens.count) - 1)].column }
    var endColumn: Int { (tokens.last.map { $0.column + $0.word.count }) ?? 1 }

    mutating func next() -> (word: String, column: Int)? {
        guard index < tokens.count else { return nil }
        defer { index += 1 }
        return tokens[index]
    }

    mutating func rest() -> [(word: String, column: Int)] {
        defer { index = tokens.count }
        return Array(tokens[index...])
    }

    func error(_ code: FeedError.Code, at column: Int, _ message: String, hint: String) -> FeedError {
        FeedError(code, file: file, line: line, column: column, message, hint: hint)
    }

    mutating func word(_ what: String) throws(FeedError) -> String {
        guard let token = next() else {
            throw error(.wrongArguments, at: endColumn, "missing \(what)", hint: "add \(what) here; see docs/feeds.md")
        }
        return token.word
    }

    mutating func end() throws(FeedError) {
        guard let extra = next() else { return }
        throw error(
            .wrongArguments, at: extra.column, "unexpected \"\(extra.word)\"",
            hint: "remove it; see docs/feeds.md for this step's form")
    }

    mutating func flag() throws(FeedError) -> Bool {
        let value = try word("on or off")
        switch value {
        case "on", "true", "yes": return true
        case "off", "false", "no": return false
        default: throw error(.invalidValue, at: lastColumn, "\"\(value)\" is not on or off", hint: "write on or off")
        }
    }

    mutating func integer(_ what: String) throws(FeedError) -> Int {
        let value = try word(what)
        guard let number = Int(value) else {
            throw error(
                .invalidValue, at: lastColumn, "\"\(value)\" is not a whole number", hint: "write \(what) as digits")
        }
        return number
    }

    /// A count an expectation compares with: a whole number, not negative. `hint` says what to write instead of a
    /// negative number.
    mutating func count(_ what: String, hint: String = "write 0 or more") throws(FeedError) -> Int {
        let number = try integer(what)
        guard number >= 0 else {
            throw error(.outOfBounds, at: lastColumn, "\(what) cannot be negative", hint: hint)
        }
        return number
    }

    mutating func reference() throws(FeedError) -> FeedStep.Reference {
        let value = try word("a transaction handle or product identifier")
        return value.contains(".") ? .product(value) : .handle(value)
    }

    mutating func state() throws(FeedError) -> TransactionState {
        let value = try word("a transaction state")
        guard let state = TransactionState.allCases.first(where: { $0.name == value }) else {
            throw error(
                .invalidValue, at: lastColumn, "\"\(value)\" is not a transaction state",
                hint: "states are purchasing, purchased, failed, restored and deferred")
        }
        return state
    }

    mutating func errorCode() throws(FeedError) -> StoreErrorCode {
        let value = try word("an SKError code")
        if let number = Int(value), let code = StoreErrorCode(rawValue: number) { return code }
        guard let code = StoreErrorCode.allCases.first(where: { $0.name == value }) else {
            throw error(
                .invalidValue,
                at: lastColumn,
                "\"\(value)\" is not an SKError code",
                hint: "use a name such as paymentCancelled, paymentInvalid, unknown or a number 0-21"
            )
        }
        return code
    }

    mutating func date() throws(FeedError) -> Date {
        let value = try word("a date")
        guard let date = ISO8601.parse(value) else {
            throw error(
                .invalidValue, at: lastColumn, "\"\(value)\" is not a date",
                hint: "write 2026-02-01 or 2026-02-01T10:00:00Z (UTC)")
        }
        guard date >= ISO8601.earliest, date <= ISO8601.latest else {
            throw error(
                .outOfBounds, at: lastColumn, "\"\(value)\" is outside the dates a feed allows",
                hint: "write a date from 1970-01-01 to 9999-12-31T23:59:59Z")
        }
        return date
    }
}
