// StoreKit 1's types are Foundation classes (`NSObject` subclasses and protocols, `Date`, `Decimal`, `Locale`): as
// Apple's StoreKit does, importing the module imports Foundation, so an app's observer written as on iOS
// (`final class Purchaser: NSObject, SKPaymentTransactionObserver`) compiles with `import OpenStoreKit` alone.
@_exported public import Foundation
