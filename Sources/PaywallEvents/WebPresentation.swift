/// Where a web paywall opens.
public enum WebPresentation: String, Sendable, Hashable {
    /// The system browser, outside the app (the default).
    case externalBrowser = "external_browser"
    /// A browser inside the app.
    case inAppBrowser = "in_app_browser"
}
