import Foundation
import ReceiptKit
import Testing

@Suite("Signed payloads' billing plans and commitments (App Store Server API 1.21)")
struct JWSCommitmentInfoTests {
    @Test("A transaction's billingPlanType and commitmentInfo decode with Apple's keys and encode back")
    func transaction() throws {
        let json = """
            {"transactionId":"23456","billingPlanType":"MONTHLY","commitmentInfo":{"billingPeriodNumber":3,\
            "commitmentExpiresDate":1798761600000,"commitmentPrice":71880,"totalBillingPeriods":12}}
            """
        let payload = try JSONDecoder().decode(JWSTransaction.self, from: Data(json.utf8))
        #expect(payload.billingPlanType == .monthly)
        let commitment = try #require(payload.commitmentInfo)
        #expect(commitment.billingPeriodNumber == 3)
        #expect(commitment.totalBillingPeriods == 12)
        #expect(commitment.commitmentPrice == 71_880)
        #expect(commitment.commitmentExpiresDate?.date == Date(timeIntervalSince1970: 1_798_761_600))
        let again = try JSONDecoder().decode(JWSTransaction.self, from: JSONEncoder().encode(payload))
        #expect(again == payload)
        let upFront = try JSONDecoder().decode(
            JWSTransaction.self, from: Data(#"{"billingPlanType":"BILLED_UPFRONT"}"#.utf8))
        #expect(upFront.billingPlanType == .billedUpfront && upFront.commitmentInfo == nil)
    }

    @Test("A renewal info's renewalBillingPlanType and commitmentInfo decode with Apple's keys")
    func renewalInfo() throws {
        let json = """
            {"renewalBillingPlanType":"MONTHLY","commitmentInfo":{"commitmentAutoRenewProductId":"pro.yearly",\
            "commitmentAutoRenewStatus":1,"commitmentRenewalBillingPlanType":"BILLED_UPFRONT",\
            "commitmentRenewalDate":1798761600000,"commitmentRenewalPrice":59990}}
            """
        let payload = try JSONDecoder().decode(JWSRenewalInfo.self, from: Data(json.utf8))
        #expect(payload.renewalBillingPlanType == .monthly)
        let commitment = try #require(payload.commitmentInfo)
        #expect(commitment.commitmentAutoRenewProductId == "pro.yearly")
        #expect(commitment.commitmentAutoRenewStatus == .on)
        #expect(commitment.commitmentRenewalBillingPlanType == .billedUpfront)
        #expect(commitment.commitmentRenewalDate?.date == Date(timeIntervalSince1970: 1_798_761_600))
        #expect(commitment.commitmentRenewalPrice == 59_990)
        #expect(try JSONDecoder().decode(JWSRenewalInfo.self, from: JSONEncoder().encode(payload)) == payload)
    }
}
