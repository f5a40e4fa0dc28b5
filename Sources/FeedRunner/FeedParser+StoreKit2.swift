import StoreModels

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
            var offers = FeedStep.StoreKit2Offers()
            var handle: String?
            while let option = reader.next() {
                switch option.word {
                case "quantity": quantity = try reader.integer("a quantity from 1 to 10")
                case "ask-to-buy": askToBuy = true
                case "win-back": offers.winBack = try reader.word("a win-back offer identifier")
                case "offer":
                    offers.promotional = try reader.word("a promotional offer identifier")
                    offers.promotionalJWSFile = try signedOfferFile(&reader, after: "offer ID")
                case "intro-eligibility": offers.eligibilityJWSFile = try signedOfferFile(&reader, after: option.word)
                case "plan": offers.billingPlan = try billingPlan(&reader, allowingNone: false)
                case "as": handle = try reader.word("a handle")
                default:
                    throw reader.error(
                        .wrongArguments, at: option.column, "unknown sk2 buy option \"\(option.word)\"",
                        hint:
                            "options are quantity N, ask-to-buy, win-back ID, offer ID jws FILE, intro-eligibility "
                            + "jws FILE, plan monthly|up-front and as HANDLE")
                }
            }
            return .buy(product: product, quantity: quantity, askToBuy: askToBuy, offers: offers, handle: handle)
        case "finish":
            return .finish(try reader.reference())
        default:
            throw reader.error(
                .invalidValue, at: reader.lastColumn, "unknown sk2 action \"\(verb)\"",
                hint: "sk2 actions are listen, buy and finish")
        }
    }

    /// Parses a billing plan (`monthly`, `up-front`, and `none` when `allowingNone`; `nil` for none).
    private func billingPlan(_ reader: inout TokenReader, allowingNone: Bool) throws(FeedError) -> BillingPlan.Kind? {
        let names = ["monthly", "up-front"] + (allowingNone ? ["none"] : [])
        let name = try reader.word("a billing plan (\(names.joined(separator: ", ")))")
        if allowingNone, name == "none" { return nil }
        guard let plan = FeedStep.StoreKit2Offers.billingPlans[name] else {
            throw reader.error(
                .invalidValue, at: reader.lastColumn, "\"\(name)\" is not a billing plan",
                hint: "billing plans are " + names.joined(separator: ", "))
        }
        return plan
    }

    /// Parses `jws FILE` after an `sk2 buy` option that applies a signed offer (`after`, for the message).
    private func signedOfferFile(_ reader: inout TokenReader, after option: String) throws(FeedError) -> String {
        let keyword = try reader.word("jws FILE after \(option)")
        guard keyword == "jws" else {
            throw reader.error(
                .wrongArguments, at: reader.lastColumn, "\(option) takes jws FILE, not \"\(keyword)\"",
                hint: "write \(option) jws FILE, FILE holding the compact JWS your server signed (relative to the feed)"
            )
        }
        return try reader.word("a file holding a compact JWS (relative to the feed)")
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
        case "offer":
            let reference = try reader.reference()
            let types = FeedStep.StoreKit2Offers.types
            let type = try reader.word(types.joined(separator: ", "))
            guard types.contains(type) else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(type)\" is not an offer type",
                    hint: "offer types are " + types.joined(separator: ", "))
            }
            let id = reader.next()
            if let id, type == "none" {
                throw reader.error(
                    .wrongArguments, at: id.column, "an offer of type none has no identifier",
                    hint: "write expect sk2 offer REF none")
            }
            return .offer(reference, type: type, id: id?.word)
        case "billing-plan":
            let reference = try reader.reference()
            let plan = try billingPlan(&reader, allowingNone: true)
            guard let option = reader.next() else { return .billingPlan(reference, plan: plan, period: nil) }
            guard option.word == "period" else {
                throw reader.error(
                    .wrongArguments, at: option.column, "unknown billing-plan option \"\(option.word)\"",
                    hint: "write expect sk2 billing-plan REF monthly|up-front|none [period N]")
            }
            guard plan == .monthly else {
                throw reader.error(
                    .wrongArguments, at: option.column, "only a monthly billing plan has commitment periods",
                    hint: "write expect sk2 billing-plan REF monthly period N, N from 1 to 12")
            }
            let period = try reader.integer("a billing period number from 1 to 12")
            guard (1...BillingPlan.monthlyCommitmentPeriods).contains(period) else {
                throw reader.error(
                    .outOfBounds, at: reader.lastColumn, "billing period \(period) is outside 1...12",
                    hint: "a commitment has 12 monthly billing periods, numbered from 1")
            }
            return .billingPlan(reference, plan: plan, period: period)
        default:
            throw reader.error(
                .invalidValue, at: reader.lastColumn, "unknown sk2 expectation \"\(kind)\"",
                hint:
                    "sk2 expectations are result, updates, entitlements, status, verified, unverified, unfinished, "
                    + "offer and billing-plan")
        }
    }
}
