import Foundation
import StoreModels
import Testing

private let day: TimeInterval = 86_400
private let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

/// The n-th day after the start.
private func on(_ days: Double) -> Date { start.addingTimeInterval(days * day) }

/// A monthly period bought on `day` days after the start.
private func month(from days: Double, cancelledOn cancelled: Double? = nil, upgraded: Bool = false)
    -> ProductAccess.Purchase
{
    ProductAccess.Purchase(
        purchaseDate: on(days), expiresDate: on(days + 30), cancellationDate: cancelled.map(on), isUpgraded: upgraded)
}

@Suite("Access to a product, at every phase")
struct ProductAccessTests {
    @Test("A period in force grants access until it ends, whatever the store's billing state says")
    func active() {
        let access = ProductAccess(purchases: [month(from: 0)], at: on(10))
        #expect(access.phase == .active)
        #expect(access.hasAccess)
        #expect(access.expiresAt == on(30))
        let renewed = ProductAccess(purchases: [month(from: 0), month(from: 30)], at: on(40))
        #expect(renewed.phase == .active)
        #expect(renewed.expiresAt == on(60))
        #expect(ProductAccess(purchases: [month(from: 0)], billing: .billingRetry, at: on(10)).phase == .active)
    }

    @Test("A purchase that does not expire grants access for good and beats any period")
    func lifetime() {
        let lifetime = ProductAccess.Purchase(purchaseDate: on(5), expiresDate: nil)
        let access = ProductAccess(purchases: [month(from: 0), lifetime], at: on(1_000))
        #expect(access.phase == .active)
        #expect(access.expiresAt == nil)
        #expect(ProductAccess(purchases: [lifetime, month(from: 0)], at: on(10)).expiresAt == nil)
    }

    @Test("In a billing grace period the customer keeps access until the grace period ends")
    func grace() {
        let access = ProductAccess(purchases: [month(from: 0)], billing: .gracePeriod(endsAt: on(46)), at: on(35))
        #expect(access.phase == .grace)
        #expect(access.hasAccess)
        #expect(access.expiresAt == on(46))
        #expect(access.purchase == month(from: 0))
    }

    @Test("Billing retry grants nothing: after the grace period, or with none")
    func billingRetry() {
        let afterGrace = ProductAccess(purchases: [month(from: 0)], billing: .gracePeriod(endsAt: on(46)), at: on(46))
        #expect(afterGrace.phase == .billingRetry)
        #expect(!afterGrace.hasAccess)
        #expect(afterGrace.expiresAt == on(30))
        let withoutGrace = ProductAccess(purchases: [month(from: 0)], billing: .billingRetry, at: on(31))
        #expect(withoutGrace.phase == .billingRetry)
        #expect(!withoutGrace.hasAccess)
    }

    @Test("A period that ended without billing trouble is expired, from its last second on")
    func expired() {
        #expect(ProductAccess(purchases: [month(from: 0)], at: on(30)).phase == .expired)
        #expect(ProductAccess(purchases: [month(from: 0)], at: on(30).addingTimeInterval(-1)).phase == .active)
        #expect(!ProductAccess(purchases: [month(from: 0)], at: on(90)).hasAccess)
    }

    @Test("A refund or revocation ends access at once, even in the middle of a period or of a grace period")
    func revoked() {
        let refunded = [month(from: 0, cancelledOn: 10)]
        #expect(ProductAccess(purchases: refunded, at: on(9)).phase == .active)
        let access = ProductAccess(purchases: refunded, at: on(10))
        #expect(access.phase == .revoked)
        #expect(!access.hasAccess)
        #expect(ProductAccess(purchases: refunded, billing: .gracePeriod(endsAt: on(46)), at: on(35)).phase == .revoked)
        let oneTime = ProductAccess.Purchase(purchaseDate: on(0), expiresDate: nil, cancellationDate: on(3))
        #expect(ProductAccess(purchases: [oneTime], at: on(3)).phase == .revoked)
    }

    @Test("The last purchase bought decides, not the one whose period would have ended last")
    func latestBought() {
        let refunded = month(from: 0, cancelledOn: 1)
        let again = ProductAccess.Purchase(purchaseDate: on(2), expiresDate: on(3))
        #expect(ProductAccess(purchases: [refunded, again], at: on(2)).phase == .active)
        let access = ProductAccess(purchases: [refunded, again], at: on(4))
        #expect(access.phase == .expired)
        #expect(access.purchase == again)
        #expect(ProductAccess(purchases: [again, refunded], at: on(4)).phase == .expired, "in any order")
    }

    @Test("Refunding an earlier period leaves the current one in force")
    func earlierPeriodRefunded() {
        let access = ProductAccess(purchases: [month(from: 0, cancelledOn: 40), month(from: 30)], at: on(41))
        #expect(access.phase == .active)
        #expect(access.expiresAt == on(60))
    }

    @Test("An upgrade ends the replaced product's access at once; the new product has access")
    func upgraded() {
        let replaced = ProductAccess(purchases: [month(from: 0, cancelledOn: 10, upgraded: true)], at: on(10))
        #expect(replaced.phase == .upgraded)
        #expect(!replaced.hasAccess)
        let yearly = ProductAccess.Purchase(purchaseDate: on(10), expiresDate: on(375))
        let upgrade = ProductAccess(purchases: [yearly], at: on(10))
        #expect(upgrade.phase == .active)
        #expect(upgrade.hasAccess)
    }

    @Test("Nothing bought, or bought later than the moment asked about, is none")
    func none() {
        #expect(ProductAccess(purchases: [], at: on(0)).phase == .none)
        let access = ProductAccess(purchases: [month(from: 5)], at: on(4))
        #expect(access.phase == .none)
        #expect(access.purchase == nil)
        #expect(!access.hasAccess)
    }

    @Test("Only active and grace grant access; phase names are the ones feeds use")
    func names() {
        #expect(ProductAccess.Phase.allCases.filter(\.grantsAccess) == [.active, .grace])
        #expect(
            ProductAccess.Phase.allCases.map(\.rawValue) == [
                "active", "grace", "billing-retry", "expired", "revoked", "upgraded", "none",
            ])
    }

    @Test("Access next changes at the earliest purchase date, expiry, cancellation or end of grace ahead")
    func nextChange() {
        let purchases = [month(from: 0, cancelledOn: 20)]
        #expect(ProductAccess.nextChange(of: purchases, after: on(1)) == on(20))
        #expect(ProductAccess.nextChange(of: purchases, after: on(20)) == on(30))
        #expect(ProductAccess.nextChange(of: purchases, billing: .gracePeriod(endsAt: on(25)), after: on(20)) == on(25))
        #expect(ProductAccess.nextChange(of: purchases, after: on(30)) == nil)
    }
}
