import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open ``OutputFile``: bytes written go to standard output, through to a FIFO or device, or into a temporary
/// file that ``commit()`` renames over the destination. A writer that is not committed leaves the destination as it
/// was (a replaced file) and removes its temporary file.
final class OutputFileWriter {
    private let output: OutputFile
    private let standardOutput: (Data) -> Void
    private var descriptor: Int32 = -1
    private var ownsDescriptor = false
    private var temporaryPath: String?
    private var target: String?
    private var failure: Int32?
    private var finished = false

    /// The process's file-creation mask, read once (``CommandLineTool/run(_:)`` reads it first, before any thread
    /// could create a file while it is briefly changed).
    static let creationMask: mode_t = {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()

    init(_ output: OutputFile, standardOutput: @escaping (Data) -> Void) throws(UsageError) {
        self.output = output
        self.standardOutput = standardOutput
        switch output.destination {
        case .standardOutput:
            break
        case .descriptor(let number):
            descriptor = number
        case .writeThrough(let path):
            descriptor = openForWriting(path)
            guard descriptor >= 0 else { throw error(OutputFile.describe(errno)) }
            ownsDescriptor = true
        case .replace(let path):
            let url = URL(fileURLWithPath: path)
            let template = url.deletingLastPathComponent().appendingPathComponent(
                ".\(url.lastPathComponent).openstorekit-XXXXXX"
            ).path
            var bytes = Array(template.utf8CString)
            descriptor = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { throw error(OutputFile.describe(errno)) }
            ownsDescriptor = true
            temporaryPath = String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            target = path
            var existing = stat()
            if stat(path, &existing) == 0 {
                // The replacement keeps the file's owner (where allowed) and mode.
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
                _ = fchmod(descriptor, existing.st_mode & 0o7777)
            } else {
                _ = fchmod(descriptor, 0o666 & ~Self.creationMask)
            }
        }
    }

    deinit {
        if !finished { discard() }
    }

    /// Writes `data`; a failure is reported by ``commit()``.
    func write(_ data: Data) {
        guard !data.isEmpty, failure == nil else { return }
        guard descriptor >= 0 else { return standardOutput(data) }
        failure = data.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    /// Completes the output: closes it and, for a replaced file, renames the temporary file over the destination.
    func commit() throws(UsageError) {
        guard !finished else { return }
        if let failure {
            discard()
            throw error(OutputFile.describe(failure))
        }
        finished = true
        if let temporaryPath, let target {
            let synced = fsync(descriptor) == 0 ? 0 : errno
            let closed = close(descriptor) == 0 ? 0 : errno
            descriptor = -1
            let problem = synced != 0 ? synced : closed
            guard problem == 0, rename(temporaryPath, target) == 0 else {
                let code = problem != 0 ? problem : errno
                unlink(temporaryPath)
                throw error(OutputFile.describe(code))
            }
        } else if ownsDescriptor {
            let closed = close(descriptor)
            descriptor = -1
            if closed != 0 { throw error(OutputFile.describe(errno)) }
        }
    }

    /// Abandons the output: a replaced file stays as it was.
    func discard() {
        finished = true
        if ownsDescriptor, descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if let temporaryPath { unlink(temporaryPath) }
    }

    private func error(_ reason: String) -> UsageError {
        UsageError("cannot write \(output.what) (\(output.option)) to \(output.path): \(reason)")
    }
}

/// `open(2)` for writing to an existing file, not named `open` so the writer's methods do not hide it.
private func openForWriting(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_CLOEXEC)
}
