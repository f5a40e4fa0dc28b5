import Foundation
import ReceiptKit
import StoreModels
import StoreSimulator
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ServeCommandTests {
    #if Server
        @Test func servesPrintsItsURLFirstAndStopsCleanlyOnSIGTERM() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let keyFile = directory.file("AuthKey_TEST.p8")
            try Data(try ES256Key.generate().pemEncoded.utf8).write(to: URL(fileURLWithPath: keyFile))
            let state = directory.file("state.sqlite")
            let child = try ChildProcess(
                [
                    "serve", "--port", "0", "--state", state, "--api-key", "TEST=\(keyFile)", "--issuer-id", "issuer",
                    "--control-token", "secret",
                ], errorLog: directory.file("stderr"))
            let first = try #require(child.readLine(within: 60))
            #expect(first.range(of: #"^http://127\.0\.0\.1:[0-9]+$"#, options: .regularExpression) != nil)
            // swift-format-ignore: NeverForceUnwrap
            var request = URLRequest(url: URL(string: first + "/openstorekit/v1/purchases")!)
            request.httpMethod = "POST"
            request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
            request.httpBody = Data(#"{"productId":"com.example.pro"}"#.utf8)
            request.timeoutInterval = 30
            let (data, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let id = try #require(
                (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["transactionId"] as? String)
            kill(child.pid, SIGTERM)
            #expect(child.waitForExit() == 0)
            let reopened = try SimulatedStore(statePath: state, lane: .manual)
            defer { try? reopened.close() }
            #expect(reopened.transaction(try #require(UInt64(id)))?.productID == "com.example.pro")
        }

        @Test func aSIGTERMSentTheMomentTheURLShowsStopsTheServerCleanly() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            for trial in 0..<8 {
                let state = directory.file("state\(trial).sqlite")
                let child = try ChildProcess(
                    ["serve", "--port", "0", "--state", state], errorLog: directory.file("stderr\(trial)"))
                let first = try #require(child.readLine(within: 60))
                #expect(first.hasPrefix("http://127.0.0.1:"))
                kill(child.pid, SIGTERM)
                // Standard output ends when the process does; a server that went on would be killed after 30 s.
                while child.readLine(within: 30) != nil {}
                #expect(!child.timedOut, "trial \(trial)")
                #expect(child.waitForExit() == 0, "trial \(trial)")
            }
        }

        @Test func refusesARemoteAddressWithoutTheFlag() {
            let run = runInProcess(["serve", "--host", "0.0.0.0"])
            #expect(run.code == 2)
            #expect(run.err.contains("--allow-remote"))
            #expect(run.out.isEmpty)
        }

        @Test func refusesAnUnknownRateLimitOrDeliveryModeAndTakesTheKnownOnes() {
            let limits = runInProcess(["serve", "--rate-limits", "fast"])
            #expect(limits.code == 2)
            #expect(limits.err.contains(#"--rate-limits takes apple or sandbox, not "fast""#))
            let delivery = runInProcess(["serve", "--delivery", "never"])
            #expect(delivery.code == 2)
            #expect(delivery.err.contains(#"--delivery takes production or sandbox, not "never""#))
            // Known values pass: what stops these is the remote address, checked after them.
            for arguments in [["--rate-limits", "apple"], ["--rate-limits", "sandbox"], ["--delivery", "sandbox"]] {
                let run = runInProcess(["serve"] + arguments + ["--host", "0.0.0.0"])
                #expect(run.code == 2)
                #expect(run.err.contains("--allow-remote"), "\(arguments)")
            }
            let help = runInProcess(["help", "serve"])
            #expect(help.out.contains("--rate-limits apple|sandbox"))
            #expect(help.out.contains("--delivery production|sandbox"))
        }

        @Test func refusesAnUnreadableAPIKey() {
            let run = runInProcess(["serve", "--api-key", "K=/nonexistent/key.p8"])
            #expect(run.code == 2)
            #expect(run.err.contains("/nonexistent/key.p8"))
        }

        @Test func refusesAKeyOrConfigurationLargerThanItsBoundFromItsSize() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            // Sparse: their size is what counts, and no byte of them is read.
            let key = directory.file("AuthKey_BIG.p8")
            try sparseFile(key, size: 1 << 20)
            let keyRun = runInProcess(["serve", "--api-key", "K=\(key)"])
            #expect(keyRun.code == 2)
            #expect(keyRun.err.contains("more than the 65536 bytes (64 KiB) a key file may hold"), "\(keyRun.err)")
            let configuration = directory.file("Big.storekit")
            try sparseFile(configuration, size: 17 << 20)
            let configurationRun = runInProcess(["serve", "--config", configuration])
            #expect(configurationRun.code == 2)
            #expect(
                configurationRun.err.contains("more than the 16777216 bytes (16 MiB) a .storekit file may hold"),
                "\(configurationRun.err)")
        }

        @Test func aRefusedNotificationHistoryLeavesNoStateFileBehind() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let state = directory.file("st.sqlite")
            try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: state + ".notifications"))
            let run = runInProcess(["serve", "--port", "0", "--state", state])
            #expect(run.code == 2)
            #expect(run.err.contains("\(state).notifications, line 1: not a notification record"), "\(run.err)")
            #expect(!FileManager.default.fileExists(atPath: state))
            #expect(try String(contentsOfFile: state + ".notifications", encoding: .utf8) == "garbage\n")
        }

        @Test func consumptionInformationAndAMassExtensionOutliveARestartOnTheStateFile() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let key = try ES256Key.generate()
            let keyFile = directory.file("AuthKey_TEST.p8")
            try Data(key.pemEncoded.utf8).write(to: URL(fileURLWithPath: keyFile))
            let state = directory.file("state.sqlite")
            func serve(_ run: Int) throws -> (ChildProcess, Served) {
                let child = try ChildProcess(
                    [
                        "serve", "--port", "0", "--state", state, "--api-key", "TEST=\(keyFile)", "--issuer-id",
                        "issuer", "--control-token", "secret",
                    ], errorLog: directory.file("stderr\(run)"))
                return (child, Served(base: try #require(child.readLine(within: 60)), key: key))
            }
            let (first, served) = try serve(1)
            let coins = try #require(
                try await served.send("POST", "/openstorekit/v1/purchases", #"{"productId":"com.example.coins100"}"#)
                    .object["transactionId"] as? String)
            _ = try await served.send(
                "POST", "/openstorekit/v1/purchases", #"{"productId":"com.example.premium.monthly"}"#)
            let consumption =
                #"{"customerConsented":true,"sampleContentProvided":true,"deliveryStatus":"DELIVERED","consumptionPercentage":70000}"#
            #expect(
                try await served.send("PUT", "/inApps/v2/transactions/consumption/\(coins)", consumption).status == 202)
            let mass =
                #"{"extendByDays":5,"extendReasonCode":2,"requestIdentifier":"spring","productId":"com.example.premium.monthly"}"#
            #expect(try await served.send("POST", "/inApps/v1/subscriptions/extend/mass", mass).status == 200)
            let statusPath = "/inApps/v1/subscriptions/extend/mass/com.example.premium.monthly/spring"
            let consumptionPath = "/openstorekit/v1/transactions/\(coins)/consumption"
            let status = try await served.send("GET", statusPath)
            #expect(status.status == 200)
            #expect(status.object["succeededCount"] as? Int == 1)
            let kept = try await served.send("GET", consumptionPath)
            #expect(kept.object["consumptionPercentage"] as? Int == 70000)
            kill(first.pid, SIGTERM)
            #expect(first.waitForExit() == 0)

            let (second, again) = try serve(2)
            let statusAgain = try await again.send("GET", statusPath)
            #expect(statusAgain.status == 200)
            #expect(String(decoding: statusAgain.body, as: UTF8.self) == String(decoding: status.body, as: UTF8.self))
            let keptAgain = try await again.send("GET", consumptionPath)
            #expect(keptAgain.status == 200)
            #expect(String(decoding: keptAgain.body, as: UTF8.self) == String(decoding: kept.body, as: UTF8.self))
            kill(second.pid, SIGTERM)
            #expect(second.waitForExit() == 0)
        }

        /// A served store seen from a test: the control API with its token, the App Store Server API with tokens
        /// minted on the store's clock.
        private struct Served {
            let base: String
            let key: ES256Key

            /// Sends a request, with the control token under the control API's paths and an API token otherwise.
            func send(_ method: String, _ path: String, _ body: String? = nil) async throws -> (
                status: Int, body: Data, object: [String: Any]
            ) {
                var authorization = "Bearer secret"
                if path.hasPrefix("/inApps/") {
                    let store = try await send("GET", "/openstorekit/v1/store").object
                    let now = try #require(store["now"] as? Int)
                    let token = ServerAPIToken(
                        keyID: "TEST", issuerID: "issuer", bundleID: "com.example.app",
                        issuedAt: Date(timeIntervalSince1970: Double(now) / 1000))
                    authorization = "Bearer " + (try token.signed(with: key))
                }
                var request = URLRequest(url: try #require(URL(string: base + path)), timeoutInterval: 30)
                request.httpMethod = method
                request.setValue(authorization, forHTTPHeaderField: "Authorization")
                request.httpBody = body.map { Data($0.utf8) }
                let (data, response) = try await URLSession.shared.data(for: request)
                let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
                return ((response as? HTTPURLResponse)?.statusCode ?? 0, data, object)
            }
        }

        /// Makes a file of `size` bytes that takes no room on disk.
        private func sparseFile(_ path: String, size: UInt64) throws {
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: size)
            try handle.close()
        }
    #else
        @Test func withoutTheTraitSaysWhatToInstallAndHowToRebuild() {
            let run = runInProcess(["serve", "--port", "0"])
            #expect(run.code == 2)
            #expect(run.err.contains("apt-get install -y libmicrohttpd-dev"))
            #expect(run.err.contains("swift build --traits Server"))
            #expect(run.out.isEmpty)
        }
    #endif
}
