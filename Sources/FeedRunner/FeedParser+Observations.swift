import Foundation
import StoreModels

extension FeedParser {
    /// Parses the expectations of what the app observed beyond single transactions: counts, absences, order,
    /// receipt fields, exceptions and amounts. `kind` is the word after `expect`.
    func observationExpectation(_ kind: String, _ reader: inout TokenReader) throws(FeedError)
        -> FeedStep.Expectation
    {
        switch kind {
        case "no":
            let what = try reader.word("revocation or exception")
            switch what {
            case "revocation": return .noRevocation(reader.peek == nil ? nil : try reader.word("a product identifier"))
            case "exception": return .noException
            default:
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(what)\" is not something to expect none of",
                    hint: "write `expect no revocation [PRODUCT]`, `expect no exception` or `expect no notification`")
            }
        case "heard":
            let count = try reader.count("a number of updates")
            try reader.keyword(["updates", "update"], "e.g. `expect heard 2 updates for pro`")
            try reader.keyword(["for"], "e.g. `expect heard 2 updates for pro`")
            return .heardUpdates(try reader.reference(), count)
        case "order":
            var heard: [FeedStep.HeardState] = []
            while reader.peek != nil { heard.append(FeedStep.HeardState(try reader.reference(), try reader.state())) }
            guard heard.count >= 2 else {
                throw reader.error(
                    .wrongArguments, at: reader.endColumn, "`expect order` needs at least two transactions and states",
                    hint: "e.g. `expect order first purchased second purchased`")
            }
            return .order(heard)
        case "original":
            return .original(try reader.reference(), try reader.reference())
        case "exception":
            let reference = try reader.reference()
            guard reader.peek != nil else { return .exception(reference, nil) }
            let state = try reader.state()
            guard state == .purchasing || state == .deferred else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "finishing a \(state.name) transaction raises no exception",
                    hint: "StoreKit raises one for purchasing and deferred transactions")
            }
            return .exception(reference, state)
        case "delegate":
            let asked = try reader.word("asked, not-asked, asked-price-consent or not-asked-price-consent")
            if asked == "asked-price-consent" || asked == "not-asked-price-consent" {
                return .delegateAskedPriceConsent(asked == "asked-price-consent")
            }
            guard asked == "asked" || asked == "not-asked" else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn,
                    "\"\(asked)\" is not asked, not-asked, asked-price-consent or not-asked-price-consent",
                    hint:
                        "write `expect delegate asked REF`, `expect delegate not-asked REF`, "
                        + "`expect delegate asked-price-consent` or `expect delegate not-asked-price-consent`")
            }
            return .delegateAsked(try reader.reference(), asked == "asked")
        case "paid":
            let reference = try reader.reference()
            let text = try reader.word("an amount such as 9.99")
            guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), text.filter({ $0 == "." }).count <= 1,
                text.first?.isNumber == true, text.count <= 20, let amount = Decimal(string: text)
            else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(text)\" is not an amount",
                    hint: "write the amount in the storefront's currency, with a dot: 9.99, 0 or 39.99")
            }
            return .paid(reference, amount)
        default:
            let names = [
                "states", "state", "removed", "error", "restore", "unfinished", "owned", "not-owned", "subscribed",
                "not-subscribed", "revoked", "no", "heard", "order", "original", "exception", "paid", "delegate",
                "history", "charged", "renewals", "phase", "access", "receipt", "receipt-cancelled", "sk2",
                "notification",
                "paywall",
            ]
            let close = EditDistance.closest(to: kind, among: names)
            throw reader.error(
                .invalidValue,
                at: reader.lastColumn,
                "unknown expectation \"\(kind)\"",
                hint: close.isEmpty
                    ? "expectations are " + names.dropLast().joined(separator: ", ") + " and paywall"
                    : "did you mean " + close.joined(separator: " or ") + "?"
            )
        }
    }

    /// Parses the field and value of `expect receipt REF FIELD VALUE`.
    func receiptField(_ reader: inout TokenReader) throws(FeedError) -> (String, FeedStep.ReceiptValue) {
        let field = try reader.word("a receipt field such as is_trial_period")
        let fieldColumn = reader.lastColumn
        guard FeedStep.ReceiptField.all.contains(field) else {
            let close = EditDistance.closest(to: field, among: FeedStep.ReceiptField.all)
            throw reader.error(
                .invalidValue, at: fieldColumn, "\"\(field)\" is not a field of a receipt entry",
                hint: close.isEmpty
                    ? "fields are " + FeedStep.ReceiptField.all.joined(separator: ", ")
                    : "did you mean " + close.joined(separator: " or ") + "?")
        }
        let text = try reader.word("a value, or none")
        if text == "none" { return (field, .none) }
        let value: FeedStep.ReceiptValue
        if FeedStep.ReceiptField.dates.contains(field) {
            guard let date = ISO8601.parse(text), date >= ISO8601.earliest, date <= ISO8601.latest else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(text)\" is not a date",
                    hint: "write 2026-02-01 or 2026-02-01T10:00:00Z (UTC), or none")
            }
            value = .date(date)
        } else if FeedStep.ReceiptField.transactions.contains(field) {
            value = .transaction(text.contains(".") ? .product(text) : .handle(text))
        } else if FeedStep.ReceiptField.flags.contains(field) {
            guard text == "true" || text == "false" else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(text)\" is not true or false",
                    hint: "\(field) is true or false")
            }
            value = .text(text)
        } else if FeedStep.ReceiptField.numbers.contains(field) {
            guard let number = UInt64(text) else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(text)\" is not a whole number",
                    hint: "\(field) is a whole number, or none")
            }
            value = .text(String(number))
        } else {
            value = .text(text)
        }
        return (field, value)
    }
}

extension TokenReader {
    /// How many words are left.
    var remaining: Int { tokens.count - index }

    /// The word `offset` places after the next one.
    func peek(after offset: Int) -> String? {
        index + offset < tokens.count ? tokens[index + offset].word : nil
    }

    /// Reads a word that must be one of `expected`.
    mutating func keyword(_ expected: [String], _ example: String) throws(FeedError) {
        let word = try self.word("`\(expected[0])`")
        guard expected.contains(word) else {
            throw error(.wrongArguments, at: lastColumn, "expected `\(expected[0])`, found \"\(word)\"", hint: example)
        }
    }
}

extension FeedParser {
    /// Parses the words after `delegate`: `should-continue yes|no`, or `remove`.
    func delegateAnswer(_ reader: inout TokenReader) throws(FeedError) -> Bool? {
        let what = try reader.word("should-continue, price-consent or remove")
        switch what {
        case "should-continue": return try reader.flag()
        case "remove": return nil
        default:
            throw reader.error(
                .invalidValue, at: reader.lastColumn, "\"\(what)\" is not a delegate answer",
                hint:
                    "write `delegate should-continue yes|no`, `delegate price-consent yes|no` or `delegate remove`")
        }
    }
}

extension TokenReader {
    /// A three-letter storefront country code, upper-cased.
    mutating func countryCode() throws(FeedError) -> String {
        let code = try word("an ISO 3166-1 alpha-3 country code such as USA")
        guard code.count == 3, code.allSatisfy(\.isLetter) else {
            throw error(
                .invalidValue,
                at: lastColumn,
                "\"\(code)\" is not a country code",
                hint: "use a three-letter code such as USA, GBR or DEU"
            )
        }
        return code.uppercased()
    }
}
