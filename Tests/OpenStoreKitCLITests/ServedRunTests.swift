import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

#if Server
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
#endif

@Suite(.timeLimit(.minutes(3))) struct ServedRunTests {
    /// Runs the command in this process on a thread of its own, as the executable runs it on its main thread: a
    /// served run blocks its thread while it waits (bounded) for the server's notifications, which are sent from Swift
    /// concurrency's shared threads, so it must not hold one of them.
    static func run(_ arguments: [String]) async -> (code: Int32, out: String, err: String) {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: runInProcess(arguments)) }.start()
        }
    }

    /// A feed file in a fresh directory.
    static func feed(_ text: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("served.feed")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    #if Server
        /// Apple's notifications for the life of Examples/Server/lifecycle.feed, in order.
        static let lifecycle = [
            "SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW", "DID_RENEW/BILLING_RECOVERY",
            "DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED", "DID_RENEW/BILLING_RECOVERY", "REFUND",
            "SUBSCRIBED/RESUBSCRIBE", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY",
        ]

        static var lifecycleFeed: String { RepositoryFiles.example("Server/lifecycle.feed").path }

        /// The `notification` events of an event log file, decoded.
        static func notificationEvents(_ path: String) throws -> [[String: Any]] {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            return try text.split(separator: "\n").compactMap { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return object?["event"] as? String == "notification" ? object : nil
            }
        }

        static func kind(_ event: [String: Any]) -> String {
            let type = event["type"] as? String ?? ""
            return (event["subtype"] as? String).map { "\(type)/\($0)" } ?? type
        }

        @Test func theLifecycleFeedGetsApplesNotificationsInOrderEachVerifiedByTheBuiltInReceiver() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let log = directory.file("log.jsonl")
            let run = await Self.run(["run", Self.lifecycleFeed, "--serve", "--port", "0", "--log", log])
            #expect(run.code == 0, "\(run.err)")
            let first = run.out.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.range(of: #"^http://127\.0\.0\.1:[0-9]+$"#, options: .regularExpression) != nil)
            #expect(run.err.contains("PASS"))
            let events = try Self.notificationEvents(log)
            #expect(events.map(Self.kind) == Self.lifecycle)
            #expect(events.allSatisfy { $0["verified"] as? Bool == true && $0["accepted"] as? Bool == true })
        }

        @Test func refundRequestsReversalsPlanChangesAndOffersGetApplesNotificationsInOrder() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let log = directory.file("log.jsonl")
            let feed = RepositoryFiles.example("Server/refunds-and-plans.feed").path
            let run = await Self.run(["run", feed, "--serve", "--port", "0", "--log", log])
            #expect(run.code == 0, "\(run.err)")
            let events = try Self.notificationEvents(log)
            #expect(
                events.map(Self.kind) == [
                    "ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "REFUND", "ONE_TIME_CHARGE", "CONSUMPTION_REQUEST",
                    "REFUND_DECLINED", "REFUND", "REFUND_REVERSED", "SUBSCRIBED/INITIAL_BUY", "DID_RENEW",
                    "DID_CHANGE_RENEWAL_PREF/UPGRADE", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE", "PRICE_INCREASE/PENDING",
                    "PRICE_INCREASE/ACCEPTED", "DID_RENEW", "OFFER_REDEEMED", "DID_RENEW",
                ])
            #expect(events.allSatisfy { $0["verified"] as? Bool == true && $0["accepted"] as? Bool == true })
        }

        @Test func theFamilyFeedGetsEachMembersSharedTransactionAndItsRevocation() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let log = directory.file("log.jsonl")
            let feed = RepositoryFiles.example("Server/family.feed").path
            let run = await Self.run(["run", feed, "--serve", "--port", "0", "--log", log])
            #expect(run.code == 0, "\(run.err)")
            #expect(run.err.contains("PASS"))
            let events = try Self.notificationEvents(log)
            #expect(
                events.map(Self.kind) == [
                    "ONE_TIME_CHARGE", "ONE_TIME_CHARGE", "REFUND", "REVOKE", "ONE_TIME_CHARGE", "ONE_TIME_CHARGE",
                    "REVOKE",
                ])
            #expect(events.allSatisfy { $0["verified"] as? Bool == true && $0["accepted"] as? Bool == true })
        }

        @Test func aFailedExpectationNamesItsLineAndWhatArrivedInstead() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let feed = try Self.feed(
                """
                buy com.example.premium.monthly as monthly
                expect notification DID_RENEW for monthly
                """, in: directory)
            let run = await Self.run(["run", feed, "--serve", "--port", "0"])
            #expect(run.code == 1)
            #expect(run.err.contains("line 2: expect notification DID_RENEW for monthly"))
            #expect(run.err.contains("the next notification is SUBSCRIBED/INITIAL_BUY for com.example.premium.monthly"))
        }

        @Test func everyUsersAndDevicesChangesAreNotifiedInStoreOrderAcrossSteps() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let feed = try Self.feed(
                """
                buy com.example.pro as pro
                user bob
                device ipad
                buy com.example.premium.monthly as bobs
                user default
                buy-elsewhere com.example.coins100
                advance 1w
                expect notification ONE_TIME_CHARGE for pro
                expect notification SUBSCRIBED INITIAL_BUY for bobs status 1
                expect notification ONE_TIME_CHARGE product com.example.coins100
                expect notification DID_RENEW for bobs
                expect no notification
                expect notifications 4
                """, in: directory)
            let run = await Self.run(["run", feed, "--serve", "--port", "0"])
            #expect(run.code == 0, "\(run.err)")
        }

        @Test func withANotificationsURLTheFeedChecksWhatWasSentThereAndTheReceiverGotItAll() async throws {
            let receiver = try NotificationReceiver(
                root: .openStoreKitJWSTestRoot, bundleID: "com.example.app", environment: .sandbox)
            defer { receiver.stop() }
            let run = await Self.run([
                "run", Self.lifecycleFeed, "--serve", "--port", "0", "--notifications-url", receiver.url.absoluteString,
            ])
            #expect(run.code == 0, "\(run.err)")
            let received = receiver.received
            #expect(received.map { item in item.subtype.map { "\(item.type)/\($0)" } ?? item.type } == Self.lifecycle)
            #expect(received.allSatisfy { $0.verificationFailure == nil })
        }

        @Test func notificationsPastTheHistoryWindowAreStillExpectedInOrder() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let receiver = try NotificationReceiver(
                root: .openStoreKitJWSTestRoot, bundleID: "com.example.app", environment: .sandbox)
            defer { receiver.stop() }
            let feed = try Self.feed(
                """
                buy com.example.pro as pro
                advance 200d
                buy com.example.coins100
                advance 200d
                expect notification ONE_TIME_CHARGE for pro
                expect notification ONE_TIME_CHARGE product com.example.coins100
                expect no notification
                """, in: directory)
            let run = await Self.run([
                "run", feed, "--serve", "--port", "0", "--notifications-url", receiver.url.absoluteString,
            ])
            #expect(run.code == 0, "\(run.err)")
        }

        @Test func aNotificationTheReceiverNeverGotFailsItsExpectationWithTheAttempts() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            // A port bound without listening: connections are refused, and no other test's server can take it.
            let (bound, port) = try LoopbackListener.open(listening: false)
            defer { close(bound) }
            let url = "http://127.0.0.1:\(port)/notifications"
            let feed = try Self.feed(
                """
                buy com.example.pro as pro
                expect notification ONE_TIME_CHARGE for pro
                """, in: directory)
            let run = await Self.run(["run", feed, "--serve", "--port", "0", "--notifications-url", url])
            #expect(run.code == 1)
            #expect(run.err.contains("the receiver did not accept it (attempts: NO_RESPONSE)"))
        }

        @Test func aPortAlreadyTakenIsAnErrorBeforeAnyStep() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let taken = try NotificationReceiver(
                root: .openStoreKitJWSTestRoot, bundleID: "com.example.app", environment: .sandbox)
            defer { taken.stop() }
            let port = try #require(taken.url.port)
            let feed = try Self.feed("buy com.example.pro", in: directory)
            let run = await Self.run(["run", feed, "--serve", "--port", String(port)])
            #expect(run.code == 2)
            #expect(run.err.contains("ERROR \(feed): \(feed): error: cannot listen on 127.0.0.1 port \(port)"))
            #expect(run.out.isEmpty)
        }

        @Test func aServedRunOnAStateFileLeavesTheStoreAndTheNotificationHistoryCommitted() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let state = directory.file("state.sqlite")
            let feed = try Self.feed(
                """
                buy com.example.pro as pro
                restart
                buy com.example.coins100
                expect notification ONE_TIME_CHARGE for pro
                expect notification ONE_TIME_CHARGE product com.example.coins100
                """, in: directory)
            let run = await Self.run(["run", feed, "--serve", "--port", "0", "--state", state])
            #expect(run.code == 0, "\(run.err)")
            let history = try String(contentsOfFile: state + ".notifications", encoding: .utf8)
            #expect(history.split(separator: "\n").count >= 2)
            let reopened = try SimulatedStore(statePath: state, lane: .manual)
            defer { try? reopened.close() }
            #expect(reopened.allTransactions().map(\.productID) == ["com.example.pro", "com.example.coins100"])
        }
        @Test func aRefusedNotificationHistoryLeavesNoStateFileBehind() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let state = directory.file("state.sqlite")
            try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: state + ".notifications"))
            let feed = try Self.feed("buy com.example.pro\n", in: directory)
            let run = await Self.run(["run", feed, "--serve", "--port", "0", "--state", state])
            #expect(run.code == 2)
            #expect(run.err.contains("\(state).notifications, line 1: not a notification record"), "\(run.err)")
            #expect(!FileManager.default.fileExists(atPath: state))
        }

        @Test func keepServingAnswersTheAPIAfterTheFeedUntilSIGTERMThenCommitsAndExitsWithTheVerdict() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let state = directory.file("state.sqlite")
            let feed = try Self.feed(
                "buy com.example.pro as pro\nexpect notification ONE_TIME_CHARGE for pro", in: directory)
            let child = try ChildProcess(
                [
                    "run", feed, "--serve", "--keep-serving", "--port", "0", "--state", state, "--control-token",
                    "secret",
                ], errorLog: directory.file("stderr"), mergingErrors: true)
            let base = try #require(child.readLine(within: 60))
            #expect(base.hasPrefix("http://127.0.0.1:"))
            var ended = false
            for _ in 0..<5 {
                guard let line = child.readLine(within: 60) else { break }
                if line.contains("the feed ended; serving \(base) until SIGINT or SIGTERM") {
                    ended = true
                    break
                }
            }
            #expect(ended)
            // swift-format-ignore: NeverForceUnwrap
            var request = URLRequest(url: URL(string: base + "/openstorekit/v1/purchases")!)
            request.httpMethod = "POST"
            request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
            request.httpBody = Data(#"{"productId":"com.example.coins100"}"#.utf8)
            request.timeoutInterval = 30
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            kill(child.pid, SIGTERM)
            #expect(child.readLine(within: 60)?.hasPrefix("PASS") == true)
            #expect(child.waitForExit() == 0)
            let reopened = try SimulatedStore(statePath: state, lane: .manual)
            defer { try? reopened.close() }
            #expect(reopened.allTransactions().map(\.productID) == ["com.example.pro", "com.example.coins100"])
        }

        @Test func keepServingStopsCleanlyOnSIGTERMSentTheMomentTheURLShows() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let feed = try Self.feed(
                "buy com.example.pro as pro\nexpect notification ONE_TIME_CHARGE for pro", in: directory)
            for trial in 0..<4 {
                let state = directory.file("state\(trial).sqlite")
                let child = try ChildProcess(
                    ["run", feed, "--serve", "--keep-serving", "--port", "0", "--state", state],
                    errorLog: directory.file("stderr\(trial)"), mergingErrors: true)
                let base = try #require(child.readLine(within: 60))
                #expect(base.hasPrefix("http://127.0.0.1:"))
                kill(child.pid, SIGTERM)
                // The feed runs to its end, then the server stops: the verdict, and the feed's status.
                var verdict: String?
                for _ in 0..<5 {
                    guard let line = child.readLine(within: 60) else { break }
                    if line.hasPrefix("PASS") || line.hasPrefix("FAIL") {
                        verdict = line
                        break
                    }
                }
                #expect(verdict?.hasPrefix("PASS") == true, "trial \(trial)")
                #expect(child.waitForExit() == 0, "trial \(trial)")
            }
        }
    #else
        @Test func withoutTheTraitServeSaysWhatToInstallAndHowToRebuild() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let feed = try Self.feed("buy com.example.pro", in: directory)
            let run = await Self.run(["run", feed, "--serve"])
            #expect(run.code == 2)
            #expect(run.err.contains("apt-get install -y libmicrohttpd-dev"))
            #expect(run.err.contains("swift build --traits Server"))
            #expect(run.out.isEmpty)
        }
    #endif

    @Test func serveOptionsNeedServeAndServeNeedsOneFeed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let feed = try Self.feed("buy com.example.pro", in: directory)
        let port = await Self.run(["run", feed, "--port", "0"])
        #expect(port.code == 2)
        #expect(port.err.contains("--port applies to a served run; add --serve"))
        #if Server
            let two = await Self.run(["run", feed, feed, "--serve"])
            #expect(two.code == 2)
            #expect(two.err.contains("give one feed file"))
        #endif
    }

    @Test func aFeedExpectingNotificationsWithoutServeIsAnErrorNamingItsLine() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let feed = try Self.feed("buy com.example.pro\nexpect notification ONE_TIME_CHARGE", in: directory)
        let run = await Self.run(["run", feed])
        #expect(run.code == 2)
        #expect(run.err.contains("served.feed:2:8: error: notifications are sent only while the store is served"))
        #expect(run.err.contains("--serve"))
    }
}
