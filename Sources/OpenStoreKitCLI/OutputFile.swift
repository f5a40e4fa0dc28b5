import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where one output option (`--log`, `--junit`, `--receipt-out`, `--output`, a `--log-dir` file) writes, worked out
/// before anything is written. Every output of the command goes through it:
///
/// - `-` is standard output;
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` write to that descriptor of the process, as a
///   shell redirection would;
/// - an existing FIFO or character device (`/dev/null`, a terminal) is written through, never replaced;
/// - a regular file, or a new one, is replaced atomically: the output goes to a temporary file in the same directory,
///   renamed over the path once complete, so a reader sees the old file or the new one and never a part; an existing
///   file the user may not write (`access(2)`, as a shell redirection would check) is refused;
/// - a symbolic link is followed: a link to a regular file replaces that file (the link stays a link), a link to a
///   FIFO or device writes through to it; a link to nothing is refused;
/// - a directory, a block device or a socket is refused, as is a path that names one of the command's inputs.
struct OutputFile {
    /// How the output reaches its file.
    enum Destination: Equatable {
        /// The tool's standard output.
        case standardOutput
        /// A descriptor the process already has open.
        case descriptor(Int32)
        /// An existing FIFO or character device, opened and written through.
        case writeThrough(String)
        /// A regular file (existing or new) replaced atomically at this path.
        case replace(String)
    }

    /// The option, such as `--log`.
    let option: String
    /// What is written, such as "the event log".
    let what: String
    /// The path as given.
    let path: String
    /// Where it goes.
    let destination: Destination
    /// Which file it is, to compare with the inputs and other outputs.
    let identity: FileIdentity

    /// Works out where `path` writes; throws when it cannot be written.
    init(_ path: String, option: String, what: String) throws(UsageError) {
        self.option = option
        self.what = what
        self.path = path
        let failure = { (reason: String) in UsageError("cannot write \(what) (\(option)) to \(path): \(reason)") }
        if path == "-" {
            destination = .standardOutput
            identity = .standardOutput
            return
        }
        if let descriptor = Self.descriptor(named: path) {
            guard fcntl(descriptor, F_GETFD) != -1 else {
                throw failure("descriptor \(descriptor) is not open")
            }
            destination = .descriptor(descriptor)
            identity = descriptor == STDOUT_FILENO ? .standardOutput : FileIdentity(path: path)
            return
        }
        guard !path.isEmpty else { throw UsageError("\(option) needs a file name, not an empty one") }
        var link = stat()
        guard lstat(path, &link) == 0 else {
            let code = errno
            guard code == ENOENT || code == ENOTDIR else { throw failure(Self.describe(code)) }
            try Self.checkDirectory(of: path, failure: failure)
            destination = .replace(path)
            identity = FileIdentity(path: path)
            return
        }
        var info = link
        if link.st_mode & S_IFMT == S_IFLNK {
            guard stat(path, &info) == 0 else {
                throw failure(
                    "it is a symbolic link to a file that does not exist; create the file or give its path instead")
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard access(path, W_OK) == 0 else {
                throw failure(
                    "it is not writable (\(Self.describe(errno))); make it writable (chmod u+w) or give another file")
            }
            guard link.st_mode & S_IFMT == S_IFLNK else {
                try Self.checkDirectory(of: path, failure: failure)
                destination = .replace(path)
                break
            }
            guard let resolved = realpath(path, nil) else { throw failure(Self.describe(errno)) }
            let target = String(cString: resolved)
            free(resolved)
            try Self.checkDirectory(of: target, failure: failure)
            destination = .replace(target)
        case S_IFIFO, S_IFCHR:
            destination = .writeThrough(path)
        case S_IFDIR:
            throw failure("it is a directory; name a file in it")
        case S_IFBLK:
            throw failure("it is a block device; openstorekit does not write to disks")
        default:
            throw failure("it is a socket or another special file; name a regular file, a FIFO or a device")
        }
        identity = FileIdentity(path: path)
    }

    /// A new regular file at `path` in a directory the command creates once every output has been checked.
    init(inNewDirectory path: String, option: String, what: String) {
        self.option = option
        self.what = what
        self.path = path
        destination = .replace(path)
        identity = FileIdentity(path: path)
    }

    /// Throws when this output is one of `inputs`, each a path and what it is, naming the path ("the feed x.feed").
    func checkNotAmong(_ inputs: [(what: String, path: String)]) throws(UsageError) {
        for input in inputs where FileIdentity(path: input.path) == identity {
            throw UsageError(
                "\(option) \(path) is \(input.what): writing \(what) there would destroy it; give \(option) another file"
            )
        }
    }

    /// Throws when two of `outputs` name the same file.
    static func checkDistinct(_ outputs: [OutputFile]) throws(UsageError) {
        for (index, output) in outputs.enumerated() {
            for earlier in outputs[..<index] where earlier.identity == output.identity {
                throw UsageError(
                    "\(earlier.option) \(earlier.path) and \(output.option) \(output.path) name the same file; "
                        + "give each its own")
            }
        }
    }

    /// Opens the output for writing; `standardOutput` receives what goes to `-`.
    func open(standardOutput: @escaping (Data) -> Void) throws(UsageError) -> OutputFileWriter {
        try OutputFileWriter(self, standardOutput: standardOutput)
    }

    /// Writes `data` as the whole output.
    func write(_ data: Data, standardOutput: @escaping (Data) -> Void) throws(UsageError) {
        let writer = try open(standardOutput: standardOutput)
        writer.write(data)
        try writer.commit()
    }

    /// The descriptor a path such as `/dev/stdout` or `/dev/fd/3` stands for.
    private static func descriptor(named path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// Throws unless the directory of `path` exists and can take a new file.
    private static func checkDirectory(of path: String, failure: (String) -> UsageError) throws(UsageError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var info = stat()
        guard stat(directory, &info) == 0 else {
            throw failure("its directory \(directory) \(errno == ENOENT ? "does not exist" : describe(errno))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw failure("\(directory) is not a directory") }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw failure("its directory \(directory) is not writable (\(describe(errno)))")
        }
    }

    /// The system's text for an error number.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
