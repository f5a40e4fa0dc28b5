import Foundation
import Ledger
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

/// Retention Messaging as a fact of the app: its rules, and its place in the state file.
@Suite("Retention Messaging: the store's rules, kept in the state file")
struct RetentionMessagingStateTests {
    static let monthly = "com.example.premium.monthly"
    static let image = UUID(uuidString: "A1A1A1A1-0000-4000-8000-000000000001")!
    static let message = UUID(uuidString: "B2B2B2B2-0000-4000-8000-000000000001")!
    static let textOnly = UUID(uuidString: "B2B2B2B2-0000-4000-8000-000000000002")!
    static let request = UUID(uuidString: "C3C3C3C3-0000-4000-8000-000000000001")!

    static var withImage: RetentionMessaging.Message {
        RetentionMessaging.Message(
            identifier: message, header: "Stay", body: "Please.",
            image: RetentionMessaging.ImageReference(imageIdentifier: image, altText: "The app"))
    }

    static func flow(_ original: UInt64, _ choice: RetentionChoice?, locale: String = "en-US")
        -> RetentionMessagingChange
    {
        .openCancellationFlow(
            originalTransactionID: original, locale: locale, requestIdentifier: request, choice: choice,
            failure: choice == nil ? "TIMED_OUT" : nil)
    }

    @Test("What a customer is shown: a valid choice, else the default of the product and locale, else nothing")
    func whatIsShown() throws {
        let store = SimulatedStore(lane: .manual)
        let original = try store.buyProduct(Self.monthly, account: "alice").originalID
        let pro = try store.buyProduct("com.example.pro", account: "alice").id
        #expect(throws: StoreSimulatorError(.unknownTransaction, "")) {
            try store.changeRetentionMessaging(Self.flow(pro, nil))
        }
        try store.changeRetentionMessaging(.uploadImage(Self.image, size: .fullSize))
        try store.changeRetentionMessaging(.uploadMessage(Self.withImage))
        try store.changeRetentionMessaging(
            .uploadMessage(RetentionMessaging.Message(identifier: Self.textOnly, header: "Switch", body: "Save.")))
        #expect(
            store.retentionMessagingProblem(.deleteImage(Self.image)) == .imageInUse(Self.image, message: Self.message))
        #expect(
            store.retentionMessagingProblem(.uploadImage(Self.image, size: .bulletPoint))
                == .imageAlreadyExists(Self.image))

        try store.changeRetentionMessaging(Self.flow(original, nil))
        try store.changeRetentionMessaging(
            Self.flow(
                original,
                .alternateProduct(
                    messageIdentifier: Self.textOnly, productID: "com.example.premium.yearly")))
        try store.changeRetentionMessaging(Self.flow(original, .promotionalOffer(messageIdentifier: Self.message)))
        try store.changeRetentionMessaging(.review(Self.image, state: .rejected))
        try store.changeRetentionMessaging(Self.flow(original, .message(Self.message)))
        #expect(
            store.retentionMessagingProblem(
                .setDefaultMessage(productID: Self.monthly, locale: "en-US", messageIdentifier: Self.message))
                == .imageNotApproved(Self.image))
        try store.changeRetentionMessaging(.review(Self.image, state: .approved))
        try store.changeRetentionMessaging(
            .setDefaultMessage(productID: Self.monthly, locale: "en-US", messageIdentifier: Self.message))
        try store.changeRetentionMessaging(Self.flow(original, nil))
        try store.changeRetentionMessaging(Self.flow(original, nil, locale: "de-DE"))
        // Deleting the message deletes the default that showed it.
        try store.changeRetentionMessaging(.deleteMessage(Self.message))
        #expect(store.retentionMessaging.defaultMessages.isEmpty)

        let shown = store.retentionMessaging.shown
        #expect(shown.map(\.source) == [.none, .realtime, .none, .none, .defaultMessage, .none])
        #expect(shown[1].alternateProductID == "com.example.premium.yearly")
        #expect(
            shown[2].failure
                == "the message b2b2b2b2-0000-4000-8000-000000000001 has an image or bullet points: a switch-plan or "
                + "promotional-offer message is text only")
        #expect(
            shown[3].failure == "the message b2b2b2b2-0000-4000-8000-000000000001 or an image of it is not approved")
        #expect(shown[4].messageIdentifier == Self.message)
        #expect(shown.allSatisfy { $0.productID == Self.monthly && $0.originalTransactionID == original })
    }

    @Test("Retention Messaging is kept in the state file, compacted into its tables or in its journal")
    func keptInTheStateFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let store = try SimulatedStore(statePath: path, lane: .manual)
        let original = try store.buyProduct(Self.monthly, account: "alice").originalID
        try store.changeRetentionMessaging(.uploadImage(Self.image, size: .fullSize))
        try store.changeRetentionMessaging(.uploadMessage(Self.withImage))
        try store.compact()
        try store.changeRetentionMessaging(
            .setDefaultMessage(productID: Self.monthly, locale: "en-US", messageIdentifier: Self.message))
        try store.changeRetentionMessaging(.setRealtimeURL("http://127.0.0.1:9/r"))
        try store.changeRetentionMessaging(Self.flow(original, nil))
        let before = store.retentionMessaging
        try store.close()

        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.retentionMessaging == before)
        #expect(reopened.retentionMessaging.shown.first?.source == .defaultMessage)
        try reopened.compact()
        try reopened.changeRetentionMessaging(.setRealtimeURL(nil))
        try reopened.compact()
        try reopened.close()
        let again = try SimulatedStore(statePath: path, lane: .manual)
        #expect(again.retentionMessaging.realtimeURL == nil)
        #expect(again.retentionMessaging.messages == before.messages)
        try again.close()
    }

    @Test("What customers were shown is one row each, written once: a compaction writes only the new ones")
    func shownRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        var store = try SimulatedStore(statePath: path, lane: .manual)
        let original = try store.buyProduct(Self.monthly, account: "alice").originalID
        for _ in 0..<3 { try store.changeRetentionMessaging(Self.flow(original, nil)) }
        try store.compact()
        let firstRows = try Self.rows(at: path, store: &store)
        #expect(firstRows.shown.count == 3)
        #expect(!firstRows.retentionRow.contains("shown"), "the Retention Messaging row does not hold what was shown")
        for _ in 0..<2 { try store.changeRetentionMessaging(Self.flow(original, nil, locale: "fr-FR")) }
        try store.compact()
        let secondRows = try Self.rows(at: path, store: &store)
        #expect(secondRows.shown.count == 5)
        #expect(secondRows.shown.prefix(3) == firstRows.shown[...], "the rows written before are left as they were")
        #expect(store.retentionMessaging.shown.map(\.locale) == ["en-US", "en-US", "en-US", "fr-FR", "fr-FR"])
        try store.close()
    }

    /// Closes `store`, reads the rows of what was shown and the Retention Messaging row of its file, and opens it again.
    static func rows(at path: String, store: inout SimulatedStore) throws -> (shown: [[UInt8]], retentionRow: String) {
        try store.close()
        let database = try LedgerDatabase(path: path)
        let result = try database.read { txn in
            (
                try txn.all(in: StoreTables.Table.retentionShown.rawValue).map(\.value),
                String(
                    decoding: try txn.value(forKey: "retentionMessaging", in: StoreTables.Table.values.rawValue) ?? [],
                    as: UTF8.self)
            )
        }
        store = try SimulatedStore(statePath: path, lane: .manual)
        return result
    }
}
