import Foundation

/// What hears the answer to an ``SKProductsRequest``.
public protocol SKProductsRequestDelegate: SKRequestDelegate {
    /// The store answered; `requestDidFinish(_:)` follows right after.
    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse)
}
