extension FeedStep {
    /// A `paywall ...` step: what the user does on a presented paywall or flow, what the app does with it, and a
    /// purchase made on the web.
    public enum PaywallStep: Sendable, Hashable {
        /// `paywall show PLACEMENT products P1,P2 [screens S1,S2] [select P] [web URL]`: a multi-screen flow when
        /// screens are given, else a single-screen paywall, put on screen.
        case show(placement: String, products: [String], screens: [String], selected: String?, webURL: String?)
        /// `paywall select PRODUCT`.
        case select(String)
        /// `paywall purchase [PRODUCT]`: the selected product by default.
        case purchase(String?)
        /// `paywall restore`.
        case restore
        /// `paywall next-screen`.
        case nextScreen
        /// `paywall close`: the user taps close (the app's default dismisses).
        case close
        /// `paywall dismiss`: the app dismisses the paywall.
        case dismiss
        /// `paywall web-purchase [PRODUCT]`: the user opens the web purchase page.
        case webPurchase(String?)
        /// `paywall return`: the user comes back to the app; the profile is polled.
        case userReturns
        /// `paywall web-buy PRODUCT`: the purchase is made on the web page (the store grants it outside the app).
        case webBuy(String)
        /// `paywall app OPTION on|off`: how the app's delegate behaves.
        case app(PaywallAppOption, Bool)
    }

    /// How the app inside a feed reacts to paywall events.
    public enum PaywallAppOption: String, Sendable, Hashable, CaseIterable {
        /// Answer `true` to a products loading failure (retry after 2 seconds of store time). Off by default.
        case retryLoading = "retry-loading"
        /// Dismiss the paywall after a successful purchase. On by default.
        case dismissOnSuccess = "dismiss-on-success"
        /// Dismiss the paywall when a purchase is cancelled (a misbehaving app). Off by default.
        case dismissOnCancel = "dismiss-on-cancel"
    }

    /// An `expect paywall ...` expectation.
    public enum PaywallExpectation: Sendable, Hashable {
        /// `expect paywall events NAME...`: the callbacks since the paywall was shown, analytics left out.
        case events([String])
        /// `expect paywall analytics NAME N`: how many times the delegate heard the analytics event.
        case analytics(String, Int)
        /// `expect paywall result success|cancelled|pending|failed`: how the last purchase ended.
        case result(String)
        /// `expect paywall restore finished|failed`: how the last restore ended.
        case restore(Bool)
        /// `expect paywall on-screen` / `expect paywall dismissed`.
        case onScreen(Bool)
        /// `expect paywall access LEVEL` / `expect paywall no-access LEVEL`: the purchase module's profile.
        case access(String, Bool)
        /// `expect paywall web in-browser|polling|granted|timed-out`: the last web paywall visit.
        case web(String)
        /// `expect paywall url URL`: the last URL the app was asked to open.
        case url(String)
        /// `expect paywall conformant`: no ordering rule is broken.
        case conformant
        /// `expect paywall violation RULE`: this rule is broken.
        case violation(String)
    }
}
