import Foundation
import ReceiptKit
import StoreModels
import StoreSimulator

/// Checks a whole feed before any step runs, against its catalog: every product a step names is in the catalog the
/// feed has at that step (the demo's, or the `.storekit` file a `config` step loads), every handle is named once
/// and before it is used, and the feed has steps. Loads the configurations `config` steps name.
struct FeedChecker {
    /// The parser that reads the feed's lines; its file names errors and its base directory resolves `config` paths.
    let parser: FeedParser

    /// The file name used in error messages.
    var file: String { parser.file }

    /// What checking a feed found: its number of steps and the configurations its `config` steps load, by source.
    struct Checked {
        var steps = 0
        var configurations: [String: StoreConfiguration] = [:]
        /// The compact JWS each signed-offer file an `sk2 buy` names holds, by the path the feed gives.
        var signedOffers: [String: String] = [:]
        /// How many bytes `signedOffers` holds.
        var signedOfferBytes = 0
        /// The public half (PEM) of the In-App Purchase key in each `.p8` file an `offer-key` step names, by path.
        var offerKeys: [String: String] = [:]
        /// Where the first `expect notification`, `expect notifications` or `expect no notification` is, if any.
        var firstNotificationExpectation: (line: Int, column: Int)?
    }

    /// Checks a feed whose run starts on `configuration`'s catalog.
    func check(_ source: FeedSource, startingWith configuration: StoreConfiguration) throws(FeedError) -> Checked {
        var handles = Set<String>()
        var checked = Checked()
        var catalog = configuration
        try parser.forEachLine(in: source) { (line: FeedLine, tokens: [FeedLexer.Token]) throws(FeedError) in
            checked.steps += 1
            func column(of word: String) -> Int {
                if let token = tokens.dropFirst().first(where: { $0.word == word }) { return token.column }
                for token in tokens.dropFirst() {
                    if let range = token.word.range(of: word) {
                        return token.column + token.word.distance(from: token.word.startIndex, to: range.lowerBound)
                    }
                }
                return tokens.first?.column ?? 1
            }
            if case .expect(.notification) = line.step, checked.firstNotificationExpectation == nil {
                checked.firstNotificationExpectation = (line.line, column(of: "notification"))
            }
            if case .configure(let source) = line.step {
                catalog = try loadConfiguration(source, line: line.line, column: column(of: source))
                checked.configurations[source] = catalog
            }
            if case .offerKey(_, let path) = line.step, checked.offerKeys[path] == nil {
                checked.offerKeys[path] = try loadOfferKey(path, line: line.line, column: column(of: path))
            }
            for product in line.step.products where catalog.catalog.product(product) == nil {
                throw unknownProduct(product, in: catalog, line: line.line, column: column(of: product))
            }
            if case .storeKit2(.buy(let product, _, _, let offers, _)) = line.step {
                if let offer = offers.winBack {
                    let known =
                        catalog.catalog.product(product)?.subscription?.winBackOffers.compactMap(\.identifier) ?? []
                    guard known.contains(offer) else {
                        throw FeedError(
                            .invalidValue, file: file, line: line.line, column: column(of: offer),
                            "\(product) has no win-back offer \"\(offer)\"",
                            hint: known.isEmpty
                                ? "the product has no win-back offers in the feed's catalog; name a .storekit file that has some"
                                : "its win-back offers are " + known.joined(separator: ", "))
                    }
                }
                if let plan = offers.billingPlan {
                    let planColumn = column(of: FeedStep.StoreKit2Offers.name(of: plan))
                    try checkBillingPlan(plan, of: product, in: catalog.catalog, line: line.line, column: planColumn)
                }
                for path in offers.files where checked.signedOffers[path] == nil {
                    let jws = try loadSignedOffer(path, line: line.line, column: column(of: path))
                    checked.signedOfferBytes += jws.utf8.count
                    guard checked.signedOfferBytes <= Self.maximumSignedOffersLength else {
                        throw FeedError(
                            .outOfBounds, file: file, line: line.line, column: column(of: path),
                            "the signed offer files hold more than \(Self.maximumSignedOffersLength) bytes in all",
                            hint:
                                "a feed's signed offer files hold at most 16 MiB together; reuse a file or split the feed"
                        )
                    }
                    checked.signedOffers[path] = jws
                }
            }
            for reference in line.step.references {
                guard case .handle(let name) = reference, !handles.contains(name) else { continue }
                throw FeedError(
                    .unknownHandle,
                    file: file,
                    line: line.line,
                    column: column(of: reference.description),
                    "no transaction is named \"\(name)\" yet",
                    hint:
                        "name a transaction first, e.g. `buy com.example.pro as \(name)`, or refer to it by product id"
                )
            }
            var named: String?
            if case .buy(_, _, _, _, _, let handle?) = line.step { named = handle }
            if case .buyElsewhere(_, _, let handle?) = line.step { named = handle }
            if case .promote(_, let handle?) = line.step { named = handle }
            if case .storeKit2(.buy(_, _, _, _, let handle?)) = line.step { named = handle }
            if let handle = named {
                guard handles.insert(handle).inserted else {
                    let after = tokens.firstIndex { $0.word == "as" }.map { $0 + 1 } ?? 0
                    throw FeedError(
                        .unknownHandle,
                        file: file,
                        line: line.line,
                        column: after < tokens.count ? tokens[after].column : 1,
                        "the handle \"\(handle)\" is already taken",
                        hint: "give each transaction its own handle"
                    )
                }
            }
        }
        guard checked.steps > 0 else {
            throw FeedError(
                .noSteps, file: file, line: 1, column: 1, "the feed has no steps, only blank lines and comments",
                hint: "add steps, e.g. `buy com.example.pro as pro` and `expect state pro purchased` (docs/feeds.md)")
        }
        return checked
    }

    /// The URL of a file a step names (a `config` step's `.storekit` file, an `sk2 buy`'s signed offer): absolute, or
    /// relative to the feed's folder.
    func configurationURL(_ source: String) -> URL {
        source.hasPrefix("/")
            ? URL(fileURLWithPath: source)
            : (parser.baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                .appendingPathComponent(source)
    }

    /// The most bytes of a `.storekit` file a `config` step loads (16 MiB).
    static let maximumConfigurationLength = 16 << 20

    /// The most bytes of a signed offer file an `sk2 buy` reads (64 KiB; a compact JWS is well under 2 KiB).
    static let maximumSignedOfferLength = 64 << 10

    /// The most bytes the signed offer files of one feed hold together (16 MiB).
    static let maximumSignedOffersLength = 16 << 20

    /// Reads the compact JWS of a signed offer file an `sk2 buy` names, without surrounding whitespace.
    func loadSignedOffer(_ path: String, line: Int, column: Int) throws(FeedError) -> String {
        let what = "a signed offer file (a compact JWS)"
        let data = try FeedText.read(
            configurationURL(path), file: file, line: line, column: column, what: what,
            limit: Self.maximumSignedOfferLength)
        guard let text = String(data: data, encoding: .utf8) else {
            throw FeedError(
                .notText, file: file, line: line, column: column, "\(path) is not UTF-8 text",
                hint: "name \(what): the three base64url parts your server signed, joined by dots")
        }
        let jws = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !jws.isEmpty else {
            throw FeedError(
                .invalidValue, file: file, line: line, column: column, "\(path) is empty",
                hint: "name \(what): the three base64url parts your server signed, joined by dots")
        }
        return jws
    }

    /// The most bytes of an In-App Purchase key file an `offer-key` step reads (64 KiB; a `.p8` holds some 250).
    static let maximumOfferKeyLength = 64 << 10

    /// Reads the In-App Purchase key (`.p8`, an ECDSA P-256 private key in PEM) an `offer-key` step names, and returns
    /// its public half in PEM, which the store checks signed offers with.
    func loadOfferKey(_ path: String, line: Int, column: Int) throws(FeedError) -> String {
        let what = "an In-App Purchase key file (.p8)"
        let data = try FeedText.read(
            configurationURL(path), file: file, line: line, column: column, what: what,
            limit: Self.maximumOfferKeyLength)
        let hint = "name the .p8 file App Store Connect gave for the key (BEGIN PRIVATE KEY, ECDSA P-256)"
        guard let text = String(data: data, encoding: .utf8) else {
            throw FeedError(.notText, file: file, line: line, column: column, "\(path) is not UTF-8 text", hint: hint)
        }
        do throws(ReceiptError) {
            return try ES256Key(pemEncoded: text).publicKeyPEM()
        } catch {
            throw FeedError(
                .invalidValue, file: file, line: line, column: column,
                "\(path) is not an In-App Purchase key: \(error.message)", hint: hint)
        }
    }

    /// Loads the configuration a `config` step names: the demo, or a `.storekit` file.
    func loadConfiguration(_ source: String, line: Int, column: Int) throws(FeedError) -> StoreConfiguration {
        guard source != "demo" else { return .demo }
        let url = configurationURL(source)
        let data = try FeedText.read(
            url, file: file, line: line, column: column, what: "a .storekit file",
            limit: Self.maximumConfigurationLength, code: .badConfiguration)
        do throws(StoreSimulatorError) {
            return try StoreConfiguration(data: data, sourceName: url.lastPathComponent)
        } catch {
            throw FeedError(
                .badConfiguration,
                file: file,
                line: line,
                column: column,
                "\(url.path): \(error.detail)",
                hint: "config takes `demo` or a .storekit file path relative to the feed"
            )
        }
    }

    private func unknownProduct(_ product: String, in configuration: StoreConfiguration, line: Int, column: Int)
        -> FeedError
    {
        let known = configuration.catalog.products.map(\.id)
        let suggestions = EditDistance.closest(to: product, among: known)
        let hint: String
        if !suggestions.isEmpty {
            hint = "did you mean " + suggestions.joined(separator: " or ") + "?"
        } else if known.isEmpty {
            hint = "the catalog has no products; name a .storekit file that has some with `config FILE.storekit`"
        } else {
            let listed = known.prefix(8).joined(separator: ", ")
            hint = "the catalog has \(listed)\(known.count > 8 ? ", ... (\(known.count) products)" : "")"
        }
        return FeedError(
            .unknownProduct, file: file, line: line, column: column,
            "no product \"\(product)\" in the catalog (\(configuration.sourceName))", hint: hint)
    }
}
