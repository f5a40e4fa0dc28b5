public import Foundation

/// Builds the unique URL of a web paywall: the web purchase URL with the paywall, its variation and the user's profile
/// (and, for a product, the product and its offer) added as query parameters, so the web purchase page knows which
/// paywall this user saw.
///
/// Parameters are added in a fixed order, `paywall_id`, `variation_id`, `profile_id`, then `product_id` and
/// `offer_id`, after any query the URL already has, before its fragment. Values are percent-encoded so that only
/// RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`) stay as they are.
public enum WebPaywallURL {
    /// The URL for a product: its own web purchase URL, or its paywall's.
    ///
    /// - Throws: ``PaywallEventsError`` `productWithoutPurchaseUrl` when neither exists, `failedDecodingWebPaywallUrl`
    ///   when the parameters cannot be added (see ``make(base:parameters:)``).
    public static func make(for product: PaywallProduct, profileId: String) throws(PaywallEventsError) -> URL {
        guard let base = product.webPurchaseURL ?? product.paywallWebPurchaseURL else {
            throw PaywallEventsError(
                .productWithoutPurchaseUrl,
                "\(product.vendorProductId) has no web purchase URL, and neither has its paywall "
                    + "\(product.paywallId ?? "(none)"); set one in the paywall configuration"
            )
        }
        var parameters = [
            ("paywall_id", product.paywallId ?? ""), ("variation_id", product.variationId ?? ""),
            ("profile_id", profileId), ("product_id", product.vendorProductId),
        ]
        if let offer = product.offerId { parameters.append(("offer_id", offer)) }
        return try make(base: base, parameters: parameters)
    }

    /// The URL for a paywall, without product data (for web products that differ from the store's).
    ///
    /// - Throws: ``PaywallEventsError`` `paywallWithoutPurchaseUrl` when the paywall has no web purchase URL,
    ///   `failedDecodingWebPaywallUrl` when the parameters cannot be added.
    public static func make(for paywall: PaywallConfiguration, profileId: String) throws(PaywallEventsError) -> URL {
        guard let base = paywall.webPurchaseURL else {
            throw PaywallEventsError(
                .paywallWithoutPurchaseUrl,
                "paywall \(paywall.paywallId) has no web purchase URL; set webPurchaseURL in its configuration"
            )
        }
        return try make(
            base: base,
            parameters: [
                ("paywall_id", paywall.paywallId), ("variation_id", paywall.variationId), ("profile_id", profileId),
            ]
        )
    }

    /// Adds percent-encoded parameters to an absolute http or https URL.
    ///
    /// - Throws: ``PaywallEventsError`` `failedDecodingWebPaywallUrl` when the URL is not an absolute http(s) URL
    ///   with a host, or its query already has one of the parameters (the page could not tell which one counts).
    public static func make(base: URL, parameters: [(String, String)]) throws(PaywallEventsError) -> URL {
        guard let components = URLComponents(url: base, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = components.host, !host.isEmpty
        else {
            throw PaywallEventsError(
                .failedDecodingWebPaywallUrl,
                "the web purchase URL \(base.absoluteString) is not an absolute http or https URL with a host"
            )
        }
        let existing = Set((components.queryItems ?? []).map(\.name))
        if let clash = parameters.first(where: { existing.contains($0.0) }) {
            throw PaywallEventsError(
                .failedDecodingWebPaywallUrl,
                "the web purchase URL \(base.absoluteString) already has a \(clash.0) parameter; remove it from the "
                    + "configured URL"
            )
        }
        var text = base.absoluteString
        var fragment = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = String(text[hash...])
            text = String(text[..<hash])
        }
        let query = parameters.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
        let separator = text.contains("?") ? (text.hasSuffix("?") || text.hasSuffix("&") ? "" : "&") : "?"
        guard let url = URL(string: text + separator + query + fragment) else {
            throw PaywallEventsError(
                .failedDecodingWebPaywallUrl, "the parameters could not be added to \(base.absoluteString)")
        }
        return url
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters, byte by byte in UTF-8.
    static func encode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}
