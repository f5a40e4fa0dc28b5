public import Foundation

/// A `.storekit` file (format 5.0) written for the project's tests: one subscription group whose two subscriptions
/// carry win-back offers with each kind of condition.
///
/// Monthly (`com.example.winback.monthly`, 9.99 a month) has three offers: `wb.half` (4.99 a month for three months,
/// for customers who paid a month or more, one to six months after their subscription lapsed, once a year),
/// `wb.free` (a free month for customers who paid six months or more) and `wb.high` (six months for 19.99 up front,
/// high priority, no condition). Yearly (`com.example.winback.yearly`, 79.99 a year) has `wb.yearly` (a year for
/// 39.99 up front, no condition).
public enum WinBackFixture {
    /// The group's identifier.
    public static let groupID = "WB000001"
    /// The monthly subscription.
    public static let monthly = "com.example.winback.monthly"
    /// The yearly subscription.
    public static let yearly = "com.example.winback.yearly"

    /// The file's contents.
    public static let data = Data(text.utf8)

    /// The file's text.
    public static let text = """
        {
          "identifier" : "WB000000",
          "nonRenewingSubscriptions" : [ ],
          "products" : [ ],
          "settings" : { "_storefront" : "USA", "_locale" : "en_US" },
          "subscriptionGroups" : [
            {
              "id" : "WB000001",
              "localizations" : [ ],
              "name" : "Win-back",
              "subscriptions" : [
                {
                  "adHocOffers" : [ ],
                  "codeOffers" : [ ],
                  "displayPrice" : "9.99",
                  "familyShareable" : false,
                  "groupNumber" : 2,
                  "internalID" : "WB000002",
                  "introductoryOffer" : null,
                  "localizations" : [ { "description" : "Monthly", "displayName" : "Monthly", "locale" : "en_US" } ],
                  "productID" : "com.example.winback.monthly",
                  "recurringSubscriptionPeriod" : "P1M",
                  "referenceName" : "Monthly",
                  "subscriptionGroupID" : "WB000001",
                  "type" : "RecurringSubscription",
                  "winbackOffers" : [
                    {
                      "customerEligibilityPaidSubscriptionDurationInMonths" : 1,
                      "customerEligibilityTimeSinceLastSubscribedInMonths" : { "maximum" : 6, "minimum" : 1 },
                      "customerEligibilityWaitBetweenOffersInMonths" : 12,
                      "displayPrice" : "4.99",
                      "internalID" : "WB000003",
                      "numberOfPeriods" : 3,
                      "offerID" : "wb.half",
                      "paymentMode" : "payAsYouGo",
                      "priority" : "NORMAL",
                      "referenceName" : "Half price for three months",
                      "subscriptionPeriod" : "P1M"
                    },
                    {
                      "customerEligibilityPaidSubscriptionDurationInMonths" : 6,
                      "internalID" : "WB000004",
                      "numberOfPeriods" : 1,
                      "offerID" : "wb.free",
                      "paymentMode" : "free",
                      "referenceName" : "A free month",
                      "subscriptionPeriod" : "P1M"
                    },
                    {
                      "displayPrice" : "19.99",
                      "internalID" : "WB000005",
                      "numberOfPeriods" : 1,
                      "offerID" : "wb.high",
                      "paymentMode" : "payUpFront",
                      "priority" : "HIGH",
                      "referenceName" : "Six months up front",
                      "subscriptionPeriod" : "P6M"
                    }
                  ]
                },
                {
                  "adHocOffers" : [ ],
                  "codeOffers" : [ ],
                  "displayPrice" : "79.99",
                  "familyShareable" : false,
                  "groupNumber" : 1,
                  "internalID" : "WB000006",
                  "introductoryOffer" : null,
                  "localizations" : [ { "description" : "Yearly", "displayName" : "Yearly", "locale" : "en_US" } ],
                  "productID" : "com.example.winback.yearly",
                  "recurringSubscriptionPeriod" : "P1Y",
                  "referenceName" : "Yearly",
                  "subscriptionGroupID" : "WB000001",
                  "type" : "RecurringSubscription",
                  "winbackOffers" : [
                    {
                      "displayPrice" : "39.99",
                      "internalID" : "WB000007",
                      "numberOfPeriods" : 1,
                      "offerID" : "wb.yearly",
                      "paymentMode" : "payUpFront",
                      "referenceName" : "Half a year's price",
                      "subscriptionPeriod" : "P1Y"
                    }
                  ]
                }
              ]
            }
          ],
          "version" : { "major" : 5, "minor" : 0 }
        }
        """
}
