import StoreKit
