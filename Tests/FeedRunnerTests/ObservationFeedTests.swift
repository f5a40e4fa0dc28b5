import FeedRunner
import Foundation
import Testing

/// A feed that must pass, and a wrong one that must fail at a line with a message.
struct ObservationCase: Sendable, CustomStringConvertible {
    var name: String
    var passing: String
    var failing: String
    var line: Int
    var message: String

    var description: String { name }
}

@Suite("What the app observes")
struct ObservationFeedTests {
    static let cases: [ObservationCase] = [
        ObservationCase(
            name: "receipt flag",
            passing: """
                buy com.example.premium.monthly as trial
                expect receipt trial is_trial_period true
                expect receipt trial is_in_intro_offer_period false
                expect receipt trial quantity 1
                expect receipt trial product_id com.example.premium.monthly
                """,
            failing: """
                buy com.example.pro as pro
                expect receipt pro is_trial_period true
                """,
            line: 2,
            message:
                "expected the receipt entry of pro (transaction 1000000000000001) to have is_trial_period true, it has false"
        ),
        ObservationCase(
            name: "receipt dates",
            passing: """
                buy com.example.premium.monthly as trial
                expect receipt trial purchase_date 2026-01-01
                expect receipt trial expires_date 2026-01-08
                expect receipt trial expires_date_ms 1767830400000
                expect receipt trial cancellation_date none
                refund trial
                expect receipt trial cancellation_date 2026-01-01T00:00:00Z
                """,
            failing: """
                buy com.example.premium.monthly as trial
                expect receipt trial expires_date 2026-02-01
                """,
            line: 2,
            message:
                "expected the receipt entry of trial (transaction 1000000000000001) to have expires_date 2026-02-01T00:00:00Z, it has 2026-01-08 00:00:00 Etc/GMT"
        ),
        ObservationCase(
            name: "receipt absent field",
            passing: """
                buy com.example.pro as pro
                expect receipt pro expires_date none
                expect receipt pro promotional_offer_id none
                """,
            failing: """
                buy com.example.pro as pro
                refund pro
                expect receipt pro cancellation_date none
                """,
            line: 3,
            message:
                "expected the receipt entry of pro (transaction 1000000000000001) without cancellation_date, it has cancellation_date 2026-01-01 00:00:00 Etc/GMT"
        ),
        ObservationCase(
            name: "receipt of the latest entry of a product, with its original and an offer",
            passing: """
                buy com.example.premium.monthly as first
                advance 1w
                expect receipt com.example.premium.monthly original_transaction_id first
                expect receipt com.example.premium.monthly is_trial_period false
                expect receipt com.example.premium.monthly 2
                expire com.example.premium.monthly
                advance 1 month
                buy com.example.premium.monthly offer com.example.premium.monthly.winback as winback
                expect receipt winback promotional_offer_id com.example.premium.monthly.winback
                expect receipt winback original_transaction_id first
                """,
            failing: """
                buy com.example.premium.monthly as first
                advance 1w
                expect receipt com.example.premium.monthly transaction_id first
                """,
            line: 3,
            message:
                "expected the receipt entry of com.example.premium.monthly (transaction 1000000000000002) to have transaction_id 1000000000000001 (first), it has 1000000000000002"
        ),
        ObservationCase(
            name: "receipt field of the Nth entry of a product",
            passing: """
                buy com.example.premium.monthly as first
                advance 1w
                advance 1 month
                expect receipt com.example.premium.monthly 3
                expect receipt com.example.premium.monthly 1 transaction_id first
                expect receipt com.example.premium.monthly 1 is_trial_period true
                expect receipt com.example.premium.monthly 2 expires_date 2026-02-08
                expect receipt com.example.premium.monthly 3 expires_date 2026-03-08
                expect receipt com.example.premium.monthly 3 original_transaction_id first
                """,
            failing: """
                buy com.example.premium.monthly as first
                advance 1w
                expect receipt com.example.premium.monthly 2 is_trial_period false
                expect receipt com.example.premium.monthly 3 is_trial_period false
                """,
            line: 4,
            message: "the receipt lists 2 entries of com.example.premium.monthly, not 3"
        ),
        ObservationCase(
            name: "no revocation",
            passing: """
                buy com.example.pro as pro
                buy com.example.coins100 as coins
                refund coins
                expect no revocation
                """,
            failing: """
                buy com.example.pro as pro
                expect no revocation com.example.pro
                refund pro
                expect no revocation
                """,
            line: 4,
            message: "expected no revocation; the app heard com.example.pro revoked"
        ),
        ObservationCase(
            name: "restore count",
            passing: """
                buy com.example.pro
                restore
                restore
                expect restore finished 2 times
                expect restore failed 0 times
                set error restore cloudServiceNetworkConnectionFailed
                restore
                expect restore failed 1 time
                """,
            failing: """
                restore
                expect restore finished 2 times
                """,
            line: 2,
            message: "expected restores to have finished 2 times, they finished 1 times"
        ),
        ObservationCase(
            name: "updates heard",
            passing: """
                buy com.example.pro as pro
                expect heard 2 updates for pro
                set ask-to-buy on
                buy com.example.season as season
                expect heard 2 updates for season
                approve season
                expect heard 3 updates for season
                """,
            failing: """
                buy com.example.pro as pro
                expect heard 1 update for pro
                """,
            line: 2,
            message: "expected the app to hear 1 updates for pro, it heard 2"
        ),
        ObservationCase(
            name: "order across transactions",
            passing: """
                set ask-to-buy on
                buy com.example.pro as first
                buy com.example.season as second
                approve second
                approve first
                expect order first deferred second deferred second purchased first purchased
                """,
            failing: """
                set ask-to-buy on
                buy com.example.pro as first
                buy com.example.season as second
                approve second
                approve first
                expect order first purchased second purchased
                """,
            line: 6,
            message:
                "expected second purchased after first purchased; the app heard it first (event log seq 9, first purchased at seq 13)"
        ),
        ObservationCase(
            name: "a restored transaction's identifier and original",
            passing: """
                buy com.example.pro as pro
                restore
                expect state com.example.pro restored
                expect original com.example.pro pro
                """,
            failing: """
                buy com.example.pro as pro
                expect original pro pro
                """,
            line: 2,
            message: "expected pro to have the original pro (1000000000000001); it has no original"
        ),
        ObservationCase(
            name: "finishing a deferred transaction",
            passing: """
                observer remove app
                observer add slow finish=manual
                set ask-to-buy on
                buy com.example.pro as pro
                finish pro
                expect exception pro deferred
                expect state pro deferred
                expect unfinished 1
                """,
            failing: """
                buy com.example.pro as pro
                expect exception pro
                """,
            line: 2,
            message: "expected finishing pro to raise StoreKit's exception; it raised none"
        ),
        ObservationCase(
            name: "an app that finishes everything",
            passing: """
                buy com.example.pro as pro
                expect no exception
                observer remove app
                observer add eager finish=all
                buy com.example.season as season
                expect exception season purchasing
                expect state season purchased
                expect unfinished 0
                """,
            failing: """
                observer remove app
                observer add eager finish=all
                buy com.example.season as season
                expect exception season deferred
                """,
            line: 4,
            message:
                "expected finishing season while it was deferred to raise StoreKit's exception; it raised \"Cannot finish a purchasing transaction\""
        ),
        ObservationCase(
            name: "no exception",
            passing: """
                buy com.example.pro as pro
                expect no exception
                """,
            failing: """
                observer remove app
                observer add eager finish=all
                buy com.example.pro as pro
                expect no exception
                """,
            line: 4,
            message: "expected no exception; finishing pro raised \"Cannot finish a purchasing transaction\""
        ),
        ObservationCase(
            name: "amounts charged",
            passing: """
                buy com.example.coins100 quantity 3 as coins
                expect paid coins 2.97
                buy com.example.premium.monthly as trial
                expect paid trial 0
                advance 1w
                expect paid com.example.premium.monthly 4.99
                expire com.example.premium.monthly
                advance 1 month
                buy com.example.premium.monthly offer com.example.premium.monthly.winback as winback
                expect paid winback 1.99
                advance 1 month
                expect paid com.example.premium.monthly 1.99
                set ask-to-buy on
                buy com.example.pro as pro
                expect paid pro 0
                """,
            failing: """
                buy com.example.pro as pro
                expect paid pro 4.99
                """,
            line: 2,
            message: "expected pro to have cost 4.99, it cost 9.99"
        ),
        ObservationCase(
            name: "a restored transaction is not charged",
            passing: """
                buy com.example.pro as pro
                restore
                expect paid com.example.pro 0
                expect paid pro 9.99
                """,
            failing: """
                buy com.example.pro as pro
                restore
                expect paid com.example.pro 9.99
                """,
            line: 3,
            message: "expected com.example.pro to have cost 9.99, it cost 0"
        ),
        ObservationCase(
            name: "Ask to Buy for one account",
            passing: """
                user child
                set account-ask-to-buy on
                buy com.example.pro as kid
                expect states kid purchasing deferred
                device ipad
                promote com.example.season as promo
                expect states promo purchasing deferred
                user parent
                buy com.example.pro as grown
                expect states grown purchasing purchased
                user child
                set account-ask-to-buy off
                buy com.example.coins100 as coins
                expect state coins purchased
                """,
            failing: """
                user child
                set account-ask-to-buy on
                user parent
                buy com.example.pro as grown
                expect state grown deferred
                """,
            line: 5,
            message: "expected state deferred, observed purchased"
        ),
        ObservationCase(
            name: "the delegate asked to show a price-consent sheet",
            passing: """
                delegate price-consent yes
                set price-consent decline
                buy com.example.premium.monthly as sub
                expect delegate not-asked-price-consent
                price-increase sub request
                expect delegate asked-price-consent
                advance 8d
                expect phase com.example.premium.monthly expired
                """,
            failing: """
                delegate price-consent yes
                buy com.example.premium.monthly as sub
                expect delegate asked-price-consent
                """,
            line: 3,
            message:
                "expected the delegate of user default asked whether to show a price-consent sheet; it was not asked since the app started"
        ),
        ObservationCase(
            name: "the delegate not asked while the app has no observer",
            passing: """
                delegate price-consent no
                buy com.example.premium.monthly as sub
                observer remove app
                price-increase sub request
                expect delegate not-asked-price-consent
                observer add app
                expect delegate asked-price-consent
                """,
            failing: """
                delegate price-consent no
                buy com.example.premium.monthly as sub
                price-increase sub request
                expect delegate not-asked-price-consent
                """,
            line: 4,
            message:
                "expected the delegate of user default not asked whether to show a price-consent sheet; it was asked once since the app started"
        ),
        ObservationCase(
            name: "a deferred price-consent sheet shown by the app",
            passing: """
                delegate price-consent no
                set price-consent consent
                buy com.example.premium.monthly as sub
                price-increase sub request
                expect delegate asked-price-consent
                show-price-consent
                advance 8d
                expect phase com.example.premium.monthly active
                """,
            failing: """
                delegate price-consent no
                set price-consent consent
                buy com.example.premium.monthly as sub
                price-increase sub request
                advance 8d
                expect phase com.example.premium.monthly active
                """,
            line: 6,
            message: "expected com.example.premium.monthly active, it is expired"
        ),
        ObservationCase(
            name: "payments allowed for one account",
            passing: """
                user child
                set account-payments off
                buy com.example.pro as kid
                expect error kid paymentNotAllowed
                user parent
                buy com.example.pro as grown
                expect state grown purchased
                set payments-allowed off
                user child
                set account-payments on
                buy com.example.pro as allowed
                expect state allowed purchased
                """,
            failing: """
                user child
                set account-payments off
                user parent
                buy com.example.pro as grown
                expect error grown paymentNotAllowed
                """,
            line: 5,
            message: "expected error paymentNotAllowed, observed none"
        ),
        ObservationCase(
            name: "devices of one account",
            passing: """
                buy com.example.pro as pro
                device ipad
                expect unfinished 0
                expect owned com.example.pro
                restore
                expect state com.example.pro restored
                expect original com.example.pro pro
                expect receipt verifies
                expect receipt pro cancellation_date none
                device main
                refund pro
                expect revoked com.example.pro
                device ipad
                expect revoked com.example.pro
                expect receipt pro cancellation_date 2026-01-01
                """,
            failing: """
                buy com.example.pro as pro
                device ipad
                expect state com.example.pro purchased
                """,
            line: 3,
            message: "expected state purchased, observed none"
        ),
        ObservationCase(
            name: "a restore on a second device ends on that device",
            passing: """
                buy com.example.pro as pro
                device ipad
                restore
                expect restore finished
                expect restore finished 1 times
                """,
            failing: """
                buy com.example.pro as pro
                device ipad
                restore
                device main
                expect restore finished
                """,
            line: 5,
            message: "expected the restore to finish; it has not ended"
        ),
        ObservationCase(
            name: "a restore that fails on a second device",
            passing: """
                set account-payments off
                device ipad
                restore
                expect restore failed paymentNotAllowed
                """,
            failing: """
                set account-payments off
                device ipad
                restore
                device main
                expect restore failed
                """,
            line: 5,
            message: "expected the restore to fail; it has not ended"
        ),
        ObservationCase(
            name: "unfinished transactions of a second device",
            passing: """
                device ipad
                observer remove app
                observer add slow finish=manual
                buy com.example.pro as pro
                expect unfinished 1
                device main
                expect unfinished 0
                """,
            failing: """
                device ipad
                observer remove app
                observer add slow finish=manual
                buy com.example.pro as pro
                device main
                expect unfinished 1
                """,
            line: 6,
            message: "expected 1 unfinished transactions, found 0"
        ),
        ObservationCase(
            name: "a revocation is heard on the device whose app observes it",
            passing: """
                buy com.example.pro as pro
                device ipad
                observer remove app
                device main
                refund pro
                expect revoked com.example.pro
                device ipad
                expect no revocation
                """,
            failing: """
                buy com.example.pro as pro
                device ipad
                observer remove app
                device main
                refund pro
                device ipad
                expect revoked com.example.pro
                """,
            line: 7,
            message: "expected com.example.pro revoked; the app heard no revocation"
        ),
        ObservationCase(
            name: "renewals reach every device",
            passing: """
                device iphone
                buy com.example.premium.monthly as monthly
                device ipad
                advance 1w
                expect state com.example.premium.monthly purchased
                expect heard 1 update for com.example.premium.monthly
                device iphone
                expect heard 1 update for com.example.premium.monthly
                expect heard 2 updates for monthly
                user alice
                device ipad
                expect heard 0 updates for com.example.premium.monthly
                """,
            failing: """
                buy com.example.premium.monthly as monthly
                device ipad
                advance 1w
                expect heard 2 updates for com.example.premium.monthly
                """,
            line: 4,
            message: "expected the app to hear 2 updates for com.example.premium.monthly, it heard 1"
        ),
        ObservationCase(
            name: "an App Store promoted purchase, added or not",
            passing: """
                promote com.example.pro as promo
                expect states promo purchasing purchased
                expect owned com.example.pro
                observer remove app
                observer add picky store-payments=no
                promote com.example.season as declined
                expect heard 0 updates for com.example.season
                expect not-owned com.example.season
                """,
            failing: """
                observer remove app
                observer add picky store-payments=no
                promote com.example.pro as promo
                expect owned com.example.pro
                """,
            line: 4,
            message: "expected com.example.pro owned, it is not owned"
        ),
        ObservationCase(
            name: "the queue delegate and a storefront change during a purchase",
            passing: """
                delegate should-continue no
                next com.example.pro changes-storefront GBR
                buy com.example.pro as pro
                expect delegate asked pro
                expect error pro storeProductNotAvailable
                delegate should-continue yes
                next any changes-storefront USA
                buy com.example.season as season
                expect delegate asked season
                expect state season purchased
                delegate remove
                next any changes-storefront GBR
                buy com.example.coins100 as coins
                expect delegate not-asked coins
                expect state coins purchased
                """,
            failing: """
                delegate should-continue no
                buy com.example.pro as pro
                expect delegate asked pro
                """,
            line: 3,
            message: "expected the delegate asked to continue pro in a new storefront; it was not asked"
        ),
    ]

    @Test("Each observation passes on a right scenario and fails on a wrong one at its line", arguments: cases)
    func observation(_ item: ObservationCase) throws {
        let passing = try FeedRun.run(item.passing, file: "right.feed")
        #expect(passing.passed, "\(passing.failure?.description ?? "")")
        let failing = try FeedRun.run(item.failing, file: "wrong.feed")
        let failure = try #require(failing.failure)
        #expect(failure.line == item.line)
        #expect(failure.message == item.message)
    }

    @Test("Callbacks on a second device carry its name in the event log; the first device's do not")
    func deviceInLog() throws {
        let log = MemoryEventLog()
        let feed = """
            buy com.example.pro as pro
            device ipad
            restore
            """
        let result = try FeedRun.run(feed, file: "devices.feed", log: log)
        #expect(result.passed)
        let updates = log.lines.filter { $0.contains("\"event\":\"updated\"") }
        #expect(updates.count == 3)
        #expect(updates.prefix(2).allSatisfy { !$0.contains("\"device\"") })
        #expect(updates[2].contains("\"user\":\"default\",\"device\":\"ipad\",\"observer\":\"app\""))
        #expect(updates[2].contains("\"state\":\"restored\""))
    }

    @Test("A second device, its observers and its delegate come back after a restart, on a state file as in memory")
    func devicesAcrossRestart() throws {
        let feed = """
            device ipad
            observer remove app
            observer add slow finish=manual
            delegate should-continue no
            buy com.example.pro as pro
            restart
            expect states pro purchasing purchased purchased
            finish pro
            expect removed pro
            device main
            expect unfinished 0
            device ipad
            next any changes-storefront GBR
            buy com.example.season as season
            expect delegate asked season
            expect error season storeProductNotAvailable
            """
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feed-devices-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let memory = MemoryEventLog()
        let inMemory = try FeedRun.run(feed, file: "devices.feed", log: memory)
        #expect(inMemory.passed, "\(inMemory.failure?.description ?? "")")
        let durable = MemoryEventLog()
        let onFile = try FeedRun.run(
            feed, file: "devices.feed", log: durable, statePath: directory.appendingPathComponent("state").path)
        #expect(onFile.passed, "\(onFile.failure?.description ?? "")")
        #expect(durable.text == memory.text)
    }

    @Test("Finishing a deferred transaction is an exception in the log, not a failed step")
    func exceptionInLog() throws {
        let log = MemoryEventLog()
        let feed = """
            set ask-to-buy on
            buy com.example.pro as pro
            finish pro
            """
        let result = try FeedRun.run(feed, file: "finish.feed", log: log)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        let exceptions = log.lines.filter { $0.contains("\"event\":\"exception\"") }
        #expect(exceptions.count == 1)
        #expect(
            exceptions.first?.hasSuffix(
                ",\"user\":\"default\",\"observer\":null,\"handle\":\"pro\",\"product\":\"com.example.pro\",\"message\":\"Cannot finish a deferred transaction\"}"
            )
                == true)
    }

    @Test(
        "Malformed observations are reported with their place",
        arguments: [
            ("buy com.example.pro as t\nexpect receipt t is_trail_period true", FeedError.Code.invalidValue, 2, 18),
            ("buy com.example.pro as t\nexpect receipt t is_trial_period maybe", .invalidValue, 2, 34),
            ("buy com.example.pro as t\nexpect receipt t expires_date soon", .invalidValue, 2, 31),
            ("buy com.example.pro as t\nexpect receipt t quantity -1", .invalidValue, 2, 27),
            ("expect receipt nobody is_trial_period true", .unknownHandle, 1, 16),
            ("buy com.example.pro as t\nexpect receipt t original_transaction_id nobody", .unknownHandle, 2, 42),
            ("expect receipt com.example.pro 0 is_trial_period true", .outOfBounds, 1, 32),
            ("expect receipt com.example.pro 1 is_trial_period", .invalidValue, 1, 32),
            ("expect no refunds", .invalidValue, 1, 11),
            ("expect no revocation com.example.nothing", .unknownProduct, 1, 22),
            ("buy com.example.pro as t\nexpect heard 2 updatez for t", .wrongArguments, 2, 16),
            ("buy com.example.pro as t\nexpect heard 2 updates t", .wrongArguments, 2, 24),
            ("buy com.example.pro as t\nexpect order t purchased", .wrongArguments, 2, 25),
            ("buy com.example.pro as t\nexpect order t purchased t purchasd", .invalidValue, 2, 28),
            ("buy com.example.pro as t\nexpect exception t purchased", .invalidValue, 2, 20),
            ("buy com.example.pro as t\nexpect paid t 9,99", .invalidValue, 2, 15),
            ("buy com.example.pro as t\nexpect paid t -1", .invalidValue, 2, 15),
            ("expect restore finished many times", .invalidValue, 1, 25),
            ("device", .wrongArguments, 1, 7),
            ("set account-ask-to-buy maybe", .invalidValue, 1, 24),
            ("set account-payments maybe", .invalidValue, 1, 22),
            ("set price-consent maybe", .invalidValue, 1, 19),
            ("delegate price-consent maybe", .invalidValue, 1, 24),
            ("expect delegate asked-price-consent now", .wrongArguments, 1, 37),
            ("promote com.example.pro to t", .wrongArguments, 1, 25),
            ("promote com.example.nothing", .unknownProduct, 1, 9),
            ("promote com.example.pro as t\nbuy com.example.pro as t", .unknownHandle, 2, 24),
            ("observer add x store-payments=maybe", .invalidValue, 1, 16),
            ("delegate should-continue maybe", .invalidValue, 1, 26),
            ("delegate shout", .invalidValue, 1, 10),
            ("next any changes-storefront UK", .invalidValue, 1, 29),
            ("buy com.example.pro as t\nexpect delegate told t", .invalidValue, 2, 17),
        ]
    )
    func malformed(text: String, code: FeedError.Code, line: Int, column: Int) {
        do {
            _ = try FeedRun.run(text, file: "bad.feed")
            Issue.record("\"\(text)\" was accepted")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.line == line, "\(error)")
            #expect(error.column == column, "\(error)")
            #expect(!error.hint.isEmpty)
        }
    }

    @Test("Every observer of the device is asked about a promoted purchase, in order, and each answer is logged")
    func storePaymentAnswers() throws {
        let log = MemoryEventLog()
        let feed = """
            observer add picky store-payments=no
            promote com.example.pro as promo
            expect state promo purchased
            """
        let result = try FeedRun.run(feed, file: "promote.feed", log: log)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        let asked = log.lines.filter { $0.contains("\"event\":\"shouldAddStorePayment\"") }
        #expect(asked.count == 2)
        #expect(
            asked.first?.hasSuffix(",\"observer\":\"app\",\"product\":\"com.example.pro\",\"answer\":true}") == true)
        #expect(
            asked.last?.hasSuffix(",\"observer\":\"picky\",\"product\":\"com.example.pro\",\"answer\":false}") == true)
    }

    @Test("A receipt entry position below 1 is refused with a hint to write 1 for the first entry, even when negative")
    func receiptEntryPosition() {
        for position in ["0", "-1"] {
            do {
                _ = try FeedRun.run(
                    "buy com.example.pro as t\nexpect receipt com.example.pro \(position) quantity 1", file: "bad.feed")
                Issue.record("position \(position) was accepted")
            } catch {
                #expect(error.code == .outOfBounds, "\(error)")
                #expect(error.hint == "write 1 for the product's first entry", "\(error)")
            }
        }
        do {
            _ = try FeedRun.run("expect unfinished -1", file: "bad.feed")
            Issue.record("a negative count was accepted")
        } catch {
            #expect(error.hint == "write 0 or more", "\(error)")
        }
    }

    @Test("A misspelt receipt field gets the closest names")
    func receiptFieldSuggestion() {
        do {
            _ = try FeedRun.run("buy com.example.pro as t\nexpect receipt t is_trail_period true", file: "bad.feed")
            Issue.record("accepted")
        } catch {
            #expect(error.hint == "did you mean is_trial_period?")
        }
    }
}
