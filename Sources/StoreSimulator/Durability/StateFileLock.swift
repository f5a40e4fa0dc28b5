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
///
/// The lock file is opened without following a symbolic link (`O_NOFOLLOW`), and is written only once it is known to
/// be a regular file with no other name (one link): a link planted at its path, or a hard link to another file, is
/// refused, so that taking the lock never truncates or writes a file other than its own.
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
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
            guard descriptor >= 0 else {
                let failure = errno
                if failure == ELOOP { throw Self.notAFile(statePath: statePath, lockPath: path, "a symbolic link") }
                let reason = String(cString: strerror(failure))
                throw StoreSimulatorError(
                    .stateUnavailable,
                    "\(statePath) cannot be opened: its lock file \(path) cannot be created (\(reason)). The state "
                        + "file's directory must be writable.")
            }
            if let problem = Self.problem(descriptor, checkingNames: false) {
                close(descriptor)
                throw Self.notAFile(statePath: statePath, lockPath: path, problem)
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
            // Only now: a file its releasing owner has just removed has no name left, and is retried above.
            if let problem = Self.problem(descriptor, checkingNames: true) {
                close(descriptor)
                throw Self.notAFile(statePath: statePath, lockPath: path, problem)
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

    /// Why the file open at `descriptor` cannot be a lock file, if it cannot: it is not a regular file, or (with
    /// `checkingNames`) it has other names (a hard link to another file, which writing the pid would overwrite).
    private static func problem(_ descriptor: Int32, checkingNames: Bool) -> String? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return "a file whose status cannot be read" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
        guard !checkingNames || info.st_nlink == 1 else {
            return "a file with \(info.st_nlink) names (a hard link to another file)"
        }
        return nil
    }

    /// The error for a lock file that is not one this store can take: it would follow a link, or write to a file
    /// that is not its own.
    private static func notAFile(statePath: String, lockPath: String, _ what: String) -> StoreSimulatorError {
        StoreSimulatorError(
            .stateUnavailable,
            "\(statePath) cannot be opened: its lock file \(lockPath) is \(what), which a lock file never is, and it "
                + "was not opened or written. Remove \(lockPath) (and find out who made it); the state file was not "
                + "changed.")
    }

    /// Whether `descriptor` is the file now at `path` (and not one removed since it was opened).
    private static func isAtPath(_ descriptor: Int32, _ path: String) -> Bool {
        var open = stat()
        var current = stat()
        guard fstat(descriptor, &open) == 0, lstat(path, &current) == 0 else { return false }
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
