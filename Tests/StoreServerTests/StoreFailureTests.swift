#if Server
    import Foundation
    import StoreModels
    import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    /// A served durable store that can no longer record its changes answers nothing from memory: what it would say
    /// is not what a restart brings back.
    @Suite("A served store whose database failed")
    struct StoreFailureTests {
        @Test("Once the store cannot record, both APIs refuse every request instead of answering from memory")
        func refusesAfterTheStoreStopsRecording() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let store = try SimulatedStore(statePath: directory.file("state.sqlite"), lane: .manual)
            let fixture = try ServerFixture(store: store)
            defer { fixture.server.stop() }
            let id = try NotificationTypesTests.id(
                try await fixture.control("POST", "purchases", #"{"productId":"com.example.coins100"}"#))
            #expect(try await fixture.api("GET", "/inApps/v1/transactions/\(id)").status == 200)

            // The store stops recording (closed here; a lost database connection or a full disk do the same).
            try store.close()
            #expect(store.durabilityError != nil)

            let purchase = try await fixture.control("POST", "purchases", #"{"productId":"com.example.coins100"}"#)
            #expect(purchase.status == 503)
            let message = String(decoding: purchase.body, as: UTF8.self)
            #expect(message.contains("restarted"), "\(message)")
            #expect(try await fixture.control("GET", "store").status == 503)
            let lookup = try await fixture.api("GET", "/inApps/v1/transactions/\(id)")
            #expect(lookup.status == 500)
            #expect(String(decoding: lookup.body, as: UTF8.self).contains("5000000"))
            // Nothing the refused purchase would have made exists.
            #expect(store.allTransactions().count == 1)
        }

        @Test("An in-memory store is never refused")
        func inMemoryStoreAnswers() async throws {
            let store = SimulatedStore(lane: .manual)
            let fixture = try ServerFixture(store: store)
            defer { fixture.server.stop() }
            let purchase = try await fixture.control("POST", "purchases", #"{"productId":"com.example.coins100"}"#)
            #expect(purchase.status == 200)
        }
    }
#endif
