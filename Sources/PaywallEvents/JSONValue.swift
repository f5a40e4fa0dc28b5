public import Foundation

// The free-form parts of event payloads (analytics parameters, an unknown onboarding event's parameters) are
// StoreModels' JSON values; code that imports PaywallEvents names them without importing StoreModels.
@_exported public import enum StoreModels.JSONValue

extension JSONValue {
    /// Parses JSON text.
    ///
    /// - Throws: ``PaywallEventsError`` `invalidEvent` naming what is wrong, when the data is not JSON.
    public init(parsing data: Data) throws(PaywallEventsError) {
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw PaywallEventsError(
                .invalidEvent,
                "the payload is not JSON (\(Self.reason(error))); send a JSON object such as {\"meta\": {...}}"
            )
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.underlyingError.map { "\($0)" } ?? context.debugDescription
        default:
            return "\(error)"
        }
    }
}
