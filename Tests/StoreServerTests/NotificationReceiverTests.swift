#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
    import Synchronization
    import TestSupport
    import Testing

    @Suite struct NotificationReceiverTests {
        static func receiver(bundleID: String = "com.example.app") throws -> NotificationReceiver {
            try NotificationReceiver(
                root: .openStoreKitJWSTestRoot, bundleID: bundleID, environment: .sandbox)
        }

        @Test func keepsWhatTheServerSentInOrderEachVerifiedWithItsTransaction() async throws {
            let receiver = try Self.receiver()
            defer { receiver.stop() }
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let attempted = Attempted()
            fixture.server.notifications.observeAttempts { record in attempted.records.withLock { $0.append(record) } }
            let record = try #require(
                try fixture.server.perform(.buyProduct(productID: "com.example.premium.monthly", account: "alice"))
                    .transaction)
            try fixture.server.perform(.advance(to: fixture.store.now.addingTimeInterval(7 * 86_400)))
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }
            let received = receiver.received
            #expect(received.map(\.type) == ["SUBSCRIBED", "DID_RENEW"])
            #expect(received.map(\.subtype) == ["INITIAL_BUY", nil])
            #expect(received.allSatisfy { $0.verificationFailure == nil })
            #expect(received.first?.transactionID == record.id)
            #expect(received.last?.originalTransactionID == record.id)
            #expect(received.last?.transactionID != record.id)
            #expect(received.allSatisfy { $0.productID == "com.example.premium.monthly" && $0.status == 1 })
            #expect(fixture.server.notifications.records.allSatisfy { $0.isDelivered })
            let told = attempted.records.withLock { $0 }
            #expect(told.map(\.notificationType) == ["SUBSCRIBED", "DID_RENEW"])
            #expect(told.allSatisfy { $0.attempts.map(\.sendAttemptResult) == ["SUCCESS"] })
        }

        /// The records a sender's attempt observer was told of.
        final class Attempted: Sendable {
            let records = Mutex<[NotificationRecord]>([])
        }

        @Test func refusesANotificationForAnotherAppWith400AndSaysWhy() async throws {
            let receiver = try Self.receiver(bundleID: "com.example.other")
            defer { receiver.stop() }
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            try fixture.server.perform(.buyProduct(productID: "com.example.pro", account: "alice"))
            try await bounded("the refused delivery") { await fixture.server.notifications.idle() }
            let received = try #require(receiver.received.first)
            #expect(received.verificationFailure?.contains("com.example.other") == true)
            let record = try #require(fixture.server.notifications.records.first)
            #expect(record.attempts.map(\.sendAttemptResult) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"])
        }

        @Test func refusesAPayloadSignedByAnotherIdentityAndABodyThatIsNotOne() async throws {
            let receiver = try Self.receiver()
            defer { receiver.stop() }
            let payload = #"{"notificationType":"TEST","signedDate":1,"environment":"Xcode"}"#
            let foreign = try JWSSigner(identity: .openStoreKitXcode).sign(payloadJSON: Array(payload.utf8))
            let read = receiver.read(signedPayload: foreign)
            #expect(read.verificationFailure?.hasPrefix("signedPayload:") == true)
            let client = TestHTTPClient(port: try #require(receiver.url.port.map { UInt16($0) }))
            let body = Array(#"{"signedPayload":"\#(foreign)"}"#.utf8)
            let refused = try await client.send("POST", NotificationReceiver.path, body: body)
            #expect(refused.status == 400)
            let garbage = try await client.send("POST", NotificationReceiver.path, body: Array("not json".utf8))
            #expect(garbage.status == 400)
            #expect(receiver.received.count == 2)
            #expect(receiver.received.first?.verificationFailure?.hasPrefix("signedPayload:") == true)
            #expect(receiver.received.last?.verificationFailure?.contains("not a JSON object") == true)
        }
    }
#endif
