import Foundation
import StoreModels
import Testing

@Suite("JSON values: one escaper, one writer")
struct JSONValueTests {
    @Test("Backslash, quote and control characters get their JSON escapes; U+007F and non-ASCII text stay as they are")
    func escapes() {
        #expect(JSONValue.escaped(#"a\b"#) == #"a\\b"#)
        #expect(JSONValue.escaped(#"say "hi""#) == #"say \"hi\""#)
        #expect(JSONValue.escaped("\n\r\t") == #"\n\r\t"#)
        #expect(JSONValue.escaped("\u{0}\u{1}\u{8}\u{C}\u{1B}\u{1F}") == #"\u0000\u0001\u0008\u000c\u001b\u001f"#)
        #expect(JSONValue.escaped("del\u{7F}") == "del\u{7F}")
        #expect(JSONValue.escaped("caf\u{E9} \u{1F600} \u{2028}") == "caf\u{E9} \u{1F600} \u{2028}")
        #expect(JSONValue.escaped("plain") == "plain")
        #expect(JSONValue.escaped("") == "")
    }

    @Test(
        "Every string is written as a JSON string that Foundation reads back as the same text",
        arguments: ["back\\slash", "quote\"", "\u{0}\u{1F}\u{7F}\u{80}", "caf\u{E9}", "\u{1F600}\u{2029}", ""])
    func roundTrip(text: String) throws {
        let written = JSONValue.string(text).jsonString
        let read = try JSONSerialization.jsonObject(with: Data(written.utf8), options: .fragmentsAllowed)
        #expect(read as? String == text, "\(written)")
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(written.utf8)) == .string(text))
    }

    @Test("Keys are sorted and escaped; numbers, flags and null are written as JSON writes them")
    func compact() {
        let value: JSONValue = [
            "b": [1, 2.5, true, false, nil], "a\"": "x", "c": ["d": .number(.infinity), "e": -3], "f": [:], "g": [],
        ]
        #expect(value.jsonString == #"{"a\"":"x","b":[1,2.5,true,false,null],"c":{"d":null,"e":-3},"f":{},"g":[]}"#)
        #expect(value.description == value.jsonString)
    }

    @Test("Pretty printing breaks lines and indents by two spaces")
    func pretty() {
        let value: JSONValue = ["a": [1, "two"], "b": [:], "c": ["d": true]]
        #expect(
            value.serialized(prettyPrinted: true) == """
                {
                  "a": [
                    1,
                    "two"
                  ],
                  "b": {},
                  "c": {
                    "d": true
                  }
                }
                """)
    }

    @Test("An object writer keeps members in the order they were added, and splices another's members")
    func orderedObject() {
        var inner = JSONObjectWriter()
        inner.add("z", 9_007_199_254_740_993)
        inner.add("a", .string("line\nbreak"))
        var object = JSONObjectWriter()
        #expect(object.isEmpty)
        object.add("second", object: inner)
        object.add("first", object: nil)
        object.add("raw", json: "1.10")
        object.add(contentsOf: inner)
        object.add(contentsOf: JSONObjectWriter())
        #expect(
            object.jsonString
                == #"{"second":{"z":9007199254740993,"a":"line\nbreak"},"first":null,"raw":1.10,"z":9007199254740993,"#
                + #""a":"line\nbreak"}"#)
        #expect(JSONObjectWriter().jsonString == "{}")
        var list = JSONObjectWriter()
        list.add("items", objects: [inner, JSONObjectWriter()])
        list.add("none", objects: [])
        #expect(list.jsonString == #"{"items":[{"z":9007199254740993,"a":"line\nbreak"},{}],"none":[]}"#)
        let members: [String: JSONValue] = ["b": 2, "a": 1, "id": "x", "c": ["z": 1, "y": 2]]
        #expect(
            JSONObjectWriter(members, keyOrder: ["id", "missing", "c"]).jsonString
                == #"{"id":"x","c":{"y":2,"z":1},"a":1,"b":2}"#)
    }

    @Test("Decoding keeps booleans, numbers and text apart")
    func decoding() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"a":true,"b":1,"c":"1","d":null}"#.utf8))
        #expect(value == ["a": true, "b": 1, "c": "1", "d": nil])
        #expect(value["b"]?.intValue == 1)
        #expect(value["c"]?.stringValue == "1")
        #expect(value["d"]?.nonNull == nil)
        #expect(value["a"]?.nonNull == true)
    }
}
