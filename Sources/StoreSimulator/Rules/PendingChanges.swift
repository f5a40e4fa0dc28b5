/// The changes a store applied and has not yet told its change observers, kept under the store's lock in the order
/// they were applied. Nothing is kept (nor built) while nobody observes.
struct PendingChanges: Sendable {
    /// Whether any change observer is added.
    var isObserved = false
    /// The changes not yet told, oldest first.
    var changes: [StoreChange] = []
}
