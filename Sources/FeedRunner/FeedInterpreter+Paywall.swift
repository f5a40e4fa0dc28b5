import Foundation
import PaywallEvents
import PaywallEventsTest
import Purchases
import StoreSimulator

extension FeedInterpreter {
    /// Runs what the paywall scheduled that the clock has reached (a loading retry, a profile poll).
    func runPaywallWork() {
        paywall?.context.runUntilIdle()
    }

    /// Carries out a `paywall` step; returns a failure message, or nil.
    func performPaywall(_ step: FeedStep.PaywallStep) -> String? {
        if case .show(let placement, let products, let screens, let selected, let web) = step {
            return show(placement, products: products, screens: screens, selected: selected, web: web)
        }
        if case .webBuy(let product) = step {
            do { try store.buyProduct(product, account: currentUser) } catch { return error.detail }
            return nil
        }
        if case .app(let option, let on) = step {
            guard let paywall = paywallForCurrentUser() else { return "user \(currentUser) has no queue" }
            paywall.app.options[option] = on
            return nil
        }
        guard let paywall, paywall.user == currentUser, let controller = paywall.controller else {
            return "no paywall is shown for \(currentUser); start with `paywall show PLACEMENT products ...`"
        }
        do throws(PaywallEventsError) {
            switch step {
            case .show, .webBuy, .app:
                break
            case .select(let product):
                try (controller as? FlowController)?.selectProduct(product)
                try (controller as? PaywallController)?.selectProduct(product)
            case .purchase(let product):
                try (controller as? FlowController)?.tapPurchase(product)
                try (controller as? PaywallController)?.tapPurchase(product)
            case .restore:
                try (controller as? FlowController)?.tapRestore()
                try (controller as? PaywallController)?.tapRestore()
            case .nextScreen:
                guard let flow = controller as? FlowController else {
                    return "the paywall has one screen; show it with `screens S1,S2` to make a flow"
                }
                try flow.nextScreen()
            case .close:
                try (controller as? FlowController)?.tapClose()
                try (controller as? PaywallController)?.tapClose()
            case .dismiss:
                controller.dismiss()
            case .webPurchase(let product):
                try (controller as? FlowController)?.tapWebPurchase(product)
                try (controller as? PaywallController)?.tapWebPurchase(product)
            case .userReturns:
                paywall.context.userDidReturnToApp()
            }
        } catch {
            return error.message
        }
        return nil
    }

    private func show(
        _ placement: String, products: [String], screens: [String], selected: String?, web: String?
    ) -> String? {
        var webURL: URL?
        if let web {
            guard let url = URL(string: web) else { return "\(web) is not a URL" }
            webURL = url
        }
        guard let paywall = paywallForCurrentUser() else { return "user \(currentUser) has no queue" }
        paywall.controller?.dismiss()
        let configuration = PaywallConfiguration(
            paywallId: placement,
            products: products.map { PaywallConfiguration.ProductSlot(id: $0) },
            screens: screens.map { FlowScreen(id: $0) },
            webPurchaseURL: webURL,
            selectedProductId: selected
        )
        let controller: any PresentableController =
            screens.isEmpty
            ? PaywallController(configuration: configuration, context: paywall.context, delegate: paywall.app)
            : FlowController(configuration: configuration, context: paywall.context, delegate: paywall.app)
        paywall.controller = controller
        paywall.shownAt = paywall.checker.entries.count
        do { try controller.appear() } catch { return error.message }
        return nil
    }

    /// The paywall side of the current user, made on first use and again after a restart or a change of user.
    private func paywallForCurrentUser() -> FeedPaywall? {
        guard let queue = users[currentSeat]?.queue else { return nil }
        if let paywall, paywall.user == currentUser, paywall.queue === queue { return paywall }
        paywall?.controller?.dismiss()
        let fresh = FeedPaywall(user: currentUser, queue: queue, store: store)
        let log = FeedPaywallLog(run: self, user: currentUser)
        fresh.context.addRecorder(log.write)
        paywall = fresh
        return fresh
    }

    /// Checks an `expect paywall` expectation; returns a failure message, or nil.
    func checkPaywall(_ expectation: FeedStep.PaywallExpectation) -> String? {
        guard let paywall, paywall.user == currentUser else {
            return "no paywall was shown for \(currentUser); start with `paywall show PLACEMENT products ...`"
        }
        paywall.context.runUntilIdle()
        let events = paywall.events
        switch expectation {
        case .events(let expected):
            let seen = events.map(\.name).filter { $0 != "didReceiveAnalyticEvent" }
            return seen == expected
                ? nil
                : "expected callbacks \(expected.joined(separator: " ")), observed \(seen.isEmpty ? "none" : seen.joined(separator: " "))"
        case .analytics(let name, let count):
            let seen = events.filter { event in
                if case .didReceiveAnalyticEvent(name, _) = event { return true }
                return false
            }.count
            return seen == count ? nil : "expected \(name) \(count) times, the delegate heard it \(seen) times"
        case .result(let expected):
            let seen = events.last { ["didFinishPurchase", "didFailPurchase"].contains($0.name) }.map { event in
                if case .didFinishPurchase(_, let result) = event { return result.type }
                return "failed"
            }
            return seen == expected
                ? nil : "expected the last purchase \(expected), observed \(seen ?? "no purchase end")"
        case .restore(let finished):
            let seen = events.last { $0.name == "didFinishRestore" || $0.name == "didFailRestore" }
            let expected = finished ? "didFinishRestore" : "didFailRestore"
            return seen?.name == expected ? nil : "expected \(expected), observed \(seen?.name ?? "no restore end")"
        case .onScreen(let expected):
            let seen = paywall.controller?.isOnScreen ?? false
            return seen == expected
                ? nil
                : "expected the paywall \(expected ? "on screen" : "dismissed"), it is \(seen ? "on screen" : "dismissed")"
        case .access(let level, let expected):
            let profile = (try? paywall.purchases.refreshProfile()) ?? paywall.purchases.profile
            let seen = profile.isActive(level)
            return seen == expected
                ? nil
                : "expected \(expected ? "" : "no ")active \(level) access, the profile has \(seen ? "it" : "none")"
        case .web(let expected):
            guard let visit = paywall.context.webPaywallVisits.last else {
                return "expected a web paywall \(expected); none was opened"
            }
            let seen: String =
                switch visit.status {
                case .inBrowser: "in-browser"
                case .polling: "polling"
                case .accessGranted: "granted"
                case .timedOut: "timed-out"
                }
            return seen == expected
                ? nil : "expected the web paywall \(expected), it is \(seen) after \(visit.polls) polls"
        case .url(let expected):
            let seen = paywall.host.openedURLs.last?.url.absoluteString
            return seen == expected ? nil : "expected \(expected) opened, observed \(seen ?? "no URL")"
        case .conformant:
            let violations = paywall.checker.violations()
            return violations.isEmpty
                ? nil : "expected no broken rule, found: " + violations.map(\.description).joined(separator: "; ")
        case .violation(let rule):
            let violations = paywall.checker.violations()
            return violations.contains { $0.rule.rawValue == rule }
                ? nil
                : "expected \(rule) broken, found "
                    + (violations.isEmpty ? "none" : violations.map(\.rule.rawValue).joined(separator: ", "))
        }
    }

    /// Writes a paywall callback to the event log.
    func loggedPaywall(_ event: PaywallEvent, user: String, placement: String?, time: Date) {
        var line = EventLine(logging: logs, seq: nextSequence(), time: time, event: "paywall")
        line.add("user", user)
        line.add("placement", placement)
        line.add("callback", event.name)
        line.add("payload", raw: event.jsonString)
        sink.append(line.line)
    }
}
