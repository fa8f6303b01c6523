@testable import AtpadApp
import Foundation
import Testing

/// The key table of docs/keys.md is the keymap's (`atpad keys`): regenerate it with
/// `.build/debug/atpad keys` when a binding changes.
@Suite struct KeysDocumentationTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/keys.md")

    @Test func theDocsKeyTableIsTheKeymaps() throws {
        let text = try String(contentsOf: KeysDocumentationTests.readme, encoding: .utf8)
        let heading = try #require(text.range(of: "## Every key\n"))
        let table = text[heading.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        #expect(table.joined(separator: "\n") + "\n" == KeysCommand.markdown)
    }
}
