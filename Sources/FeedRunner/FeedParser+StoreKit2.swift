extension FeedParser {
    /// Parses the words after `sk2`.
    func storeKit2Step(_ reader: inout TokenReader) throws(FeedError) -> FeedStep.StoreKit2Step {
        let verb = try reader.word("a StoreKit 2 action")
        switch verb {
        case "listen":
            return .listen
        case "buy":
            let product = try reader.word("a product identifier")
            var quantity = 1
            var askToBuy = false
            var handle: String?
            while let option = reader.next() {
                switch option.word {
                case "quantity": quantity = try reader.integer("a quantity from 1 to 10")
                case "ask-to-buy": askToBuy = true
                case "as": handle = try reader.word("a handle")
                default:
                    throw reader.error(
                        .wrongArguments, at: option.column, "unknown sk2 buy option \"\(option.word)\"",
                        hint: "options are quantity N, ask-to-buy and as HANDLE")
                }
            }
            return .buy(product: product, quantity: quantity, askToBuy: askToBuy, handle: handle)
        case "finish":
            return .finish(try reader.reference())
        default:
            throw reader.error(
                .invalidValue, at: reader.lastColumn, "unknown sk2 action \"\(verb)\"",
                hint: "sk2 actions are listen, buy and finish")
        }
    }

    /// Parses the words after `expect sk2`.
    func storeKit2Expectation(_ reader: inout TokenReader) throws(FeedError) -> FeedStep.StoreKit2Expectation {
        let kind = try reader.word("what to expect of StoreKit 2")
        switch kind {
        case "result":
            let reference = try reader.reference()
            let result = try reader.word("success, cancelled, pending or failed")
            guard ["success", "cancelled", "pending", "failed"].contains(result) else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(result)\" is not a purchase result",
                    hint: "use success, cancelled, pending or failed")
            }
            return .result(reference, result)
        case "updates":
            return .updates(reader.rest().map(\.word))
        case "entitlements":
            return .entitlements(reader.rest().map(\.word))
        case "status":
            let group = try reader.word("a subscription group identifier")
            let states = ["subscribed", "expired", "billing-retry", "grace-period", "revoked", "none"]
            let state = try reader.word(states.joined(separator: ", "))
            guard states.contains(state) else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(state)\" is not a renewal state",
                    hint: "states are " + states.joined(separator: ", "))
            }
            return .status(group, state)
        case "verified":
            return .verified(try reader.reference(), true)
        case "unverified":
            return .verified(try reader.reference(), false)
        case "unfinished":
            return .unfinished(try reader.count("a number of transactions"))
        default:
            throw reader.error(
                .invalidValue, at: reader.lastColumn, "unknown sk2 expectation \"\(kind)\"",
                hint: "sk2 expectations are result, updates, entitlements, status, verified, unverified and unfinished")
        }
    }
}
