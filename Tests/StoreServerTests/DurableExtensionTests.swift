#if Server
    import Foundation
    import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    @Suite struct DurableExtensionTests {
        @Test func aServedStateFileKeepsAnExtensionAcrossARestart() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.file("state.sqlite")
            let store = try SimulatedStore(statePath: path, lane: .manual)
            let fixture = try ServerFixture(store: store)
            let id = try NotificationTypesTests.id(
                try await fixture.control("POST", "purchases", #"{"productId":"com.example.premium.monthly"}"#))
            let before = try #require(store.subscriptions().first?.expiresAt)
            let body = #"{"extendByDays":10,"extendReasonCode":1,"requestIdentifier":"r1"}"#
            let response = try await fixture.api(
                "PUT", "/inApps/v1/subscriptions/extend/\(id)", body: Array(body.utf8))
            #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
            fixture.server.stop()
            try store.close()

            let reopened = try SimulatedStore(statePath: path, lane: .manual)
            #expect(reopened.subscriptions().first?.expiresAt == before.addingTimeInterval(10 * 86_400))
            try reopened.close()
        }
    }
#endif
