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
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = writeBytes(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    offset += written
                }
            }
        }
    }

    /// Why a write failed, such as "standard output: no space left on device"; nil when none did.
    var problem: String? {
        failure.withLock { $0 }.map { "\(name): \(OutputFile.describe($0))" }
    }
}

/// `write(2)`, not named `write` so the stream's method does not hide it.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
