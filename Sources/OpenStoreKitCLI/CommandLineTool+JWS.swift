import FeedRunner
import Foundation
import ReceiptKit

extension CommandLineTool {
    func jws(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard let action = arguments.first else {
            throw UsageError("jws needs an action: `openstorekit jws verify FILE... --root CERT` or `jws decode FILE`")
        }
        let rest = Array(arguments.dropFirst())
        switch action {
        case "verify": return try verifyJWS(rest)
        case "decode": return try decodeJWS(rest)
        case "-h", "--help":
            output.out(Help.command("jws") ?? "")
            return 0
        default: throw UsageError("unknown jws action \"\(action)\"; use verify or decode")
        }
    }

    private func verifyJWS(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(
            arguments,
            command: "jws verify",
            valued: ["--bundle-id", "--environment", "--at"],
            flags: ["--allow-xcode", "--test-root", "--no-strict", "--compact"],
            multi: ["--root"]
        )
        if printsHelp(options, for: "jws verify") { return 0 }
        guard !options.operands.isEmpty else { throw UsageError("jws verify needs at least one JWS file") }
        let roots = try options.trustedRootPaths(for: "jws verify")
        var verification = JWSVerificationOptions(
            bundleIdentifier: options.values["--bundle-id"],
            allowsXcode: options.flags.contains("--allow-xcode"),
            strictChecks: !options.flags.contains("--no-strict")
        )
        if let environment = options.values["--environment"] {
            let known: [JWSEnvironment] = [.sandbox, .production, .xcode, .localTesting]
            guard let match = known.first(where: { $0.rawValue == environment }) else {
                throw UsageError(
                    "--environment takes Sandbox, Production, Xcode or LocalTesting, not \"\(environment)\"")
            }
            verification.environment = match
        }
        switch try options.verificationMoment() {
        case .creation: verification.time = .signedDate
        case .now: verification.time = .now
        case .date(let date): verification.time = .date(date)
        }
        try InputFile.mustExist(options.operands)
        try InputFile.mustExist(roots, option: "--root")
        let pretty = !options.flags.contains("--compact")
        let verifier: JWSVerifier
        do throws(ReceiptError) {
            var certificates = try roots.map { (path) throws(ReceiptError) -> X509Certificate in
                try ReceiptFile.readCertificate(atPath: path)
            }
            if options.flags.contains("--test-root") { certificates.append(.openStoreKitJWSTestRoot) }
            verifier = try JWSVerifier(trustedRoots: certificates)
        } catch {
            output.out(ReceiptJSON.error(error, prettyPrinted: pretty) + "\n")
            return 1
        }
        var code: Int32 = 0
        for file in options.operands {
            do throws(ReceiptError) {
                let jws = try CompactJWS(contentsOfFile: file)
                let verified: VerifiedJWS
                do throws(ReceiptError) {
                    verified = try verifier.verify(jws, options: verification)
                } catch {
                    throw error.inFile(file)
                }
                output.out(JWSJSON.document(for: verified, file: file, prettyPrinted: pretty) + "\n")
            } catch {
                output.out(ReceiptJSON.error(error, prettyPrinted: pretty) + "\n")
                code = 1
            }
        }
        return code
    }

    private func decodeJWS(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(arguments, command: "jws decode", flags: ["--compact"])
        if printsHelp(options, for: "jws decode") { return 0 }
        guard options.operands.count == 1, let file = options.operands.first else {
            throw UsageError("jws decode needs exactly one JWS file")
        }
        try InputFile.mustExist(file)
        let pretty = !options.flags.contains("--compact")
        do throws(ReceiptError) {
            let jws = try CompactJWS(contentsOfFile: file)
            output.out(JWSJSON.document(for: jws, file: file, prettyPrinted: pretty) + "\n")
            return 0
        } catch {
            output.out(ReceiptJSON.error(error, prettyPrinted: pretty) + "\n")
            return 1
        }
    }
}
