import AtpadCore
import Testing
@testable import AtpadDirectory
@testable import AtpadSystem

/// items, map and exclude (docs/directories.md, "Connect your directory") on JSON values,
/// without any source around them.
@Suite struct EntityMappingTests {
    private func json(_ text: String) throws -> JSONValue {
        try JSONDocument.parse(Array(text.utf8))
    }

    private func entities(_ mapping: EntityMapping, _ document: String) throws -> (entities: [Entity], incomplete: Int) {
        try mapping.entities(of: try mapping.items(of: try json(document)))
    }

    @Test func pathsLookUpAWholeKeyFirstThenSplitAtDots() throws {
        let item = try json(#"{"@odata.nextLink": "u", "profile": {"title": "T", "a.b": "dotted"}, "list": [{"x": 1}, {"x": 2}]}"#)
        #expect(JSONPath("@odata.nextLink").lookup(in: item)?.scalarText() == .text("u"))
        #expect(JSONPath("profile.title").lookup(in: item)?.scalarText() == .text("T"))
        #expect(JSONPath("profile.a.b").lookup(in: item)?.scalarText() == .text("dotted"))
        #expect(JSONPath("list.1.x").lookup(in: item)?.scalarText() == .text("2"))
        #expect(JSONPath("profile.missing").lookup(in: item) == nil)
        #expect(JSONPath("list.7").lookup(in: item) == nil)
    }

    @Test func alternativesTakeTheFirstPresentNonEmptyValue() throws {
        let mapping = try EntityMapping(items: "members", map: ["name": "profile.real_name // real_name // name"])
        let result = try entities(mapping, #"""
            {"members": [
              {"id": "1", "name": "a", "real_name": "Ann", "profile": {"real_name": ""}},
              {"id": "2", "name": "b", "profile": {"real_name": null}},
              {"id": "3", "name": "c", "profile": {"real_name": "Cy"}}
            ]}
            """#)
        #expect(result.entities.map(\.name) == ["Ann", "b", "Cy"])
    }

    @Test func templatesFillPartsAndNumbersAndBooleansBecomeText() throws {
        let mapping = try EntityMapping(map: ["id": "id", "detail": "{title} · {team}", "url": "https://x.test/{login}"])
        let result = try entities(mapping, #"""
            [{"id": 42, "name": "A", "title": "Eng", "team": "Core", "login": "a"},
             {"id": 7, "name": "B", "title": "PM", "admin": true},
             {"id": 8, "name": "C"}]
            """#)
        #expect(result.entities.map(\.id) == ["42", "7", "8"])
        #expect(result.entities.map(\.detail) == ["Eng · Core", "PM · ", nil])
        #expect(result.entities.map(\.url) == ["https://x.test/a", nil, nil])
    }

    @Test func unmappedFieldsKeepTheirOwnNames() throws {
        let mapping = try EntityMapping(map: ["id": "login"])
        let result = try entities(mapping, #"[{"login": "mona", "name": "Mona", "handle": "m", "detail": "d", "url": "u"}]"#)
        #expect(result.entities == [Entity(id: "mona", name: "Mona", handle: "m", detail: "d", url: "u")])
    }

    @Test func excludedItemsAreSkippedAndIncompleteOnesCounted() throws {
        let mapping = try EntityMapping(items: "", map: ["id": "login", "name": "name // login"], exclude: ["deleted", "flags.bot"])
        let result = try entities(mapping, #"""
            [{"login": "a"}, {"login": "b", "deleted": true}, {"login": "c", "flags": {"bot": true}},
             {"login": "d", "deleted": false}, {"name": "No login"}, {"login": ""}]
            """#)
        #expect(result.entities.map(\.id) == ["a", "d"])
        #expect(result.incomplete == 2)
        #expect(EntityMapping.skippedNote(2) == "2 items without id or name skipped")
        #expect(EntityMapping.skippedNote(1) == "1 item without id or name skipped")
    }

    @Test func anItemsPathThatIsMissingOrNotAnArrayFailsClearly() throws {
        let mapping = try EntityMapping(items: "data.people")
        #expect(throws: SourceError("items \"data.people\" is not in the answer")) { try mapping.items(of: try json("{\"data\": {}}")) }
        #expect(throws: SourceError("items \"data.people\" is an object, not an array")) {
            try mapping.items(of: try json("{\"data\": {\"people\": {}}}"))
        }
        #expect(throws: SourceError("the answer is a string, not an array")) { try EntityMapping(map: ["id": "x"]).items(of: try json("\"x\"")) }
    }

    @Test func aMapPathToAnObjectFailsNamingTheFieldAndItem() throws {
        let mapping = try EntityMapping(map: ["name": "profile"])
        #expect(throws: SourceError("map name = \"profile\": item 2 has an object there, not a value")) {
            try entities(mapping, #"[{"id": "1", "name": "x", "profile": "ok"}, {"id": "2", "profile": {"a": 1}}]"#)
        }
    }

    @Test func malformedJSONNamesTheLine() {
        #expect(throws: SourceError.self) { try JSONDocument.parse(Array("{\n\"a\": [1,\n".utf8)) }
        do {
            _ = try JSONDocument.parse(Array("{\n\"a\": [1,\n".utf8))
        } catch {
            #expect(error.message.hasPrefix("malformed JSON, line 3: "), "\(error.message)")
        }
    }

    @Test func theMapOptionSplitsAtCommasBeforeAField() throws {
        #expect(try EntityMapping.parseMapOption("id=login,name=name//login,detail={title}, {team}") ==
            ["id": "login", "name": "name//login", "detail": "{title}, {team}"])
        #expect(throws: SourceError.self) { try EntityMapping.parseMapOption("id=a,nick=b") }
        #expect(throws: SourceError.self) { try EntityMapping.parseMapOption("login") }
        #expect(throws: SourceError.self) { try EntityMapping(map: ["insert": "x", "nick": "y"]) }
    }

    @Test func aBodyGetsItsCursorMemberSetOrReplaced() throws {
        let body = try json(#"{"query": "jo", "after": "old", "n": [1, true, null]}"#)
        #expect(JSONDocument.text(of: body, setting: "after", to: "c\"2") == #"{"query":"jo","n":[1,true,null],"after":"c\"2"}"#)
        #expect(JSONDocument.text(of: try json("[1]"), setting: "after", to: "x") == nil)
    }

    @Test func aCursorReplacesItsQueryParameter() {
        #expect(URLSource.url("http://h/p?limit=2", setting: "cursor", to: "a b=") == "http://h/p?limit=2&cursor=a%20b%3D")
        #expect(URLSource.url("http://h/p?cursor=old&x=1", setting: "cursor", to: "new") == "http://h/p?x=1&cursor=new")
        #expect(URLSource.url("http://h/p", setting: "cursor", to: "c") == "http://h/p?cursor=c")
    }
}
