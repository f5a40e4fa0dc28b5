import StoreModels
import StoreSimulator

extension FeedInterpreter {
    /// Carries out a `config` step: the catalog loaded when the feed was checked, or loaded now.
    func configure(_ source: String, line: FeedLine) throws(FeedError) {
        if let configuration = configurations[source] { return store.reconfigure(configuration) }
        let words = FeedLexer.tokenize(Substring(line.text))
        store.reconfigure(
            try FeedChecker(parser: FeedParser(file: file, baseDirectory: baseDirectory)).loadConfiguration(
                source, line: line.line, column: words.count > 1 ? words[1].column : 1))
    }

    /// Carries out a `set` step that changes the store's settings.
    func apply(_ setting: FeedStep.Setting) {
        store.updateSettings { settings in
            switch setting {
            case .askToBuy(let on): settings.askToBuyEnabled = on
            case .failTransactions(let on, let code):
                settings.failTransactionsEnabled = on
                settings.failureError = code
            case .interruptedPurchases(let on): settings.interruptedPurchasesEnabled = on
            case .paymentsAllowed(let on): settings.paymentsAllowed = on
            case .priceConsent(let answer): settings.priceConsentAnswer = answer
            case .storefront(let code): settings.storefront = Storefront(countryCode: code)
            case .locale(let locale): settings.locale = locale
            case .billingRetry(let on): settings.billingRetryOnRenewal = on
            case .gracePeriod(let on): settings.billingGracePeriodEnabled = on
            case .simulatedError(let api, let code):
                let operation: StoreAPI =
                    switch api {
                    case "load-products": .loadProducts
                    case "purchase": .purchase
                    case "restore": .restore
                    default: .receiptRefresh
                    }
                settings.simulatedErrors[operation] = code.map { StoreFailure($0, "simulated by the feed") }
            case .history, .accountAskToBuy, .accountPayments:
                break
            }
        }
        if case .history(let keepAll) = setting { store.historyRetention = keepAll ? .all : .receiptOnly }
    }
}
