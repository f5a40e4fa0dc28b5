import Foundation
import PaywallEvents
import PaywallEventsTest
import Purchases

extension FeedExpectationChecker {
    /// Checks an `expect paywall` expectation; returns a failure message, or nil.
    func checkPaywall(_ expectation: FeedStep.PaywallExpectation) -> String? {
        guard let paywall = world.paywall, paywall.user == world.currentUser else {
            return "no paywall was shown for \(world.currentUser); start with `paywall show PLACEMENT products ...`"
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
}
