import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The ownership of a state file by one store: an exclusive `flock` on `<state file>.lock`, a file beside it holding
/// the owner's process id.
///
/// The kernel drops the lock when its descriptor is closed, so it goes away when the owning process ends, however it
/// ends (`kill -9` included): a lock file left by a dead process does not block anyone, and the next owner takes it
/// over. `flock` locks belong to the open file description, not to the process, so a second store in the same
/// process is refused too, and they are independent of the POSIX (`fcntl`) locks SQLite takes on the database
/// files. The descriptor is opened close-on-exec, so child processes never inherit the lock. The lock file is
/// removed when the lock is released.
final class StateFileLock {
    /// The lock file: the state file's path with `.lock` appended.
    let path: String
    private let descriptor: Int32

    /// Takes the lock of the state file at `statePath` (absolute), without waiting.
    /// - Throws: `stateUnavailable` naming the state file and the process that holds it, or why the lock file cannot
    ///   be created.
    init(statePath: String) throws(StoreSimulatorError) {
        let path = statePath + ".lock"
        // A lock file removed (by its releasing owner) between opening and locking it is not the lock any more:
        // start again on the file now at the path. Each turn follows a release, so a few are plenty.
        for _ in 0..<100 {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                throw StoreSimulatorError(
                    .stateUnavailable,
                    "\(statePath) cannot be opened: its lock file \(path) cannot be created (\(reason)). The state "
                        + "file's directory must be writable.")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let failure = errno
                let holder = Self.holder(descriptor)
                close(descriptor)
                guard failure == EWOULDBLOCK || failure == EAGAIN else {
                    throw StoreSimulatorError(
                        .stateUnavailable,
                        "\(statePath) cannot be opened: locking \(path) failed (\(String(cString: strerror(failure))))."
                    )
                }
                throw Self.inUse(statePath: statePath, lockPath: path, holder: holder)
            }
            guard Self.isAtPath(descriptor, path) else {
                close(descriptor)
                continue
            }
            let record = Array("\(getpid())\n".utf8)
            _ = ftruncate(descriptor, 0)
            _ = record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            self.path = path
            self.descriptor = descriptor
            return
        }
        throw StoreSimulatorError(
            .stateUnavailable,
            "\(statePath) cannot be opened: its lock file \(path) keeps being replaced by other processes.")
    }

    deinit {
        // Remove the file first: a process that opened it meanwhile finds it gone once it gets the lock, and retries.
        unlink(path)
        close(descriptor)
    }

    /// The process id written in the lock file open at `descriptor`, if it reads as one.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text)
    }

    /// Whether `descriptor` is the file now at `path` (and not one removed since it was opened).
    private static func isAtPath(_ descriptor: Int32, _ path: String) -> Bool {
        var open = stat()
        var current = stat()
        guard fstat(descriptor, &open) == 0, stat(path, &current) == 0 else { return false }
        return open.st_dev == current.st_dev && open.st_ino == current.st_ino
    }

    /// The error for a state file another store holds.
    private static func inUse(statePath: String, lockPath: String, holder: Int32?) -> StoreSimulatorError {
        if let holder, holder == getpid() {
            return StoreSimulatorError(
                .stateUnavailable,
                "\(statePath) is already open in another store of this process (pid \(holder)); close() that store "
                    + "first.")
        }
        let process = holder.map { "process \($0)" } ?? "another process"
        return StoreSimulatorError(
            .stateUnavailable,
            "\(statePath) is in use by \(process), which holds its lock file \(lockPath). One process owns a state "
                + "file at a time: wait for that process to end or stop it, or use another state file. The file was "
                + "not changed.")
    }
}
