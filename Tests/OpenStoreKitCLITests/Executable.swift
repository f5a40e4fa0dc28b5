import Dispatch
import Foundation
import Synchronization

/// What a run of the `openstorekit` executable printed, and how it ended.
struct ExecutableRun {
    let code: Int32
    let out: Data
    let err: Data

    var stdout: String { String(decoding: out, as: UTF8.self) }
    var stderr: String { String(decoding: err, as: UTF8.self) }
}

/// A failure to run the executable.
struct ExecutableError: Error, CustomStringConvertible {
    let description: String
}

/// The `openstorekit` executable of this build: next to the test bundle (the test target depends on it).
func openstorekitPath() throws -> String {
    var candidates: [String] = []
    if let test = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        candidates.append(
            URL(fileURLWithPath: test).deletingLastPathComponent().appendingPathComponent("openstorekit").path)
    }
    if let main = Bundle.main.executableURL {
        candidates.append(main.deletingLastPathComponent().appendingPathComponent("openstorekit").path)
    }
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        candidates.append(
            URL(fileURLWithPath: bundle.bundlePath).deletingLastPathComponent().appendingPathComponent("openstorekit")
                .path)
    }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw ExecutableError(
            description: "no openstorekit executable next to the tests (looked at \(candidates)); "
                + "build it with `swift build`")
    }
    return found
}

/// Runs `openstorekit` with `arguments` in `directory` (the system's temporary directory by default, so that a stray
/// relative output never lands in the checkout), with no standard input, and waits at most `timeout` seconds.
/// Standard output goes to `standardOutput` when given (and is then not captured). With `user`, the test running as
/// root runs the executable as that user (through `setpriv`), so that permission checks apply to it.
func openstorekit(
    _ arguments: [String], in directory: URL? = nil, standardOutput: FileHandle? = nil, user: uid_t? = nil,
    timeout: Double = 120
) throws -> ExecutableRun {
    let process = Process()
    if let user {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments =
            ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", try openstorekitPath()] + arguments
    } else {
        process.executableURL = URL(fileURLWithPath: try openstorekitPath())
        process.arguments = arguments
    }
    process.currentDirectoryURL = directory ?? FileManager.default.temporaryDirectory
    let outPipe = Pipe()
    let errPipe = Pipe()
    process.standardOutput = standardOutput ?? outPipe
    process.standardError = errPipe
    process.standardInput = FileHandle.nullDevice
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    if standardOutput != nil { try outPipe.fileHandleForWriting.close() }
    let captured = Mutex<(out: Data, err: Data)>((Data(), Data()))
    let reading = DispatchGroup()
    for (pipe, isOut) in [(outPipe, true), (errPipe, false)] {
        DispatchQueue.global().async(group: reading) {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            captured.withLock { if isOut { $0.out = data } else { $0.err = data } }
        }
    }
    guard exited.wait(timeout: .now() + timeout) == .success else {
        process.terminate()
        throw ExecutableError(description: "openstorekit \(arguments) did not finish within \(timeout) s")
    }
    guard reading.wait(timeout: .now() + timeout) == .success else {
        throw ExecutableError(description: "the output of openstorekit \(arguments) did not end")
    }
    let (out, err) = captured.withLock { $0 }
    return ExecutableRun(code: process.terminationStatus, out: out, err: err)
}
