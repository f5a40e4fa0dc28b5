import Foundation
import Synchronization

/// Runs the `openssl` command-line tool, when it is installed, to cross-check ReceiptKit against OpenSSL itself.
enum OpenSSLCommand {
    /// The path of `openssl` on `PATH`, or nil.
    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(
            String.init)
        for directory in directories + ["/usr/bin", "/usr/local/bin"] {
            let candidate = directory + "/openssl"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// Whether the tool is available.
    static var isAvailable: Bool { path != nil }

    /// How long one `openssl` run may take before the test gives up on it.
    static let timeLimit: TimeInterval = 60

    /// Runs `openssl arguments...` and returns its exit status and combined output; a run that takes longer than
    /// ``timeLimit`` is terminated and throws, so a stuck tool fails the test instead of hanging it.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path ?? "/usr/bin/openssl")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let output = Mutex(Data())
        let drained = DispatchSemaphore(value: 0)
        try process.run()
        DispatchQueue.global().async {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            output.withLock { $0 = data }
            drained.signal()
        }
        guard exited.wait(timeout: .now() + timeLimit) == .success else {
            process.terminate()
            throw TimedOut(arguments: arguments)
        }
        _ = drained.wait(timeout: .now() + timeLimit)
        return (process.terminationStatus, String(decoding: output.withLock { $0 }, as: UTF8.self))
    }

    /// An `openssl` run that did not finish within ``timeLimit``.
    struct TimedOut: Error, CustomStringConvertible {
        let arguments: [String]
        var description: String { "openssl \(arguments.joined(separator: " ")) did not finish in \(timeLimit) seconds" }
    }
}
