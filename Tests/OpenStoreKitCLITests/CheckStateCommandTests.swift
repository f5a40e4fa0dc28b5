import Foundation
import OpenStoreKitCLI
import Testing

@Suite("openstorekit check-state")
struct CheckStateCommandTests {
    @Test("check-state passes a sound state file, names a damaged one, and writes nothing to either")
    func checksWithoutWriting() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openstorekit-check-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let feed = directory.appendingPathComponent("buy.feed")
        try Data("buy com.example.pro as pro\nexpect history 1\n".utf8).write(to: feed)
        let state = directory.appendingPathComponent("state.sqlite").path
        let made = runInProcess(["run", feed.path, "--state", state])
        #expect(made.code == 0, "\(made.err)")
        func listing() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                files[name] = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
            }
            return files
        }

        let before = try listing()
        let sound = runInProcess(["check-state", state])
        #expect(sound.code == 0, "\(sound.err)")
        #expect(sound.err == "\(state): ok\n")
        #expect(try listing() == before, "nothing was written")

        let bytes = try #require(FileManager.default.contents(atPath: state))
        let damaged = directory.appendingPathComponent("damaged.sqlite").path
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: damaged))
        let beforeDamaged = try listing()
        let refused = runInProcess(["check-state", damaged])
        #expect(refused.code == 1)
        #expect(refused.err.contains(damaged), "\(refused.err)")
        #expect(try listing() == beforeDamaged, "nothing was written")

        let missing = runInProcess(["check-state", directory.appendingPathComponent("none.sqlite").path])
        #expect(missing.code == 2)
        #expect(missing.err.contains("no such file"), "\(missing.err)")
    }
}
