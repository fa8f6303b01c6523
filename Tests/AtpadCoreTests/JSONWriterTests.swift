import Testing
@testable import AtpadCore

@Suite("JSONWriter")
struct JSONWriterTests {
    /// A value with every kind in it, nested.
    private let nested: JSONValue = [
        "name": "Ann", "n": -12, "ok": true, "none": .null,
        "list": [1, "two", [], [:], [false]],
        "inner": ["x": .number(1.5), "y": ["z": []]],
    ]

    private func read(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try JSONReader.value(of: $0) }
    }

    @Test func compactLayout() {
        #expect(JSONWriter.text(nested, layout: .compact)
            == #"{"name":"Ann","n":-12,"ok":true,"none":null,"list":[1,"two",[],{},[false]],"inner":{"x":1.5,"y":{"z":[]}}}"#)
    }

    @Test func spacedLayout() {
        #expect(JSONWriter.text(nested)
            == #"{"name": "Ann", "n": -12, "ok": true, "none": null, "list": [1, "two", [], {}, [false]], "inner": {"x": 1.5, "y": {"z": []}}}"#)
    }

    @Test func linesLayoutBreaksOnlyTheOuterLevels() {
        #expect(JSONWriter.text(nested, layout: .lines(depth: 2, indent: 2)) == """
            {
              "name": "Ann",
              "n": -12,
              "ok": true,
              "none": null,
              "list": [
                1,
                "two",
                [],
                {},
                [false]
              ],
              "inner": {
                "x": 1.5,
                "y": {"z": []}
              }
            }
            """)
        // One item a line, not indented: the list cache.
        #expect(JSONWriter.text([["a": 1], ["b": [2, 3]]], layout: .lines(depth: 1, indent: 0)) == """
            [
            {"a": 1},
            {"b": [2, 3]}
            ]
            """)
    }

    @Test func emptyContainersStayOnOneLineInEveryLayout() {
        for layout in [JSONWriter.Layout.compact, .spaced, .lines(depth: 3, indent: 2)] {
            #expect(JSONWriter.text([], layout: layout) == "[]")
            #expect(JSONWriter.text([:], layout: layout) == "{}")
        }
    }

    @Test func membersKeepTheirOrder() {
        #expect(JSONWriter.text(["z": 1, "a": 2, "m": 3], layout: .compact) == #"{"z":1,"a":2,"m":3}"#)
    }

    @Test func stringsAndKeysAreEscapedByJSONText() {
        let s = "q\" b\\ n\n t\t r\r b\u{08} f\u{0C} nul\u{00} esc\u{1B} us\u{1F} del\u{7F} ls\u{2028} ps\u{2029}"
        let escaped = #""q\" b\\ n\n t\t r\r b\b f\f nul\u0000 esc\u001b us\u001f del\u007f ls\u2028 ps\u2029""#
        #expect(JSONText.quote(s) == escaped)
        #expect(JSONWriter.text(.string(s)) == escaped)
        #expect(JSONWriter.text(.object([(s, .array([.string(s)]))]), layout: .compact) == "{\(escaped):[\(escaped)]}")
        var bytes = Array(s.utf8)
        let fromBytes = bytes.withUnsafeMutableBufferPointer { buffer in
            JSONWriter.text { $0.string(utf8: UnsafeBufferPointer(buffer)) }
        }
        #expect(fromBytes == escaped)
    }

    @Test func nonASCIIIsWrittenAsItIs() {
        let s = "é e\u{301} 王 👩‍💻 שלום \u{80} \u{A0} \u{2027} \u{202A} / <>&'"
        #expect(JSONWriter.text(.string(s)) == "\"" + s + "\"")
    }

    @Test func numbers() {
        let text = JSONWriter.text { writer in
            writer.array { writer in
                for n in [0, 7, -1, 1_000_000, Int.max, Int.min] { writer.number(n) }
                writer.number(literal: "12.345")
            }
        }
        #expect(text == "[0, 7, -1, 1000000, 9223372036854775807, -9223372036854775808, 12.345]")
        #expect(JSONWriter.text([.number(1.0), .number(1_700_000_000.5), .number(0.5), .number(7)])
            == "[1.0, 1700000000.5, 0.5, 7]")
    }

    @Test func optionalStringsAreNullWhenMissing() {
        let text = JSONWriter.text { writer in
            writer.object { writer in
                writer.key("a")
                writer.string(String?.none)
                writer.key("b")
                writer.string(String?.some("x"))
            }
        }
        #expect(text == #"{"a": null, "b": "x"}"#)
        #expect(JSONWriter.text([.string(orNull: nil), .string(orNull: "y")]) == #"[null, "y"]"#)
    }

    @Test func rawJSONIsWrittenAsItIs() {
        let inner = JSONWriter.utf8(["type": "doc"])
        let text = JSONWriter.text { writer in
            writer.object { writer in
                writer.key("body")
                writer.raw(inner)
                writer.key("after")
                writer.bool(false)
            }
        }
        #expect(text == #"{"body": {"type": "doc"}, "after": false}"#)
    }

    @Test func piecesAndValuesWriteTheSame() {
        let pieces = JSONWriter.text(layout: .lines(depth: 2, indent: 4)) { writer in
            writer.object { writer in
                writer.key("name")
                writer.string("Ann")
                writer.key("n")
                writer.number(-12)
                writer.key("ok")
                writer.bool(true)
                writer.key("none")
                writer.null()
                writer.key("list")
                writer.array { writer in
                    writer.number(1)
                    writer.string("two")
                    writer.array { _ in }
                    writer.object { _ in }
                    writer.value([false])
                }
                writer.key("inner")
                writer.value(["x": .number(1.5), "y": ["z": []]])
            }
        }
        #expect(pieces == JSONWriter.text(nested, layout: .lines(depth: 2, indent: 4)))
    }

    @Test func aReadValueIsWrittenBackInItsLayout() throws {
        let spaced = #"{"a": [1, -2.5e10, true, null, "\"q\" \\ \n \u001b"], "b": {}, "c": {"d": "王"}}"#
        #expect(JSONWriter.text(try read(spaced)) == spaced)
        let compact = #"{"a":[1,{"b":[]}],"c":"x"}"#
        #expect(JSONWriter.text(try read(compact), layout: .compact) == compact)
        // Escapes the escaper does not write come back in its own spelling.
        #expect(JSONWriter.text(try read(#"["\/\u00e9\u0041"]"#)) == #"["/éA"]"#)
    }

    @Test func writtenJSONReadsBack() throws {
        let scalars: [Unicode.Scalar] = (0 ... 0x7F).map { Unicode.Scalar(UInt8($0)) } + ["\u{2028}", "王", "👍"]
        let controls = String(String.UnicodeScalarView(scalars))
        for layout in [JSONWriter.Layout.compact, .spaced, .lines(depth: 2, indent: 2)] {
            let value = try read(JSONWriter.text(.object([(controls, .array([.string(controls), 3, ["k": .null]]))]), layout: layout))
            guard case .object(let members) = value.kind, members.count == 1, members[0].key == controls,
                  case .array(let elements) = members[0].value.kind, elements.count == 3,
                  case .string(let text) = elements[0].kind
            else {
                Issue.record("not read back in \(layout)")
                continue
            }
            #expect(text == controls)
        }
    }
}
