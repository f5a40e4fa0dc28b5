#if Server
    import Foundation
    import ReceiptKit
    @testable import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    @Suite struct RateLimitTests {
        /// Get Test Notification Status for a token never handed out: an endpoint of 1 request per second.
        static let statusPath = "/inApps/v1/notifications/test/3f0c6bd4-8a3c-4d4f-9a0e-5b1f7b2d9c11"

        /// The statuses of `count` calls to Get Test Notification Status, in order.
        static func statuses(_ fixture: ServerFixture, count: Int) async throws -> [Int] {
            var statuses: [Int] = []
            for _ in 0..<count { statuses.append(try await fixture.api("GET", statusPath).status) }
            return statuses
        }

        @Test func pastTheSandboxLimitAnEndpointAnswers429WithApplesErrorUntilTheStoresClockReachesTheNextHour()
            async throws
        {
            let fixture = try ServerFixture(rateLimits: .sandbox)
            defer { fixture.server.stop() }
            // 1 request per second in production, 10 % of it in the sandbox: 360 in an hour.
            let admitted = try await Self.statuses(fixture, count: 360)
            #expect(!admitted.contains(429))
            #expect(Set(admitted).count == 1)
            let refused = try await fixture.api("GET", Self.statusPath)
            #expect(refused.status == 429)
            let body = try TestHTTPClient.object(refused.body)
            #expect(body["errorCode"] as? Int == 4_290_000)
            #expect(body["errorMessage"] as? String == "Rate limit exceeded.")
            #expect(body.count == 2)
            // A UNIX time in milliseconds: the start of the store's next hour.
            let now = JWSDate(fixture.store.now).millisecondsSince1970
            let nextHour = (now / 3_600_000 + 1) * 3_600_000
            #expect(refused.headers["retry-after"] == String(nextHour))
            // Another endpoint has a count of its own.
            #expect(try await fixture.api("GET", "/inApps/v1/transactions/1").status == 404)
            #expect(
                try await fixture.api("POST", "/inApps/v1/notifications/history", body: Array("{}".utf8)).status != 429)
            // Still refused within the hour; let through once the store's clock reaches the next.
            #expect(try await fixture.api("GET", Self.statusPath).status == 429)
            let seconds = (nextHour - now + 999) / 1000
            #expect(try await fixture.control("POST", "advance", #"{"seconds":\#(seconds)}"#).status == 200)
            #expect(try await fixture.api("GET", Self.statusPath).status == admitted[0])
        }

        @Test func withoutRateLimitsNothingIsRefused() async throws {
            #expect(StoreServerConfiguration().rateLimits == nil)
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let statuses = try await Self.statuses(fixture, count: 361)
            #expect(!statuses.contains(429))
        }

        @Test func anUnauthorizedRequestIsNotCounted() async throws {
            let fixture = try ServerFixture(rateLimits: .sandbox)
            defer { fixture.server.stop() }
            for _ in 0..<400 {
                let refused = try await fixture.client.send(
                    "GET", Self.statusPath, headers: ["Authorization": "Bearer x"])
                #expect(refused.status == 401)
            }
            #expect(try await fixture.api("GET", Self.statusPath).status != 429)
        }

        @Test func sandboxLimitsAreATenthOfApplesPerSecondFiguresCountedPerHour() {
            let perSecond: [APIEndpoint: Int] = [
                .getTransactionInfo: 50, .getAppTransactionInfo: 50, .getTransactionHistory: 50,
                .getTransactionHistoryV1: 50, .getAllSubscriptionStatuses: 50, .sendConsumptionInformation: 50,
                .getNotificationHistory: 50, .finishTransaction: 50, .extendSubscriptionRenewalDate: 20,
                .setAppAccountToken: 20, .lookUpOrderID: 10, .getRefundHistory: 10,
                .extendRenewalDatesForAllActiveSubscribers: 1, .requestTestNotification: 1,
                .getTestNotificationStatus: 1,
            ]
            .merging([.sendConsumptionInformationV1: 50, .getRefundHistoryV1: 10]) { $1 }
            for endpoint in APIEndpoint.allCases {
                let apple = RateLimits.apple.requestsPerHour(endpoint)
                #expect(apple == perSecond[endpoint].map { $0 * 3600 }, "\(endpoint)")
                #expect(RateLimits.sandbox.requestsPerHour(endpoint) == apple.map { $0 / 10 }, "\(endpoint)")
            }
        }

        @Test func applesLimitIsCountedPerEndpointInWholeHoursOfTheClockGiven() {
            let limiter = RateLimiter(limits: .apple)
            let hour: Int64 = 3_600_000
            let start = 500_000 * hour + 1234
            for offset in 0..<Int64(3600) {
                #expect(limiter.admit(.requestTestNotification, at: start + offset) == nil)
            }
            #expect(limiter.admit(.requestTestNotification, at: start + 5000) == 500_001 * hour)
            #expect(limiter.admit(.getTestNotificationStatus, at: start + 5000) == nil)
            #expect(limiter.admit(.getStatusOfSubscriptionRenewalDateExtensions, at: start) == nil)
            // The next hour is a new window, and so is a clock moved back to the hour before.
            #expect(limiter.admit(.requestTestNotification, at: 500_001 * hour) == nil)
            #expect(limiter.admit(.requestTestNotification, at: start) == nil)
        }
    }
#endif
