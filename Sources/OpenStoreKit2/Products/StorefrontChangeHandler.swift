/// The closure of a purchase's `onStorefrontChange(shouldContinuePurchase:)` option, compared by identity so that the
/// option stays `Hashable`.
final class StorefrontChangeHandler: Hashable, Sendable {
    let shouldContinuePurchase: @Sendable (Storefront) -> Bool

    init(_ shouldContinuePurchase: @escaping @Sendable (Storefront) -> Bool) {
        self.shouldContinuePurchase = shouldContinuePurchase
    }

    static func == (lhs: StorefrontChangeHandler, rhs: StorefrontChangeHandler) -> Bool { lhs === rhs }

    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
