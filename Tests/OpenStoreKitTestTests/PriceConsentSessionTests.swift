import Foundation
import OpenStoreKit
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import Testing

@Suite("SKTestSession price consent")
struct PriceConsentSessionTests {
    @Test("The session chooses what the customer answers on the sheet; resetting closes it without answering again")
    func sessionChoosesAnswer() throws {
        let day: TimeInterval = 86_400
        for answer in PriceConsentAnswer.allCases {
            let env = Environment()
            #expect(env.session.priceConsentAnswer == .dismiss)
            env.session.priceConsentAnswer = answer
            env.buy(Product.silverMonthly)
            let first = try #require(env.transactions(of: Product.silverMonthly).first)
            try env.session.requestPriceIncreaseConsentForTransaction(identifier: first.identifier)
            env.store.runUntilIdle()  // no delegate: the sheet shows at once
            let events = try env.session.advance(by: 31 * day)
            switch answer {
            case .consent: #expect(events.map(\.kind) == [.renewed])
            case .decline: #expect(events.map(\.kind) == [.expired(.autoRenewDisabled)])
            case .dismiss: #expect(events.map(\.kind) == [.expired(.priceIncreaseNotConsented)])
            }
            env.session.resetToDefaultState()
            #expect(env.session.priceConsentAnswer == .dismiss)
        }
    }
}
