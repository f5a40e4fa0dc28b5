/// A payload the store signed, with its JWS: what a caller needs to show the fields without decoding the JWS again.
public struct StoreSignedValue<Payload: Sendable & Hashable>: Sendable, Hashable {
    /// The compact JWS as the store hands it out (spoiled when ``SimulatedStore/jwsTampering`` says so).
    public let jwsRepresentation: String
    /// The payload that was signed, with its `signedDate` (an app transaction's `receiptCreationDate`).
    public let payload: Payload

    /// Creates a value.
    ///
    /// - Parameters:
    ///   - jwsRepresentation: The JWS.
    ///   - payload: The payload it carries.
    public init(jwsRepresentation: String, payload: Payload) {
        self.jwsRepresentation = jwsRepresentation
        self.payload = payload
    }
}
