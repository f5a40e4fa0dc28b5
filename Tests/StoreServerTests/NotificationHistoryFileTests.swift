#if Server
    import Foundation
    import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    @Suite struct NotificationHistoryFileTests {
        /// The error a server refuses the history with, or nil when it starts.
        private static func refusal(_ path: String) -> StoreServerError? {
            do {
                let fixture = try ServerFixture(historyPath: path)
                fixture.server.stop()
                return nil
            } catch let error as StoreServerError {
                return error
            } catch {
                return nil
            }
        }

        @Test func aLastLineWithoutItsLineEndThatIsNoRecordIsRefusedAndTheFileKept() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.file("history.notifications")
            let garbage = Data(String(repeating: "garbage ", count: 1000).utf8)
            try garbage.write(to: URL(fileURLWithPath: path))
            let error = try #require(Self.refusal(path))
            #expect(error.code == .notificationStateFailed)
            #expect(error.detail.contains("\(path), line 1: not a notification record"), "\(error.detail)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
        }

        @Test func aLineLongerThanTheLimitIsRefusedAsSoonAsItPassesIt() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.file("history.notifications")
            // 2 MiB without a line end, after an empty first line.
            var long = Data("\n".utf8)
            long.append(Data(repeating: UInt8(ascii: "a"), count: 2 << 20))
            try long.write(to: URL(fileURLWithPath: path))
            let error = try #require(Self.refusal(path))
            #expect(error.detail.contains("\(path), line 2: longer than 1048576 bytes"), "\(error.detail)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == long)
        }

        @Test func aWholeRecordWithoutItsLineEndIsKept() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.file("history.notifications")
            let receiver = try TestReceiver()
            let store = SimulatedStore(lane: .manual)
            let first = try ServerFixture(notificationsURL: receiver.url, historyPath: path, store: store)
            try first.server.perform(.buyProduct(productID: "com.example.coins100", account: "alice"))
            try await bounded("the delivery") { await first.server.notifications.idle() }
            first.server.stop()
            var text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.hasSuffix("\n"))
            guard text.hasSuffix("\n") else { return }
            text.removeLast()
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let second = try ServerFixture(historyPath: path, store: store)
            defer { second.server.stop() }
            #expect(second.server.notifications.records.count == first.server.notifications.records.count)
            #expect(!second.server.notifications.records.isEmpty)
        }
    }
#endif
