public import Foundation

/// What hears from an ``SKRequest``. Both methods are optional.
public protocol SKRequestDelegate: NSObjectProtocol {
    /// The request finished; nothing more comes after this.
    func requestDidFinish(_ request: SKRequest)
    /// The request failed; ``requestDidFinish(_:)`` is not called after this.
    func request(_ request: SKRequest, didFailWithError error: any Error)
}

extension SKRequestDelegate {
    /// Does nothing.
    public func requestDidFinish(_ request: SKRequest) {}
    /// Does nothing.
    public func request(_ request: SKRequest, didFailWithError error: any Error) {}
}
