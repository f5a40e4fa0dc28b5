import Foundation
import StoreModels

extension StoreKitError {
    /// The StoreKit 2 error of a store failure that is not about a purchase's own parameters.
    init(_ failure: StoreFailure) {
        switch failure.code {
        case .paymentCancelled, .overlayCancelled: self = .userCancelled
        case .cloudServiceNetworkConnectionFailed: self = .networkError(URLError(.notConnectedToInternet))
        case .storeProductNotAvailable: self = .notAvailableInStorefront
        case .clientInvalid, .unauthorizedRequestData: self = .notEntitled
        case .unsupportedPlatform: self = .unsupported
        default: self = .systemError(failure)
        }
    }
}
