/// An App Store country or region: its ISO 3166-1 alpha-3 code and the App Store's identifier for it.
public struct Storefront: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The ISO 3166-1 alpha-3 country code, such as `USA`.
    public let countryCode: String
    /// The App Store's storefront identifier, such as `143441`.
    public let identifier: String
    /// The locale whose currency prices are shown in, such as `en_US`.
    public let priceLocaleIdentifier: String

    /// The United States storefront, the default.
    public static let unitedStates = Storefront(countryCode: "USA")

    /// Creates the storefront for a country code; identifiers and currencies are known for common storefronts.
    public init(countryCode: String) {
        let code = countryCode.uppercased()
        self.countryCode = code
        let known = Self.known[code]
        self.identifier = known?.identifier ?? "0"
        self.priceLocaleIdentifier = known?.locale ?? "en_US"
    }

    /// The country code.
    public var description: String { countryCode }

    /// Whether `countryCode` is one of the storefronts this type knows.
    public static func isKnown(_ countryCode: String) -> Bool { known[countryCode.uppercased()] != nil }

    private static let known: [String: (identifier: String, locale: String)] = [
        "USA": ("143441", "en_US"), "GBR": ("143444", "en_GB"), "CAN": ("143455", "en_CA"),
        "AUS": ("143460", "en_AU"), "DEU": ("143443", "de_DE"), "FRA": ("143442", "fr_FR"),
        "ESP": ("143454", "es_ES"), "ITA": ("143450", "it_IT"), "NLD": ("143452", "nl_NL"),
        "SWE": ("143456", "sv_SE"), "CHE": ("143459", "de_CH"), "JPN": ("143462", "ja_JP"),
        "CHN": ("143465", "zh_CN"), "KOR": ("143466", "ko_KR"), "IND": ("143467", "en_IN"),
        "BRA": ("143503", "pt_BR"), "MEX": ("143468", "es_MX"), "IRL": ("143449", "en_IE"),
        "NZL": ("143461", "en_NZ"), "POL": ("143478", "pl_PL"), "TUR": ("143480", "tr_TR"),
        "NOR": ("143457", "nb_NO"), "DNK": ("143458", "da_DK"), "AUT": ("143445", "de_AT"),
        "BEL": ("143446", "nl_BE"), "PRT": ("143453", "pt_PT"), "SGP": ("143464", "en_SG"),
    ]
}
