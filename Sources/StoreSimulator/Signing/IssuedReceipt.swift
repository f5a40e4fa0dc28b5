import Foundation
import ReceiptKit

/// A signed receipt and the contents it was signed from.
struct IssuedReceipt: Sendable {
    let contents: AppReceipt
    let bytes: [UInt8]
}
