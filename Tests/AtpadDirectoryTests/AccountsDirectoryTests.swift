import AtpadCore
import Foundation
import Testing
@testable import AtpadDirectory
@testable import AtpadSystem
import AtpadTestSupport

/// An entity's `email` and `accounts` (docs/people.md, "One person, many accounts")
/// wherever entities are read: JSON, NDJSON, CSV (`accounts.slack` columns), a source's
/// JSON through a map, the on-disk index and the list cache.
@Suite struct AccountsDirectoryTests {
    static let john = Entity(id: "p1", name: "John Doe", handle: "john", email: "john@example.com", accounts: [
        .github: "jdoe", .gitlab: "jdoe-gl", .slack: "U0123", .jira: "5b10ac8d", .zulip: "42", .matrix: "@jdoe:example.org",
    ])
    static let ann = Entity(id: "p2", name: "Ann Lee", accounts: [.slack: "U0456"])

    static let json = """
        [{"id": "p1", "name": "John Doe", "handle": "john", "email": "john@example.com",
          "accounts": {"github": "jdoe", "gitlab": "jdoe-gl", "slack": "U0123", "jira": "5b10ac8d", "zulip": 42,
                       "matrix": "@jdoe:example.org"}},
         {"id": "p2", "name": "Ann Lee", "accounts": {"slack": "U0456", "github": "", "jira": null}}]
        """

    @Test func jsonAndNDJSONReadAccountsAndEmail() throws {
        #expect(try DirectoryFile.entities(fromJSON: Array(Self.json.utf8), path: "p.json") == [Self.john, Self.ann])
        let lines = """
            {"id": "p1", "name": "John Doe", "handle": "john", "email": "john@example.com", "accounts": {"github": "jdoe", "gitlab": "jdoe-gl", "slack": "U0123", "jira": "5b10ac8d", "zulip": "42", "matrix": "@jdoe:example.org"}}
            {"id": "p2", "name": "Ann Lee", "accounts": {"slack": "U0456"}}

            """
        #expect(try DirectoryFile.entities(fromNDJSON: Array(lines.utf8), path: "p.ndjson") == [Self.john, Self.ann])
    }

    @Test(arguments: [
        (#"[{"id": "a", "name": "A", "accounts": {"discord": "1"}}]"#, #"p.json:1: entry 1: "accounts" has the unknown service "discord" (the services are github, gitlab, slack, jira, zulip, matrix)"#),
        (#"[{"id": "a", "name": "A", "accounts": "U1"}]"#, #"p.json:1: entry 1: "accounts" must be an object, not a string"#),
        (#"[{"id": "a", "name": "A", "accounts": {"slack": ["U1"]}}]"#, #"p.json:1: entry 1: "accounts.slack" must be a string or an integer, not an array"#),
        (#"[{"id": "a", "name": "A", "email": 3}]"#, #"p.json:1: entry 1: "email" must be a string or null, not the number 3"#),
    ])
    func badAccountsAreOneLineErrors(text: String, message: String) {
        #expect(throws: DirectoryError.self) { try DirectoryFile.entities(fromJSON: Array(text.utf8), path: "p.json") }
        do {
            _ = try DirectoryFile.entities(fromJSON: Array(text.utf8), path: "p.json")
        } catch let error as DirectoryError {
            #expect(error.description == message)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func csvReadsAccountsColumns() throws {
        let csv = """
            id,name,handle,Email,accounts.github,accounts.gitlab,accounts.slack,accounts.jira,accounts.zulip,accounts.matrix
            p1,John Doe,john,john@example.com,jdoe,jdoe-gl,U0123,5b10ac8d,42,@jdoe:example.org
            p2,Ann Lee,,,,,U0456,,,

            """
        #expect(try DirectoryFile.entities(fromCSV: Array(csv.utf8), path: "p.csv") == [Self.john, Self.ann])
        #expect(throws: DirectoryError.self) {
            try DirectoryFile.entities(fromCSV: Array("id,name,accounts.icq\np1,A,1\n".utf8), path: "p.csv")
        }
        #expect(throws: DirectoryError.self) {
            try DirectoryFile.entities(fromCSV: Array("id,name,accounts\np1,A,1\n".utf8), path: "p.csv")
        }
    }

    @Test func aMapSetsAccountsAndUnmappedAccountsKeepTheirPlace() throws {
        let item = try JSONDocument.parse(Array(#"{"login": "jdoe", "name": "John Doe", "slack_id": "U0123", "accounts": {"jira": "5b10"}, "databaseId": 77}"#.utf8))
        let mapping = try EntityMapping(map: ["id": "login", "accounts.slack": "slack_id", "accounts.github": "login",
                                              "email": "{databaseId}+{login}@users.noreply.github.com"])
        let entity = Entity(id: "jdoe", name: "John Doe", email: "77+jdoe@users.noreply.github.com",
                            accounts: [.slack: "U0123", .github: "jdoe", .jira: "5b10"])
        #expect(try mapping.entity(from: item, number: 1) == .entity(entity))
        #expect(try EntityMapping.parseMapOption("id=login,accounts.slack=slack_id") == ["id": "login", "accounts.slack": "slack_id"])
        #expect(throws: SourceError.self) { try EntityMapping(map: ["accounts.icq": "x"]) }
    }

    @Test func theIndexKeepsAccountsAndEmail() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("people.json", Array(Self.json.utf8))
        let cache = IndexCache(folder: folder.url.appendingPathComponent("index").path, minimumSize: 0)
        let first = try DirectoryLoader.load(paths: [path], cache: cache)
        first.writeIndex()
        let mapped = try DirectoryLoader.load(paths: [path], cache: cache)
        #expect(mapped.indexStatus == .used)
        #expect(mapped.entities == [Self.john, Self.ann])
    }

    @Test func theListCacheKeepsAccountsAndEmail() throws {
        let text = CachedSource.json([Self.john, Self.ann])
        #expect(try DirectoryFile.entities(fromJSON: Array(text.utf8), path: "list.json") == [Self.john, Self.ann])
    }
}
