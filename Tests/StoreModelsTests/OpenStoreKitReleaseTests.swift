import Foundation
import StoreModels
import Testing

@Suite("The release number")
struct OpenStoreKitReleaseTests {
    /// The repository's `CHANGELOG.md`.
    static let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("CHANGELOG.md")

    @Test("The release number is MAJOR.MINOR.PATCH")
    func form() {
        #expect(OpenStoreKitRelease.version.wholeMatch(of: /(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)/) != nil)
    }

    @Test("CHANGELOG.md's newest release is the release number")
    func changelog() throws {
        let text = try String(contentsOf: Self.changelog, encoding: .utf8)
        let releases = text.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: /## (\d+\.\d+\.\d+) - \d{4}-\d{2}-\d{2}/).map { String($0.1) }
        }
        #expect(releases.first == OpenStoreKitRelease.version, "releases in CHANGELOG.md: \(releases)")
    }
}
