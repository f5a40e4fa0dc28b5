import FeedRunner
import Foundation

/// A JUnit XML report of feed runs, one test case per feed.
struct JUnitReport {
    let feeds: [String]
    let results: [Int: Result<FeedResult, FeedError>]

    var xml: String {
        var failures = 0
        var errors = 0
        var cases = ""
        for (index, feed) in feeds.enumerated() {
            let name = escape(feed)
            switch results[index] {
            case .success(let result):
                if let failure = result.failure {
                    failures += 1
                    cases += "    <testcase classname=\"openstorekit.feeds\" name=\"\(name)\">\n"
                    cases +=
                        "      <failure message=\"\(escape(failure.description))\">\(escape(failure.description))</failure>\n"
                    cases += "    </testcase>\n"
                } else {
                    cases += "    <testcase classname=\"openstorekit.feeds\" name=\"\(name)\"/>\n"
                }
            case .failure(let error):
                errors += 1
                cases += "    <testcase classname=\"openstorekit.feeds\" name=\"\(name)\">\n"
                cases += "      <error message=\"\(escape(error.message))\">\(escape(error.description))</error>\n"
                cases += "    </testcase>\n"
            case nil:
                break
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites tests="\(feeds.count)" failures="\(failures)" errors="\(errors)">
              <testsuite name="openstorekit" tests="\(feeds.count)" failures="\(failures)" errors="\(errors)">
            \(cases)  </testsuite>
            </testsuites>

            """
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
