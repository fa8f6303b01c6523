@testable import AtpadApp
import Foundation
import Testing

/// The README's key table is the keymap's (`atpad keys`): regenerate it with
/// `.build/debug/atpad keys` when a binding changes.
@Suite struct KeysDocumentationTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    @Test func theReadmeKeyTableIsTheKeymaps() throws {
        let text = try String(contentsOf: KeysDocumentationTests.readme, encoding: .utf8)
        let heading = try #require(text.range(of: "### Keys (also on F1)\n"))
        let table = text[heading.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        #expect(table.joined(separator: "\n") + "\n" == KeysCommand.markdown)
    }
}
