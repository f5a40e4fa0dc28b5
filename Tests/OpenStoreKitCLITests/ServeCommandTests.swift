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
