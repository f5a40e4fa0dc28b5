import FeedRunner
import Foundation
import ReceiptKit

extension CommandLineTool {
    func receipt(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard let action = arguments.first else {
            throw UsageError("receipt needs an action: `openstorekit receipt verify FILE ...` or `receipt dump FILE`")
        }
        let rest = Array(arguments.dropFirst())
        switch action {
        case "verify": return try verifyReceipt(rest)
        case "dump": return try dumpReceipt(rest)
        case "-h", "--help":
            output.out(Help.command("receipt") ?? "")
            return 0
        default: throw UsageError("unknown receipt action \"\(action)\"; use verify or dump")
        }
    }

    private func verifyReceipt(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(
            arguments,
            command: "receipt verify",
            valued: ["--bundle-id", "--app-version", "--device-id", "--at"],
            flags: ["--allow-xcode", "--test-root", "--compact"],
            multi: ["--root"]
        )
        if printsHelp(options, for: "receipt verify") { return 0 }
        guard options.operands.count == 1, let file = options.operands.first else {
            throw UsageError("receipt verify needs exactly one receipt file")
        }
        let roots = try options.trustedRootPaths(for: "receipt verify")
        var verification = ReceiptVerificationOptions(
            bundleIdentifier: options.values["--bundle-id"],
            applicationVersion: options.values["--app-version"],
            allowsXcodeReceipts: options.flags.contains("--allow-xcode")
        )
        switch try options.verificationMoment() {
        case .creation: verification.time = .creationDate
        case .now: verification.time = .now
        case .date(let date): verification.time = .date(date)
        }
        if let device = options.values["--device-id"] {
            do throws(ReceiptError) {
                verification.deviceIdentifier = try DeviceIdentifier(parsing: device)
            } catch {
                throw UsageError("--device-id takes a UUID or a 12-digit hexadecimal MAC address, not \"\(device)\"")
            }
        }
        try InputFile.mustExist(file)
        try InputFile.mustExist(roots, option: "--root")
        let pretty = !options.flags.contains("--compact")
        do throws(ReceiptError) {
            let certificates = try roots.map { (path) throws(ReceiptError) -> X509Certificate in
                try ReceiptFile.readCertificate(atPath: path)
            }
            let verifier = try ReceiptVerifier(
                trustedRoots: certificates, trustsTestRoot: options.flags.contains("--test-root"))
            let bytes = try ReceiptFile.readReceipt(atPath: file)
            let verified = try verifier.verify(bytes, options: verification)
            output.out(ReceiptJSON.document(for: verified.receipt, verified: true, prettyPrinted: pretty) + "\n")
            return 0
        } catch {
            output.out(ReceiptJSON.error(error, prettyPrinted: pretty) + "\n")
            return 1
        }
    }

    private func dumpReceipt(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(arguments, command: "receipt dump", flags: ["--compact"])
        if printsHelp(options, for: "receipt dump") { return 0 }
        guard options.operands.count == 1, let file = options.operands.first else {
            throw UsageError("receipt dump needs exactly one receipt file")
        }
        try InputFile.mustExist(file)
        let pretty = !options.flags.contains("--compact")
        do throws(ReceiptError) {
            let bytes = try ReceiptFile.readReceipt(atPath: file)
            let receipt = try AppReceipt(unverifiedReceipt: bytes)
            output.out(ReceiptJSON.document(for: receipt, verified: false, prettyPrinted: pretty) + "\n")
            return 0
        } catch {
            output.out(ReceiptJSON.error(error, prettyPrinted: pretty) + "\n")
            return 1
        }
    }
}
