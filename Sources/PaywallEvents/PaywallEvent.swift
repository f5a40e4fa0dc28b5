public import Purchases
import StoreModels

/// One delegate callback of a flow or paywall controller, with its payload: what a conformance checker records and
/// an event log prints.
///
/// The name of each case is the callback's (``name``); its JSON form is an object whose `event` member is that name,
/// followed by the payload in the specification's shapes (``jsonString``), for example
/// `{"event": "didFinishPurchase", "product": {...}, "purchaseResult": {"type": "cancelled"}}`.
public enum PaywallEvent: Sendable, Hashable {
    /// `flowControllerDidAppear(_:)`.
    case didAppear
    /// `flowControllerDidDisappear(_:)`.
    case didDisappear
    /// `flowController(_:didPerform:)`.
    case didPerformAction(FlowAction)
    /// `flowController(_:didSelectProduct:)`.
    case didSelectProduct(PaywallProduct)
    /// `flowController(_:didStartPurchase:)`.
    case didStartPurchase(PaywallProduct)
    /// `flowController(_:didFinishPurchase:purchaseResult:)`.
    case didFinishPurchase(PaywallProduct, PurchaseResult)
    /// `flowController(_:didFailPurchase:error:)`.
    case didFailPurchase(PaywallProduct, PaywallEventsError)
    /// `flowControllerDidStartRestore(_:)`.
    case didStartRestore
    /// `flowController(_:didFinishRestoreWith:)`.
    case didFinishRestore(Profile)
    /// `flowController(_:didFailRestoreWith:)`.
    case didFailRestore(PaywallEventsError)
    /// `flowController(_:didReceiveError:)`: a rendering error or a runtime error of the flow's script (4105).
    case didReceiveError(PaywallEventsError)
    /// `flowController(_:didFailLoadingProductsWith:)`.
    case didFailLoadingProducts(PaywallEventsError)
    /// `flowController(_:didPartiallyLoadProducts:)`: the identifiers that failed to load.
    case didPartiallyLoadProducts([String])
    /// `flowController(_:didFinishWebPaymentNavigation:error:)`.
    case didFinishWebPaymentNavigation(PaywallProduct?, PaywallEventsError?)
    /// `flowController(_:didReceiveAnalyticEvent:params:)`.
    case didReceiveAnalyticEvent(name: String, params: [String: JSONValue])
    /// `paywallController(_:didFailRenderingWith:)` (single-screen paywalls only).
    case didFailRendering(PaywallEventsError)
    /// `paywallController(_:shouldContinueWebPaymentNavigation:)` (single-screen paywalls only).
    case shouldContinueWebPaymentNavigation(PaywallProduct?)
    /// `paywallController(_:didFailWebPaymentNavigation:error:)` (single-screen paywalls only).
    case didFailWebPaymentNavigation(PaywallProduct?, PaywallEventsError)

    /// The callback's name: `didAppear`, `didFinishPurchase`, `didReceiveAnalyticEvent`, ...
    public var name: String {
        switch self {
        case .didAppear: "didAppear"
        case .didDisappear: "didDisappear"
        case .didPerformAction: "didPerformAction"
        case .didSelectProduct: "didSelectProduct"
        case .didStartPurchase: "didStartPurchase"
        case .didFinishPurchase: "didFinishPurchase"
        case .didFailPurchase: "didFailPurchase"
        case .didStartRestore: "didStartRestore"
        case .didFinishRestore: "didFinishRestore"
        case .didFailRestore: "didFailRestore"
        case .didReceiveError: "didReceiveError"
        case .didFailLoadingProducts: "didFailLoadingProducts"
        case .didPartiallyLoadProducts: "didPartiallyLoadProducts"
        case .didFinishWebPaymentNavigation: "didFinishWebPaymentNavigation"
        case .didReceiveAnalyticEvent: "didReceiveAnalyticEvent"
        case .didFailRendering: "didFailRendering"
        case .shouldContinueWebPaymentNavigation: "shouldContinueWebPaymentNavigation"
        case .didFailWebPaymentNavigation: "didFailWebPaymentNavigation"
        }
    }

    /// Every callback name, in declaration order.
    public static let names = [
        "didAppear", "didDisappear", "didPerformAction", "didSelectProduct", "didStartPurchase", "didFinishPurchase",
        "didFailPurchase", "didStartRestore", "didFinishRestore", "didFailRestore", "didReceiveError",
        "didFailLoadingProducts", "didPartiallyLoadProducts", "didFinishWebPaymentNavigation",
        "didReceiveAnalyticEvent", "didFailRendering", "shouldContinueWebPaymentNavigation",
        "didFailWebPaymentNavigation",
    ]

    /// Whether this is one of the purchase callbacks observer mode never calls.
    public var isPurchaseCallback: Bool {
        switch self {
        case .didStartPurchase, .didFinishPurchase, .didFailPurchase: true
        default: false
        }
    }

    /// The JSON form: `event`, then the payload members in the specification's shapes.
    public var jsonString: String { jsonObject.jsonString }

    var jsonObject: JSONObjectWriter {
        var object = JSONObjectWriter()
        object.add("event", .string(name))
        func add(product value: PaywallProduct?) { object.add("product", object: value?.jsonObject) }
        func add(error value: PaywallEventsError?) { object.add("error", object: value?.jsonObject) }
        switch self {
        case .didAppear, .didDisappear, .didStartRestore:
            break
        case .didPerformAction(let action):
            object.add("action", object: action.jsonObject)
        case .didSelectProduct(let value), .didStartPurchase(let value):
            add(product: value)
        case .didFinishPurchase(let value, let result):
            add(product: value)
            object.add("purchaseResult", object: result.jsonObject)
        case .didFailPurchase(let value, let failure):
            add(product: value)
            add(error: failure)
        case .didFinishRestore(let profile):
            object.add("profile", object: profile.specificationJSON)
        case .didFailRestore(let failure), .didReceiveError(let failure), .didFailLoadingProducts(let failure),
            .didFailRendering(let failure):
            add(error: failure)
        case .didPartiallyLoadProducts(let ids):
            object.add("failedIds", .array(ids.map(JSONValue.string)))
        case .didFinishWebPaymentNavigation(let value, let failure):
            add(product: value)
            add(error: failure)
        case .didReceiveAnalyticEvent(let name, let params):
            object.add("name", .string(name))
            object.add("params", .object(params))
        case .shouldContinueWebPaymentNavigation(let value):
            add(product: value)
        case .didFailWebPaymentNavigation(let value, let failure):
            add(product: value)
            add(error: failure)
        }
        return object
    }
}
