import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output or standard error of the process, written with `write(2)`: a failed write (a full disk, a
/// closed descriptor) is kept, not trapped on, so the command can report it; later writes are dropped.
final class StandardStream: Sendable {
    /// The descriptor, `STDOUT_FILENO` or `STDERR_FILENO`.
    let descriptor: Int32
    /// The stream's name in messages, such as "standard output".
    let name: String
    private let failure = Mutex<Int32?>(nil)

    /// The process's standard output.
    static let output = StandardStream(descriptor: STDOUT_FILENO, name: "standard output")
    /// The process's standard error.
    static let error = StandardStream(descriptor: STDERR_FILENO, name: "standard error")

    private init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// Writes all of `text`, unless an earlier write failed.
    func write(_ text: String) {
        failure.withLock { failure in
            guard failure == nil else { return }
            var text = text
            failure = text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
        }
    }

    /// Why a write failed, such as "standard output: no space left on device"; nil when none did.
    var problem: String? {
        failure.withLock { $0 }.map { "\(name): \(OutputFile.describe($0))" }
    }
}
