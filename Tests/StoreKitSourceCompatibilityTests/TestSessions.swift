import StoreKit
import StoreKitTest

/// A test session over a `.storekit` file holding `configuration` (written for the call and removed once loaded), with
/// dialogs off, on a store of its own whose work runs on a queue named `label`.
func makeTestSession(_ configuration: String, label: String) throws -> SKTestSession {
    let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(UUID().uuidString).storekit")
    try Data(configuration.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let store = SimulatedStore(lane: .dispatch(DispatchQueue(label: label)))
    let session = try SKTestSession(contentsOf: url, store: store)
    session.disableDialogs = true
    return session
}
