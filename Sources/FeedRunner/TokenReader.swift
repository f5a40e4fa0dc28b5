import Foundation
import StoreModels

/// Walks the words of one line, for the grammar (`FeedParser`): each reader method takes the next word as what a
/// step expects there, or throws an error naming the line, the column and what was expected.
struct TokenReader {
    let tokens: [FeedLexer.Token]
    let file: String
    let line: Int
    var index = 0

    init(tokens: [FeedLexer.Token], file: String, line: Int) {
        self.tokens = tokens
        self.file = file
        self.line = line
    }

    var peek: String? { index < tokens.count ? tokens[index].word : nil }
    var lastColumn: Int { tokens[max(0, min(index, tokens.count) - 1)].column }
    var endColumn: Int { (tokens.last.map { $0.column + $0.word.count }) ?? 1 }

    mutating func next() -> FeedLexer.Token? {
        guard index < tokens.count else { return nil }
        defer { index += 1 }
        return tokens[index]
    }

    mutating func rest() -> [FeedLexer.Token] {
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
