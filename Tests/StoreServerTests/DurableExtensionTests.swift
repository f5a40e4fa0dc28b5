#if Server
    import Foundation
    import StoreModels
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

        /// Sends consumption information and a mass extension to a served store, and answers what the backend reads
        /// back: the status of the mass extension and the consumption information, as bodies.
        static func sendAndRead(_ fixture: ServerFixture) async throws -> (status: [UInt8], consumption: [UInt8]) {
            let coins = try NotificationTypesTests.id(
                try await fixture.control("POST", "purchases", #"{"productId":"com.example.coins100"}"#))
            _ = try await fixture.control("POST", "purchases", #"{"productId":"com.example.premium.monthly"}"#)
            let consumption =
                #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"UNDELIVERED_OTHER","consumptionPercentage":25000,"refundPreference":"DECLINE"}"#
            let sent = try await fixture.api(
                "PUT", "/inApps/v2/transactions/consumption/\(coins)", body: Array(consumption.utf8))
            #expect(sent.status == 202)
            let mass =
                #"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"m1","productId":"com.example.premium.monthly"}"#
            let extended = try await fixture.api(
                "POST", "/inApps/v1/subscriptions/extend/mass", body: Array(mass.utf8))
            #expect(extended.status == 200)
            return try await read(fixture, transaction: coins)
        }

        /// The status of mass extension `m1` and the consumption information of a transaction, as bodies.
        static func read(_ fixture: ServerFixture, transaction: String) async throws -> (
            status: [UInt8], consumption: [UInt8]
        ) {
            let status = try await fixture.api(
                "GET", "/inApps/v1/subscriptions/extend/mass/com.example.premium.monthly/m1")
            #expect(status.status == 200)
            let consumption = try await fixture.control("GET", "transactions/\(transaction)/consumption")
            #expect(consumption.status == 200)
            return (status.body, consumption.body)
        }

        @Test func consumptionAndAMassExtensionSurviveACompactionAndAReopen() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.file("state.sqlite")
            let store = try SimulatedStore(statePath: path, lane: .manual)
            let fixture = try ServerFixture(store: store)
            let before = try await Self.sendAndRead(fixture)
            let coins = try #require(store.allTransactions().first { $0.productID == "com.example.coins100" }?.id)
            let expiry = store.subscriptions().first?.expiresAt
            fixture.server.stop()
            try store.compact()  // the tables hold them from here: StoreSimulatorTests checks the journal is empty
            try store.close()

            let reopened = try SimulatedStore(statePath: path, lane: .manual)
            let again = try ServerFixture(store: reopened)
            defer { again.server.stop() }
            let after = try await Self.read(again, transaction: String(coins))
            #expect(String(decoding: after.status, as: UTF8.self) == String(decoding: before.status, as: UTF8.self))
            #expect(
                String(decoding: after.consumption, as: UTF8.self)
                    == String(decoding: before.consumption, as: UTF8.self))
            #expect(reopened.subscriptions().first?.expiresAt == expiry)
            // The same request identifier again does nothing more: the status stays the first one's.
            let mass =
                #"{"extendByDays":9,"extendReasonCode":1,"requestIdentifier":"m1","productId":"com.example.premium.monthly"}"#
            _ = try await again.api("POST", "/inApps/v1/subscriptions/extend/mass", body: Array(mass.utf8))
            #expect(reopened.subscriptions().first?.expiresAt == expiry)
            #expect(try await Self.read(again, transaction: String(coins)).status == before.status)
            try reopened.close()
        }
    }
#endif
