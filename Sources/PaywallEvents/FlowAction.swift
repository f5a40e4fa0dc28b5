public import Foundation
import StoreModels

/// What the user did on a presented screen, reported through `flowController(_:didPerform:)`.
///
/// Its JSON form is `{"type": "close"}`, `{"type": "open_url", "url": "..."}` or `{"type": "custom", "id": "..."}`.
public enum FlowAction: Sendable, Hashable {
    /// The user tapped close. By default the controller is dismissed.
    case close
    /// The user tapped a link. By default the host is asked to open it.
    case openURL(URL)
    /// The user tapped a button with a custom action identifier set in the builder. Nothing happens by default.
    case custom(id: String)

    /// The JSON form.
    public var jsonString: String { jsonObject.jsonString }

    var jsonObject: JSONObjectWriter {
        var object = JSONObjectWriter()
        switch self {
        case .close:
            object.add("type", .string("close"))
        case .openURL(let url):
            object.add("type", .string("open_url"))
            object.add("url", .string(url.absoluteString))
        case .custom(let id):
            object.add("type", .string("custom"))
            object.add("id", .string(id))
        }
        return object
    }
}
