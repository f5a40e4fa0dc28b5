import Foundation
import StoreModels
import StoreSimulator

extension FeedInterpreter {
    /// `cancellation-flow REF [LOCALE]`: the customer opens the cancellation flow of the subscription the transaction
    /// belongs to. A served run goes through the server, which sends the backend Apple's signed real-time request; a
    /// run without a server records the flow without a backend (the default message of the product in the locale, or
    /// nothing). Either way the store records what was shown, and the step logs it (`retentionMessage`).
    func cancellationFlow(_ reference: FeedStep.Reference, locale: String) -> String? {
        guard let id = world.resolve(reference), let record = store.transaction(id) else {
            return "no transaction \(reference) was seen"
        }
        let shown: ShownRetentionMessage
        if let served = server?.openCancellationFlow(originalTransactionID: record.originalID, locale: locale) {
            switch served {
            case .success(let made): shown = made
            case .failure(let error): return error.detail
            }
        } else {
            let requestIdentifier = UUID()
            do {
                try store.perform(
                    .retentionMessaging(
                        .openCancellationFlow(
                            originalTransactionID: record.originalID, locale: locale,
                            requestIdentifier: requestIdentifier, choice: nil, failure: nil)))
            } catch { return error.detail }
            guard let made = store.retentionMessaging.shown.last(where: { $0.requestIdentifier == requestIdentifier })
            else { return "the store recorded nothing for the cancellation flow" }
            shown = made
        }
        var event = log.line("retentionMessage")
        event.add("user", world.currentUser)
        event.add("product", shown.productID)
        event.add("locale", shown.locale)
        event.add("source", shown.source.rawValue)
        event.add("message", shown.messageIdentifier?.uuidString.lowercased())
        if let failure = shown.failure { event.add("failure", failure) }
        log.write(event)
        return nil
    }
}
