import Foundation
import StoreModels

extension StoreState {
    /// Why `change` cannot be made to the app's Retention Messaging as it stands, or nil when it can.
    mutating func retentionMessagingProblem(_ change: RetentionMessagingChange) -> RetentionMessagingProblem? {
        let messaging = retentionMessaging
        switch change {
        case .uploadImage(let id, _):
            if messaging.image(id) != nil { return .imageAlreadyExists(id) }
            if messaging.images.count >= RetentionMessaging.imageLimit { return .maximumImagesReached }
        case .deleteImage(let id):
            guard messaging.image(id) != nil else { return .imageNotFound(id) }
            if let user = messaging.messages.first(where: { $0.imageIdentifiers.contains(id) }) {
                return .imageInUse(id, message: user.identifier)
            }
        case .uploadMessage(let message):
            if messaging.message(message.identifier) != nil { return .messageAlreadyExists(message.identifier) }
            if messaging.messages.count >= RetentionMessaging.messageLimit { return .maximumMessagesReached }
            let images =
                (message.image.map { [($0.imageIdentifier, RetentionMessaging.ImageSize.fullSize)] } ?? [])
                + message.bulletPoints.map { ($0.image.imageIdentifier, .bulletPoint) }
            for (id, size) in images {
                guard let image = messaging.image(id) else { return .imageNotFound(id) }
                guard image.size == size else { return .wrongImageSize(id, expected: size) }
            }
        case .deleteMessage(let id):
            guard messaging.message(id) != nil else { return .messageNotFound(id) }
        case .review(let id, _):
            guard messaging.image(id) != nil || messaging.message(id) != nil else { return .messageNotFound(id) }
        case .setDefaultMessage(let productID, let locale, let messageID):
            guard product(productID)?.type == .autoRenewableSubscription else { return .notASubscription(productID) }
            guard let messageID else {
                return messaging.defaultMessage(productID: productID, locale: locale) == nil
                    ? .defaultMessageNotFound(productID: productID, locale: locale) : nil
            }
            guard let message = messaging.message(messageID) else { return .messageNotFound(messageID) }
            guard message.state == .approved else { return .messageNotApproved(messageID) }
            for id in message.imageIdentifiers where messaging.image(id)?.state != .approved {
                return .imageNotApproved(id)
            }
        case .setRealtimeURL, .recordPerformanceTest:
            break
        case .openCancellationFlow(let originalID, _, _, _, _):
            guard let record = records[originalID], record.state == .purchased, record.originalID == originalID,
                product(record.productID)?.type == .autoRenewableSubscription
            else { return .subscriptionNotFound(originalID) }
        }
        return nil
    }

    /// Makes `change` to the app's Retention Messaging (``SimulatedStore/changeRetentionMessaging(_:)``).
    mutating func changeRetentionMessaging(_ change: RetentionMessagingChange, now: Date)
        throws(StoreSimulatorError)
    {
        if let problem = retentionMessagingProblem(change) {
            if case .subscriptionNotFound = problem {
                throw StoreSimulatorError(.unknownTransaction, problem.description)
            }
            throw StoreSimulatorError(.invalidAction, problem.description)
        }
        switch change {
        case .uploadImage(let id, let size):
            retentionMessaging.images.append(RetentionMessaging.Image(identifier: id, size: size))
        case .deleteImage(let id):
            retentionMessaging.images.removeAll { $0.identifier == id }
        case .uploadMessage(var message):
            message.state = .approved
            retentionMessaging.messages.append(message)
        case .deleteMessage(let id):
            retentionMessaging.messages.removeAll { $0.identifier == id }
            retentionMessaging.defaultMessages.removeAll { $0.messageIdentifier == id }
        case .review(let id, let state):
            if let index = retentionMessaging.images.firstIndex(where: { $0.identifier == id }) {
                retentionMessaging.images[index].state = state
            }
            if let index = retentionMessaging.messages.firstIndex(where: { $0.identifier == id }) {
                retentionMessaging.messages[index].state = state
            }
        case .setDefaultMessage(let productID, let locale, let messageID):
            retentionMessaging.defaultMessages.removeAll { $0.productID == productID && $0.locale == locale }
            if let messageID {
                retentionMessaging.defaultMessages.append(
                    RetentionMessaging.DefaultMessage(
                        productID: productID, locale: locale, messageIdentifier: messageID))
            }
        case .setRealtimeURL(let url):
            retentionMessaging.realtimeURL = url
        case .recordPerformanceTest(let test):
            retentionMessaging.performanceTests.removeAll { $0.requestID == test.requestID }
            retentionMessaging.performanceTests.append(test)
        case .openCancellationFlow(let originalID, let locale, let requestIdentifier, let choice, let failure):
            retentionMessaging.shown.append(
                shownRetentionMessage(
                    originalID: originalID, locale: locale, requestIdentifier: requestIdentifier, choice: choice,
                    failure: failure, now: now))
        }
    }

    /// What a customer is shown (docs/decisions.md 101): the backend's choice when its message (and every image of
    /// it) is approved and, for an alternate product or a promotional offer, has no image or bullet point, and for an
    /// alternate product the product is another auto-renewable subscription of the same group; else the default message of the product in the locale when it is showable; else nothing.
    private mutating func shownRetentionMessage(
        originalID: UInt64, locale: String, requestIdentifier: UUID, choice: RetentionChoice?, failure: String?,
        now: Date
    ) -> ShownRetentionMessage {
        // Checked by retentionMessagingProblem: a purchased subscription's original transaction.
        let productID = records[originalID]?.productID ?? ""
        var shown = ShownRetentionMessage(
            originalTransactionID: originalID, productID: productID, locale: locale,
            requestIdentifier: requestIdentifier, date: now, source: .none, failure: failure)
        if let choice {
            if let refusal = refusal(of: choice, productID: productID) {
                shown.failure = refusal
            } else {
                shown.source = .realtime
                shown.messageIdentifier = choice.messageIdentifier
                if case .alternateProduct(_, let alternate) = choice { shown.alternateProductID = alternate }
                if case .promotionalOffer = choice { shown.offersPromotionalOffer = true }
                return shown
            }
        }
        if let fallback = retentionMessaging.defaultMessage(productID: productID, locale: locale),
            retentionMessaging.isShowable(fallback.messageIdentifier)
        {
            shown.source = .defaultMessage
            shown.messageIdentifier = fallback.messageIdentifier
        }
        return shown
    }

    /// Why the store does not show a backend's choice, or nil when it does.
    private mutating func refusal(of choice: RetentionChoice, productID: String) -> String? {
        let id = choice.messageIdentifier.uuidString.lowercased()
        guard retentionMessaging.message(choice.messageIdentifier) != nil else { return "no message \(id)" }
        guard retentionMessaging.isShowable(choice.messageIdentifier) else {
            return "the message \(id) or an image of it is not approved"
        }
        if case .message = choice {
        } else if retentionMessaging.message(choice.messageIdentifier)?.imageIdentifiers.isEmpty == false {
            return "the message \(id) has an image or bullet points: a switch-plan or promotional-offer message is "
                + "text only"
        }
        if case .alternateProduct(_, let alternate) = choice {
            let group = product(productID)?.subscription?.groupID
            guard alternate != productID, let other = product(alternate), other.type == .autoRenewableSubscription,
                other.subscription?.groupID == group
            else { return "\(alternate) is not another subscription of the group of \(productID)" }
        }
        return nil
    }
}
