import Foundation
import ReceiptKit
import StoreModels
import StoreSimulator

extension FeedExpectationChecker {
    /// Checks an expectation of what the app observed beyond one transaction's states; returns a failure message,
    /// or nil.
    func checkObservation(_ expectation: FeedStep.Expectation) -> String? {
        let device = world.devices[world.currentSeat]
        switch expectation {
        case .noRevocation(let product):
            let revoked = device?.revoked ?? []
            if let product {
                return revoked.contains(product) ? "expected no revocation of \(product); the app heard one" : nil
            }
            return revoked.isEmpty
                ? nil : "expected no revocation; the app heard \(revoked.sorted().joined(separator: ", ")) revoked"
        case .restoreCount(let finished, let count):
            let seen = (finished ? device?.restoresFinished : device?.restoresFailed) ?? 0
            let outcome = finished ? "finished" : "failed"
            return seen == count
                ? nil : "expected restores to have \(outcome) \(count) times, they \(outcome) \(seen) times"
        case .heardUpdates(let reference, let count):
            let seen = world.heard(reference)?.states.count ?? 0
            return seen == count
                ? nil : "expected the app to hear \(count) updates for \(reference), it heard \(seen)"
        case .order(let heard):
            return checkOrder(heard)
        case .original(let reference, let original):
            return checkOriginal(reference, original)
        case .exception(let reference, let state):
            guard world.resolve(reference) != nil else { return "no transaction \(reference) was seen" }
            let raised = world.heard(reference)?.exceptions ?? []
            let wanted = state.map { "Cannot finish a \($0.name) transaction" }
            guard raised.contains(where: { wanted == nil || $0 == wanted }) else {
                let what = state.map { "while it was \($0.name) " } ?? ""
                return raised.isEmpty
                    ? "expected finishing \(reference) \(what)to raise StoreKit's exception; it raised none"
                    : "expected finishing \(reference) \(what)to raise StoreKit's exception; it raised \"\(raised.joined(separator: "\", \""))\""
            }
            return nil
        case .noException:
            guard let first = device?.firstException else { return nil }
            let name =
                world.handleNames[first.id] ?? world.tracked[
                    FeedWorld.TrackedKey(seat: world.currentSeat, id: first.id)]?.product
                ?? String(first.id)
            return "expected no exception; finishing \(name) raised \"\(first.message)\""
        case .paid(let reference, let amount):
            guard let id = world.resolve(reference) else { return "no transaction \(reference) was seen" }
            let restored = world.heard(reference)?.states.contains(.restored) == true
            guard let charged = world.store.amountCharged(forTransaction: id) ?? (restored ? 0 : nil) else {
                return "\(reference) is not in the store's history, so nothing was charged for it"
            }
            return charged == amount ? nil : "expected \(reference) to have cost \(amount), it cost \(charged)"
        case .receiptField(let reference, let field, let value):
            return checkReceiptField(reference, nil, field, value)
        case .receiptEntryField(let product, let index, let field, let value):
            return checkReceiptField(.product(product), index, field, value)
        case .delegateAsked(let reference, let expected):
            guard world.resolve(reference) != nil else { return "no transaction \(reference) was seen" }
            let asked = world.heard(reference)?.askedToContinue == true
            return asked == expected
                ? nil
                : expected
                    ? "expected the delegate asked to continue \(reference) in a new storefront; it was not asked"
                    : "expected the delegate not asked about \(reference); it was asked to continue it in a new storefront"
        case .delegateAskedPriceConsent(let expected):
            let asked = (device?.priceConsentQuestions ?? 0) > 0
            return asked == expected
                ? nil
                : expected
                    ? "expected the delegate of \(world.currentSeatDescription) asked whether to show a price-consent sheet; "
                        + "it was not asked since the app started"
                    : "expected the delegate of \(world.currentSeatDescription) not asked whether to show a price-consent "
                        + "sheet; it was asked \(Self.times(device?.priceConsentQuestions ?? 0)) since the app "
                        + "started"
        default:
            return nil
        }
    }

    /// `expect order`: each state was heard after the one listed before it.
    private func checkOrder(_ expected: [FeedStep.HeardState]) -> String? {
        var after = 0
        var previous: FeedStep.HeardState?
        for item in expected {
            guard let transaction = world.heard(item.reference) else {
                return "no transaction \(item.reference) was seen"
            }
            let positions = transaction.heard.filter { $0.state == item.state }.map(\.at)
            guard let first = positions.first else {
                return "expected \(item.reference) \(item.state.name); the app never heard it"
            }
            guard let position = positions.first(where: { $0 > after }) else {
                let earlier = previous.map { "\($0.reference) \($0.state.name)" } ?? ""
                return
                    "expected \(item.reference) \(item.state.name) after \(earlier); the app heard it first (event log seq \(first), \(earlier) at seq \(after))"
            }
            after = position
            previous = item
        }
        return nil
    }

    /// `expect original`: the transaction has its own identifier, and its `original` is the other transaction.
    private func checkOriginal(_ reference: FeedStep.Reference, _ original: FeedStep.Reference) -> String? {
        guard let transaction = world.heard(reference) else {
            return "no transaction \(reference) was seen"
        }
        guard let expected = transactionIdentifier(original) else {
            return "\(original) has no transaction identifier the app heard"
        }
        guard let seen = transaction.originalID else {
            return "expected \(reference) to have the original \(original) (\(expected)); it has no original"
        }
        guard seen == expected else {
            return "expected \(reference) to have the original \(original) (\(expected)); its original is \(seen)"
        }
        guard let own = transaction.transactionID, own != expected else {
            return
                "expected \(reference) to have an identifier of its own; it has \(transaction.transactionID ?? "none")"
        }
        return nil
    }

    /// The transaction identifier the app heard for a transaction (for one it has not heard yet, the store's).
    private func transactionIdentifier(_ reference: FeedStep.Reference) -> String? {
        guard let id = world.resolve(reference) else { return nil }
        return world.heard(reference)?.transactionID ?? String(id)
    }

    /// `expect receipt REF FIELD VALUE`, on the receipt's JSON as ReceiptKit writes it.
    private func checkReceiptField(
        _ reference: FeedStep.Reference, _ index: Int?, _ field: String, _ value: FeedStep.ReceiptValue
    ) -> String? {
        let receipt: AppReceipt
        switch verifiedReceipt() {
        case .success(let verified): receipt = verified
        case .failure(let error): return "the receipt does not verify: \(error.message)"
        }
        let entries = Self.receiptEntries(receipt)
        let entry: [String: String]
        switch reference {
        case .product(let product):
            let ofProduct = entries.filter { $0["product_id"] == product }
            if let index {
                let ordered = ofProduct.enumerated().sorted {
                    let (a, b) = (
                        Int64($0.1["purchase_date_ms"] ?? "") ?? 0, Int64($1.1["purchase_date_ms"] ?? "") ?? 0
                    )
                    return a != b ? a < b : $0.0 < $1.0
                }
                guard index <= ordered.count else {
                    return "the receipt lists \(ordered.count) entries of \(product), not \(index)"
                }
                entry = ordered[index - 1].1
                break
            }
            guard
                let latest = ofProduct.max(by: {
                    (Int64($0["purchase_date_ms"] ?? "") ?? 0) <= (Int64($1["purchase_date_ms"] ?? "") ?? 0)
                })
            else { return "the receipt lists no \(product)" }
            entry = latest
        case .handle:
            guard let id = world.resolve(reference) else { return "no transaction \(reference) was seen" }
            let transaction = world.heard(reference)
            let candidates = [transaction?.transactionID ?? String(id), transaction?.originalID].compactMap { $0 }
            guard let found = candidates.lazy.compactMap({ id in entries.first { $0["transaction_id"] == id } }).first
            else { return "the receipt lists no entry for \(reference) (transaction \(candidates[0]))" }
            entry = found
        }
        let position = index.map { " \($0)" } ?? ""
        let name = "the receipt entry\(position) of \(reference) (transaction \(entry["transaction_id"] ?? "?"))"
        let seen = entry[field]
        switch value {
        case .none:
            return seen == nil ? nil : "expected \(name) without \(field), it has \(field) \(seen ?? "")"
        case .date(let date):
            let milliseconds = String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
            return entry[field + "_ms"] == milliseconds
                ? nil : "expected \(name) to have \(field) \(ISO8601.format(date)), it has \(seen ?? "none")"
        case .transaction(let other):
            guard let expected = transactionIdentifier(other) else { return "no transaction \(other) was seen" }
            return seen == expected
                ? nil : "expected \(name) to have \(field) \(expected) (\(other)), it has \(seen ?? "none")"
        case .text(let text):
            return seen == text ? nil : "expected \(name) to have \(field) \(text), it has \(seen ?? "none")"
        }
    }

    /// The in-app entries of a receipt as ReceiptKit's JSON writes them: field name to string value.
    private static func receiptEntries(_ receipt: AppReceipt) -> [[String: String]] {
        let json = ReceiptJSON.receiptObject(receipt, prettyPrinted: false)
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let entries = object["in_app"] as? [[String: Any]]
        else { return [] }
        return entries.map { entry in entry.compactMapValues { $0 as? String } }
    }
}
