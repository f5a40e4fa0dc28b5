import Foundation

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

    /// Runs `openssl arguments...` and returns its exit status and combined output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path ?? "/usr/bin/openssl")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
