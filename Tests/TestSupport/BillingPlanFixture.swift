public import Foundation

/// A `.storekit` file (format 5.0) written for the project's tests: a yearly subscription with two billing plans, and
/// a monthly one with none.
///
/// Annual (`com.example.plan.annual`, 119.99 a year, a free week for new subscribers) offers `BILLED_UPFRONT` at
/// 119.99 and `MONTHLY` at 9.99 a month for a commitment of 119.88. Monthly (`com.example.plan.monthly`, 12.99 a
/// month) names no billing plans.
public enum BillingPlanFixture {
    /// The group's identifier.
    public static let groupID = "BP000001"
    /// The yearly subscription with billing plans.
    public static let annual = "com.example.plan.annual"
    /// The monthly subscription without billing plans.
    public static let monthly = "com.example.plan.monthly"

    /// The file's contents.
    public static let data = Data(text.utf8)

    /// The file's text, with `plans` as the annual subscription's `billingPlans` value.
    public static func text(plans: String = defaultPlans, period: String = "P1Y") -> String {
        """
        {
          "identifier" : "BP000000",
          "nonRenewingSubscriptions" : [ ],
          "products" : [ ],
          "settings" : { "_storefront" : "USA", "_locale" : "en_US" },
          "subscriptionGroups" : [
            {
              "id" : "BP000001",
              "localizations" : [ ],
              "name" : "Plans",
              "subscriptions" : [
                {
                  "adHocOffers" : [ ],
                  "billingPlans" : \(plans),
                  "codeOffers" : [ ],
                  "displayPrice" : "119.99",
                  "familyShareable" : false,
                  "groupNumber" : 1,
                  "internalID" : "BP000002",
                  "introductoryOffer" : {
                    "billingPlanType" : "BILLED_UPFRONT",
                    "internalID" : "BP000003",
                    "numberOfPeriods" : 1,
                    "paymentMode" : "free",
                    "subscriptionPeriod" : "P1W"
                  },
                  "localizations" : [ { "description" : "Annual", "displayName" : "Annual", "locale" : "en_US" } ],
                  "productID" : "com.example.plan.annual",
                  "recurringSubscriptionPeriod" : "\(period)",
                  "referenceName" : "Annual",
                  "subscriptionGroupID" : "BP000001",
                  "type" : "RecurringSubscription",
                  "winbackOffers" : [ ]
                },
                {
                  "adHocOffers" : [ ],
                  "codeOffers" : [ ],
                  "displayPrice" : "12.99",
                  "familyShareable" : false,
                  "groupNumber" : 2,
                  "internalID" : "BP000004",
                  "introductoryOffer" : null,
                  "localizations" : [ { "description" : "Monthly", "displayName" : "Monthly", "locale" : "en_US" } ],
                  "productID" : "com.example.plan.monthly",
                  "recurringSubscriptionPeriod" : "P1M",
                  "referenceName" : "Monthly",
                  "subscriptionGroupID" : "BP000001",
                  "type" : "RecurringSubscription",
                  "winbackOffers" : [ ]
                }
              ]
            }
          ],
          "version" : { "major" : 5, "minor" : 0 }
        }
        """
    }

    /// The annual subscription's plans: up front at 119.99, monthly at 9.99 for 119.88.
    public static let defaultPlans = """
        [
          { "billingPlanType" : "BILLED_UPFRONT", "commitmentDisplayPrice" : "119.99", "displayPrice" : "119.99",
            "internalID" : "BP000005", "isEnabled" : true },
          { "billingPlanType" : "MONTHLY", "commitmentDisplayPrice" : "119.88", "displayPrice" : "9.99",
            "internalID" : "BP000006", "isEnabled" : true }
        ]
        """

    /// The file's default text.
    public static let text = text()
}
