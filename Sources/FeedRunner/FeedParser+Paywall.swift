import PaywallEvents

extension FeedParser {
    /// Parses the words after `paywall`.
    func paywallStep(_ reader: inout TokenReader) throws(FeedError) -> FeedStep.PaywallStep {
        let verb = try reader.word("a paywall action")
        switch verb {
        case "show":
            let placement = try reader.word("a placement identifier")
            var products: [String] = []
            var screens: [String] = []
            var selected: String?
            var web: String?
            while let option = reader.next() {
                switch option.word {
                case "products":
                    products = try reader.list("product identifiers such as com.example.pro,com.example.coins100")
                case "screens": screens = try reader.list("screen identifiers such as intro,plans")
                case "select": selected = try reader.word("a product identifier")
                case "web": web = try reader.word("a web purchase URL")
                default:
                    throw reader.error(
                        .wrongArguments, at: option.column, "unknown paywall show option \"\(option.word)\"",
                        hint: "options are products P1,P2, screens S1,S2, select PRODUCT and web URL")
                }
            }
            guard !products.isEmpty else {
                throw reader.error(
                    .wrongArguments, at: reader.endColumn, "`paywall show` needs its products",
                    hint: "e.g. `paywall show premium products com.example.premium.monthly,com.example.pro`")
            }
            return .show(placement: placement, products: products, screens: screens, selected: selected, webURL: web)
        case "select": return .select(try reader.word("a product identifier"))
        case "purchase": return .purchase(reader.peek == nil ? nil : try reader.word("a product identifier"))
        case "restore": return .restore
        case "next-screen": return .nextScreen
        case "close": return .close
        case "dismiss": return .dismiss
        case "web-purchase": return .webPurchase(reader.peek == nil ? nil : try reader.word("a product identifier"))
        case "return": return .userReturns
        case "web-buy": return .webBuy(try reader.word("a product identifier"))
        case "app":
            let name = try reader.word("an app option")
            guard let option = FeedStep.PaywallAppOption(rawValue: name) else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(name)\" is not an app option",
                    hint: "options are " + FeedStep.PaywallAppOption.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return .app(option, try reader.flag())
        default:
            throw reader.error(
                .invalidValue, at: reader.lastColumn, "unknown paywall action \"\(verb)\"",
                hint:
                    "paywall actions are show, select, purchase, restore, next-screen, close, dismiss, web-purchase, return, web-buy and app"
            )
        }
    }

    /// Parses the words after `expect paywall`.
    func paywallExpectation(_ reader: inout TokenReader) throws(FeedError) -> FeedStep.PaywallExpectation {
        let kind = try reader.word("what to expect of the paywall")
        switch kind {
        case "events":
            var names: [String] = []
            while let name = reader.next() {
                guard PaywallEvent.names.contains(name.word), name.word != "didReceiveAnalyticEvent" else {
                    throw reader.error(
                        .invalidValue, at: name.column, "\"\(name.word)\" is not a paywall callback",
                        hint: "callbacks are "
                            + PaywallEvent.names.filter { $0 != "didReceiveAnalyticEvent" }
                            .joined(separator: ", ") + " (analytics are checked with `expect paywall analytics`)")
                }
                names.append(name.word)
            }
            return .events(names)
        case "analytics":
            return .analytics(try reader.word("an analytics event name"), try reader.count("a number of events"))
        case "result":
            let result = try reader.word("success, cancelled, pending or failed")
            guard ["success", "cancelled", "pending", "failed"].contains(result) else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(result)\" is not a purchase result",
                    hint: "use success, cancelled, pending or failed")
            }
            return .result(result)
        case "restore":
            let outcome = try reader.word("finished or failed")
            guard outcome == "finished" || outcome == "failed" else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(outcome)\" is not a restore outcome",
                    hint: "write `expect paywall restore finished` or `expect paywall restore failed`")
            }
            return .restore(outcome == "finished")
        case "on-screen": return .onScreen(true)
        case "dismissed": return .onScreen(false)
        case "access": return .access(try reader.word("an access level"), true)
        case "no-access": return .access(try reader.word("an access level"), false)
        case "web":
            let status = try reader.word("in-browser, polling, granted or timed-out")
            guard ["in-browser", "polling", "granted", "timed-out"].contains(status) else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(status)\" is not a web paywall status",
                    hint: "use in-browser, polling, granted or timed-out")
            }
            return .web(status)
        case "url": return .url(try reader.word("a URL"))
        case "conformant": return .conformant
        case "violation":
            let rule = try reader.word("a rule")
            guard ConformanceRule(rawValue: rule) != nil else {
                throw reader.error(
                    .invalidValue, at: reader.lastColumn, "\"\(rule)\" is not a conformance rule",
                    hint: "rules are " + ConformanceRule.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return .violation(rule)
        default:
            throw reader.error(
                .invalidValue, at: reader.lastColumn, "unknown paywall expectation \"\(kind)\"",
                hint:
                    "paywall expectations are events, analytics, result, restore, on-screen, dismissed, access, no-access, web, url, conformant and violation"
            )
        }
    }
}

extension TokenReader {
    /// A comma-separated list of words.
    mutating func list(_ what: String) throws(FeedError) -> [String] {
        let value = try word(what)
        let items = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
            throw error(.invalidValue, at: lastColumn, "\"\(value)\" is not a list", hint: "write \(what)")
        }
        return items
    }
}
