import Testing
@testable import AtpadCore

/// The small text helpers that stand in for full Foundation's string methods (atpad links
/// FoundationEssentials only): the answers Foundation gave.
@Suite struct TextHelpersTests {
    @Test func replacingEveryMatchesScalarsInsideClusters() {
        #expect("a\r\nb".replacingEvery("\r", with: " ").replacingEvery("\n", with: " ") == "a  b")
        #expect("say \"\u{301}hi".replacingEvery("\"", with: "\\\"") == "say \\\"\u{301}hi")
        #expect("{query}&q={query}".replacingEvery("{query}", with: "jo") == "jo&q=jo")
        #expect("none".replacingEvery("x", with: "y") == "none")
    }
}
