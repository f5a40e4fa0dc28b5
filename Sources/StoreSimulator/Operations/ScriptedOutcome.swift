public import StoreModels

/// The outcome a test chooses for a coming purchase.
public enum ScriptedOutcome: Sendable, Hashable {
    /// The purchase goes through.
    case succeed
    /// The purchase fails with this error (`.paymentCancelled` for a customer who cancels).
    case fail(StoreFailure)
    /// The purchase waits for a parent's approval (Ask to Buy).
    case askToBuy
    /// The purchase is interrupted (fails) until the issue is resolved.
    case interrupt
}
