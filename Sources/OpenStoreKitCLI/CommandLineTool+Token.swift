import Dispatch
import Foundation
import ReceiptKit
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CommandLineTool {
    /// `openstorekit token`: prints an App Store Server API bearer token, for curl and other clients without a library.
    func token(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(arguments, command: "token", valued: Help.options["token"] ?? [])
        if printsHelp(options, for: "token") { return 0 }
        guard options.operands.isEmpty else { throw UsageError("token takes no operands, only options") }
        guard let argument = options.values["--api-key"] else {
            throw UsageError("token needs --api-key KEYID=FILE.p8, the In-App Purchase key that signs it")
        }
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex,
            argument.index(after: equals) != argument.endIndex
        else { throw UsageError("--api-key takes KEYID=FILE.p8, not \"\(argument)\"") }
        let keyID = String(argument[..<equals])
        let path = String(argument[argument.index(after: equals)...])
        try InputFile.mustExist(path, option: "--api-key")
        guard let issuerID = options.values["--issuer-id"], !issuerID.isEmpty else {
            throw UsageError("token needs --issuer-id ID, the issuer id the server expects (iss)")
        }
        let lifetime = try options.integer(
            "--lifetime", default: 300, range: 1...Int(ServerAPIToken.maximumLifetime))
        let store = try options.values["--url"].map { (base) throws(UsageError) -> ServedStore in
            guard let token = options.values["--control-token"] else {
                throw UsageError("--url needs --control-token TOKEN, the served store's control token")
            }
            return try Self.servedStore(at: base, controlToken: token)
        }
        guard let bundleID = options.values["--bundle-id"] ?? store?.bundleID, !bundleID.isEmpty else {
            throw UsageError("token needs --bundle-id ID, the app's bundle id (bid)")
        }
        let key: ES256Key
        do throws(ReceiptError) {
            key = try ReceiptFile.readKey(atPath: path)
        } catch  where error.code == .fileUnreadable {
            throw UsageError("\(path): cannot read the key (--api-key): \(error.detail)")
        } catch {
            throw UsageError(
                "\(path) holds no unencrypted ECDSA P-256 private key (a .p8 file from App Store Connect): "
                    + error.detail)
        }
        let contents = ServerAPIToken(
            keyID: keyID, issuerID: issuerID, bundleID: bundleID, issuedAt: store?.now ?? Date(),
            lifetime: TimeInterval(lifetime))
        do throws(ReceiptError) {
            output.out(try contents.signed(with: key) + "\n")
        } catch {
            output.err("openstorekit: cannot sign the token: \(error.detail)\n")
            return 2
        }
        return 0
    }

    /// What `GET /openstorekit/v1/store` of a served store says: its clock and its app.
    struct ServedStore {
        let now: Date
        let bundleID: String?
    }

    /// Asks the control API of the store served at `base` for its clock.
    static func servedStore(at base: String, controlToken: String) throws(UsageError) -> ServedStore {
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        guard let url = URL(string: trimmed + "/openstorekit/v1/store"),
            ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else {
            throw UsageError("--url takes the base URL `openstorekit serve` printed, such as http://127.0.0.1:41159")
        }
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.setValue("Bearer " + controlToken, forHTTPHeaderField: "Authorization")
        let answer = Mutex<(status: Int, body: Data, error: String?)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        session.dataTask(with: request) { data, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            answer.withLock { $0 = (status, data ?? Data(), error?.localizedDescription) }
            done.signal()
        }.resume()
        done.wait()
        guard let (status, body, failure) = answer.withLock({ $0 }) else {
            throw UsageError("\(url.absoluteString): no answer")
        }
        if let failure { throw UsageError("cannot reach the served store at \(trimmed) (--url): \(failure)") }
        guard status == 200 else {
            let text = String(decoding: body.prefix(300), as: UTF8.self)
            throw UsageError(
                "the served store at \(trimmed) answered \(status) to GET /openstorekit/v1/store: \(text)"
                    + (status == 401 ? "; check --control-token" : ""))
        }
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let milliseconds = (object["now"] as? NSNumber)?.doubleValue
        else {
            throw UsageError(
                "the served store at \(trimmed) did not give its clock (`now`) in GET /openstorekit/v1/store")
        }
        return ServedStore(
            now: Date(timeIntervalSince1970: milliseconds / 1000), bundleID: object["bundleId"] as? String)
    }
}
