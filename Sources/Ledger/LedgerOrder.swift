/// The order in which `LedgerReadTransaction.all(in:order:)` and `LedgerReadTransaction.forEach(in:order:_:)`
/// return a collection's records.
public struct LedgerOrder: Hashable, Sendable, CustomStringConvertible {
    private enum Backing: Hashable { case key, insertion }
    private let backing: Backing

    /// By key, comparing the keys' UTF-8 bytes (so `"B" < "a"`, and `"item-10" < "item-9"`).
    public static let key = LedgerOrder(backing: .key)

    /// By first insertion: the order in which the keys were first put. Replacing a value keeps its place; a key
    /// that is removed and put again moves to the end.
    public static let insertion = LedgerOrder(backing: .insertion)

    /// `key` or `insertion`.
    public var description: String { String(describing: backing) }
}
