@testable import AtpadApp
import AtpadCore
import AtpadSystem
import Foundation
import Testing

/// The editor's checker on its own thread, with Debian's en_US dictionary (docs/spelling.md,
/// "In the editor"): a long text's edited words and rows in view come back first, then
/// the whole text.
@Suite struct SpellCheckerTests {
    /// The events the checker posted, waited for (on a condition, not a sleep) until
    /// `count` have come.
    static func events(_ mailbox: Mailbox, count: Int) -> [AppEvent] {
        var got: [AppEvent] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while got.count < count, ContinuousClock.now < deadline {
            mailbox.wake.wait(milliseconds: 100)
            got += mailbox.takeAll()
        }
        return got
    }

    @Test func theRegionsComeFirstThenTheWholeText() throws {
        let folders = HunspellDictionary.folders(environment: [:])
        try #require(HunspellDictionary(language: "en_US", folders: folders) != nil, "scripts/setup installs hunspell-en-us")
        let paragraph = "The quick brown fox jumps over the lazy dog and comes back again.\n\n"
        let text = "Teh start.\n\n" + String(repeating: paragraph, count: 400) + "A wrod at the end.\n"
        let storage = TextStorage(MarkedText(text: text))
        let mailbox = Mailbox()
        let checker = SpellChecker(.init(languages: ["en_US"], folders: folders, environment: [:], entities: []),
                                   mailbox: mailbox)
        let region = 0 ..< 12
        checker.check(.init(storage: storage, version: 7, format: .github, git: nil, regions: [region]))
        let spelled = Self.events(mailbox, count: 2).compactMap { event -> ([String], [Range<Int>]?)? in
            guard case let .spellingChecked(version, words, regions) = event, version == 7 else { return nil }
            return (words.map(\.word), regions)
        }
        try #require(spelled.count == 2)
        #expect(spelled[0].0 == ["Teh"])
        #expect(spelled[0].1 == [region])
        #expect(spelled[1].0 == ["Teh", "wrod"])
        #expect(spelled[1].1 == nil)
    }
}
