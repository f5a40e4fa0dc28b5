import Foundation
import OpenStoreKit
import PaywallEvents
import PaywallEventsTest
import Purchases
import ReceiptKit
import StoreModels
import StoreSimulator
import Testing

@Suite("Web paywalls")
struct WebPaywallTests {
    static let checkout = URL(string: "https://pay.example.com/checkout")!

    func product(
        webPurchaseURL: URL? = nil, paywallURL: URL? = checkout, offerId: String? = nil,
        id: String = "com.example.premium.monthly"
    ) -> PaywallProduct {
        PaywallProduct(
            vendorProductId: id, localizedTitle: "Premium Monthly", localizedDescription: "Premium, every month.",
            localizedPrice: "$4.99", price: Decimal(string: "4.99")!, currencyCode: "USD", paywallId: "premium_paywall",
            variationId: "var_a", webPurchaseURL: webPurchaseURL, paywallWebPurchaseURL: paywallURL, offerId: offerId)
    }

    @Test("The product URL carries the paywall, variation, profile, product and offer, percent-encoded")
    func productURL() throws {
        let url = try WebPaywallURL.make(for: product(offerId: "winback 50%"), profileId: "profile-42")
        #expect(
            url.absoluteString
                == "https://pay.example.com/checkout?paywall_id=premium_paywall&variation_id=var_a"
                + "&profile_id=profile-42&product_id=com.example.premium.monthly&offer_id=winback%2050%25")
    }

    @Test("A product's own URL wins; its query and fragment stay, the offer is left out when there is none")
    func productOwnURL() throws {
        let own = URL(string: "https://shop.example.com/buy?src=app#plans")!
        let url = try WebPaywallURL.make(for: product(webPurchaseURL: own), profileId: "p1")
        #expect(
            url.absoluteString
                == "https://shop.example.com/buy?src=app&paywall_id=premium_paywall&variation_id=var_a&profile_id=p1"
                + "&product_id=com.example.premium.monthly#plans")
    }

    @Test("The paywall URL carries the paywall, variation and profile, and no product data")
    func paywallURL() throws {
        let url = try WebPaywallURL.make(for: Session.configuration(), profileId: "profile-42")
        #expect(
            url.absoluteString
                == "https://pay.example.com/checkout?paywall_id=premium_paywall&variation_id=var_a&profile_id=profile-42"
        )
    }

    @Test("Reserved, non-ASCII and control characters are percent-encoded; unreserved ones are kept")
    func encoding() throws {
        let url = try WebPaywallURL.make(for: Session.configuration(), profileId: "user+1@example.com/é&x=y ~ok_-.")
        #expect(
            url.absoluteString
                == "https://pay.example.com/checkout?paywall_id=premium_paywall&variation_id=var_a"
                + "&profile_id=user%2B1%40example.com%2F%C3%A9%26x%3Dy%20~ok_-.")
        let parsed = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(parsed.first { $0.name == "profile_id" }?.value == "user+1@example.com/é&x=y ~ok_-.")
    }

    @Test("Two users or two variations get different URLs")
    func unique() throws {
        let first = try WebPaywallURL.make(for: product(), profileId: "alice")
        let second = try WebPaywallURL.make(for: product(), profileId: "bob")
        let other = PaywallConfiguration(
            paywallId: "premium_paywall", variationId: "var_b", products: [], webPurchaseURL: Self.checkout)
        #expect(first != second)
        #expect(
            try WebPaywallURL.make(for: other, profileId: "alice")
                != WebPaywallURL.make(for: Session.configuration(), profileId: "alice"))
    }

    @Test("The four errors")
    func errors() throws {
        let session = Session()
        let bare = Session.configuration(webPurchaseURL: nil)
        #expect(throws: PaywallEventsError(.paywallWithoutPurchaseUrl, "")) {
            try session.context.openWebPaywall(for: bare)
        }
        #expect(throws: PaywallEventsError(.productWithoutPurchaseUrl, "")) {
            try session.context.openWebPaywall(for: product(paywallURL: nil))
        }
        #expect(throws: PaywallEventsError(.failedDecodingWebPaywallUrl, "")) {
            try session.context.openWebPaywall(for: product(webPurchaseURL: URL(string: "ftp://files.example.com/x")))
        }
        #expect(throws: PaywallEventsError(.failedDecodingWebPaywallUrl, "")) {
            try session.context.openWebPaywall(
                for: product(webPurchaseURL: URL(string: "https://pay.example.com/?profile_id=someone")))
        }
        #expect(session.host.openedURLs.isEmpty)
        session.host.browserWorks = false
        #expect(throws: PaywallEventsError(.failedOpeningWebPaywallUrl, "")) {
            try session.context.openWebPaywall(for: product())
        }
        #expect(session.host.openedURLs.map(\.opened) == [false])
        #expect(session.context.webPaywallVisits.isEmpty)
        let codes = [
            PaywallEventsError.Code.paywallWithoutPurchaseUrl, .productWithoutPurchaseUrl, .failedOpeningWebPaywallUrl,
            .failedDecodingWebPaywallUrl,
        ]
        #expect(
            codes.map(\.name) == [
                "paywall_without_purchase_url", "product_without_purchase_url", "failed_opening_web_paywall_url",
                "failed_decoding_web_paywall_url",
            ])
    }

    @Test("External browser by default, in-app browser on request")
    func presentation() throws {
        let session = Session()
        try session.context.openWebPaywall(for: product())
        try session.context.openWebPaywall(for: Session.configuration(), in: .inAppBrowser)
        #expect(session.host.openedURLs.map(\.presentation) == [.externalBrowser, .inAppBrowser])
        #expect(session.context.webPaywallVisits.map(\.presentation) == [.externalBrowser, .inAppBrowser])
    }

    @Test("After the user returns, the profile is polled every second until a web purchase grants access")
    func pollingGranted() throws {
        let session = Session()
        let start = session.store.now
        let visit = try session.context.openWebPaywall(for: product())
        #expect(visit.accessLevels == ["premium"])
        session.context.advance(by: 10)
        #expect(visit.status == .inBrowser)
        #expect(visit.polls == 0, "nothing is polled while the user is on the web page")

        session.context.userDidReturnToApp()
        #expect(visit.status == .polling)
        #expect(visit.polls == 1)
        session.context.advance(by: 2.5)
        #expect(visit.polls == 3, "polled at 10 s, 11 s and 12 s")
        try session.store.buyProduct("com.example.premium.monthly")
        session.context.advance(by: 1)
        guard case .accessGranted(let profile) = visit.status else {
            Issue.record("not granted: \(visit.status)")
            return
        }
        #expect(profile.isActive("premium"))
        #expect(visit.polls == 4)
        #expect(visit.endedAt == start.addingTimeInterval(13), "the first poll after the purchase saw it")
        session.context.advance(by: 30)
        #expect(visit.polls == 4, "polling stopped")
        #expect(session.context.scheduler.pendingCount == 0)
    }

    @Test("Polling gives up at the timeout, polling at the deadline itself")
    func pollingTimeout() throws {
        let session = Session(polling: ProfilePollingPolicy(interval: 3, timeout: 10))
        let start = session.store.now
        let visit = try session.context.openWebPaywall(for: Session.configuration())
        #expect(visit.accessLevels == ["premium", "pro"])
        let ended = EndedStatuses()
        visit.onEnd(ended.record)
        session.context.userDidReturnToApp()
        session.context.advance(by: 9)
        #expect(visit.status == .polling)
        #expect(visit.polls == 4, "0, 3, 6 and 9 s")
        session.context.advance(by: 5)
        #expect(visit.status == .timedOut(.empty))
        #expect(visit.polls == 5, "and the deadline, 10 s")
        #expect(visit.endedAt == start.addingTimeInterval(10))
        #expect(ended.statuses == [.timedOut(.empty)])
        session.context.userDidReturnToApp()
        #expect(visit.polls == 5, "a visit polls once")
    }

    @Test("A poll whose receipt does not verify says why; polling goes on and times out with the last good profile")
    func pollingUnverified() throws {
        let untrusting = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: false)
        let session = Session(
            polling: ProfilePollingPolicy(interval: 1, timeout: 3), receiptVerifier: untrusting)
        let visit = try session.context.openWebPaywall(for: product(id: "com.example.pro"))
        try session.store.buyProduct("com.example.pro")
        session.context.userDidReturnToApp()
        #expect(visit.status == .polling)
        #expect(visit.pollError?.code == .receiptInvalid)
        #expect(visit.pollError?.message.contains("does not verify") == true)
        session.context.advance(by: 5)
        #expect(visit.status == .timedOut(.empty))
        #expect(visit.polls == 4)
        #expect(visit.pollError?.code == .receiptInvalid)
    }

    @Test("A poll that reads the profile has no error")
    func pollingVerified() throws {
        let trusting = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true)
        let session = Session(receiptVerifier: trusting)
        let visit = try session.context.openWebPaywall(for: product(id: "com.example.pro"))
        try session.store.buyProduct("com.example.pro")
        session.context.userDidReturnToApp()
        guard case .accessGranted(let profile) = visit.status else {
            Issue.record("not granted: \(visit.status)")
            return
        }
        #expect(profile.isActive("pro"))
        #expect(visit.pollError == nil)
    }

    @Test("A purchase made before the user returns is seen by the first poll")
    func alreadyBought() throws {
        let session = Session()
        let visit = try session.context.openWebPaywall(for: product(id: "com.example.pro"))
        try session.store.buyProduct("com.example.pro")
        session.context.userDidReturnToApp()
        #expect(visit.polls == 1)
        guard case .accessGranted = visit.status else {
            Issue.record("not granted: \(visit.status)")
            return
        }
    }
}

/// Statuses a visit reported when it ended.
final class EndedStatuses: @unchecked Sendable {
    // @unchecked: used on one thread, the one driving the manual store.
    var statuses: [WebPaywallVisit.Status] = []
    func record(_ status: WebPaywallVisit.Status) { statuses.append(status) }
}
