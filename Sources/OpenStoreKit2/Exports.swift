// StoreKit 2's values are made of Foundation's (`Date`, `Data`, `UUID`, `Decimal`, `Locale`): as Apple's StoreKit
// does, importing the module imports Foundation, so a store class written as on iOS compiles with this import alone.
@_exported public import Foundation
