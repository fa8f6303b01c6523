@testable import AtpadApp
import AtpadCore
import AtpadSystem
import AtpadTestSupport
import Foundation
import Testing

/// Which languages spelling checks in, their dictionaries, the personal word list, and
/// the one line said when a dictionary is missing (docs/spelling.md).
@Suite struct SpellingSetupTests {
    static let folders = HunspellDictionary.folders(environment: [:])

    @Test func theLanguageComesFromLANG() {
        #expect(SpellingSetup.language(fromLANG: "en_US.UTF-8") == "en_US")
        #expect(SpellingSetup.language(fromLANG: "de_DE@euro") == "de_DE")
        #expect(SpellingSetup.language(fromLANG: "fr_FR") == "fr_FR")
        #expect(SpellingSetup.language(fromLANG: "C.UTF-8") == "en_US")
        #expect(SpellingSetup.language(fromLANG: "POSIX") == "en_US")
        #expect(SpellingSetup.language(fromLANG: "") == "en_US")
        #expect(SpellingSetup.language(fromLANG: nil) == "en_US")
        #expect(SpellingSetup.language(fromLANG: "../../etc") == "en_US")
    }

    @Test func theSettingWinsOverLANG() {
        #expect(SpellingSetup.languages(nil, environment: ["LANG": "pt_BR.UTF-8"]) == ["pt_BR"])
        #expect(SpellingSetup.languages(["en_GB", "de_DE"], environment: ["LANG": "pt_BR.UTF-8"]) == ["en_GB", "de_DE"])
        #expect(SpellingSetup.languages(["off"], environment: ["LANG": "pt_BR.UTF-8"]) == [])
    }

    @Test func aMissingDictionaryIsSaidOnceAndTheOthersGoOn() throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let environment = ["HOME": home.url.path]
        let both = SpellingSetup(languages: ["xx_XX", "en_US"], folders: Self.folders, environment: environment)
        #expect(both.notes == ["no Hunspell dictionary for xx_XX (install hunspell-xx-xx, or see docs/spelling.md); checking in en_US"])
        #expect(both.speller?.knows("house") == true)
        let none = SpellingSetup(languages: ["xx_XX"], folders: Self.folders, environment: environment)
        #expect(none.speller == nil)
        #expect(none.notes.count == 1)
        #expect(none.notes[0].hasSuffix("spelling is not checked"))
        let off = SpellingSetup(languages: [], folders: Self.folders, environment: environment)
        #expect(off.speller == nil && off.notes.isEmpty)
    }

    @Test func thePersonalListIsReadBesideTheConfig() throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let xdg = home.path("xdg")
        try FileManager.default.createDirectory(atPath: xdg + "/atpad", withIntermediateDirectories: true)
        try home.write("xdg/atpad/words", "atpad\nfrobnicate\n")
        #expect(SpellingSetup.personalListPath(environment: ["XDG_CONFIG_HOME": xdg]) == xdg + "/atpad/words")
        #expect(SpellingSetup.personalListPath(environment: ["HOME": "/home/ana"]) == "/home/ana/.config/atpad/words")
        let setup = SpellingSetup(languages: ["en_US"], folders: Self.folders, environment: ["XDG_CONFIG_HOME": xdg])
        #expect(setup.personalWords == "atpad\nfrobnicate\n")
        #expect(setup.notes.isEmpty)
        let known = KnownWords(entities: [], list: setup.personalWords)
        let found = Misspelling.find(in: MarkedText(text: "the atpad frobnicate refactr"), format: .text,
                                     speller: try #require(setup.speller), known: known)
        #expect(found.map(\.word) == ["refactr"])
    }

    /// Suggestions (docs/spelling.md, "Suggestions"): the known words one edit away, in
    /// Debian's en_US; Hunspell's own when there are none.
    @Test func suggestionsAreTheWordsOneEditAwayElseHunspells() throws {
        let setup = SpellingSetup(languages: ["en_US"], folders: Self.folders, environment: [:])
        let speller = try #require(setup.speller)
        #expect(speller.rules.alphabet.starts(with: ["e", "s", "i", "a", "é"]))
        #expect(speller.rules.replacements.count == 90)
        // Named by en_US's REP lines: first, as Hunspell puts them.
        #expect(speller.suggestions(for: "alot").first == "a lot")
        #expect(speller.suggestions(for: "resovled") == ["resolved", "resoled"])
        #expect(speller.suggestions(for: "Recieved") == ["Received", "Relieved"])
        // `wite` by a REP line, as Hunspell has it.
        #expect(speller.suggestions(for: "wich").prefix(4) == ["wite", "which", "winch", "witch"])
        // No `w-ch` (two words to Hunspell) nor `until.` (`until` to it).
        #expect(speller.suggestions(for: "untill").allSatisfy { !$0.contains("-") && !$0.contains(".") })
        // Two edits away: only a named misspelling and a split near, so Hunspell's first.
        #expect(speller.suggestions(for: "misteak") == ["misteach", "mistake", "mi steak"])
        #expect(speller.suggestions(for: "xqzvw").allSatisfy { speller.knows($0) })
    }

    /// A dictionary in ISO 8859-1: its TRY letters read in that encoding, and candidates
    /// with letters beyond ASCII checked in it.
    @Test func suggestionsInALatin1Dictionary() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let latin1 = { (text: String) in text.unicodeScalars.map { UInt8($0.value) } }
        _ = try folder.write("xx_DE.aff", latin1("SET ISO8859-1\nTRY esianrtolcdugmphbyfvkwzäöüß\n"))
        _ = try folder.write("xx_DE.dic", latin1("3\nmädchen\nhaus\nstraße\n"))
        let setup = SpellingSetup(languages: ["xx_DE"], folders: [folder.url.path], environment: [:])
        let speller = try #require(setup.speller)
        #expect(speller.rules.alphabet.suffix(4) == ["ä", "ö", "ü", "ß"])
        #expect(speller.suggestions(for: "madchen") == ["mädchen"])
        #expect(speller.suggestions(for: "strase") == ["straße"])
        #expect(speller.suggestions(for: "Hause") == ["Haus"])
    }

    @Test func theSpellKeyTakesALanguageAListOrOff() throws {
        func parse(_ text: String) throws(ConfigError) -> Config {
            try Config.parse(Array(text.utf8), file: "/c/config.toml", environment: [:])
        }
        #expect(try parse("spell = \"en_US\"").spell == ["en_US"])
        #expect(try parse("spell = [\"en_US\", \"de_DE_frami\"]").spell == ["en_US", "de_DE_frami"])
        #expect(try parse("spell = \"off\"").spell == ["off"])
        #expect(try parse("").spell == nil)
        for bad in ["spell = \"../x\"", "spell = []", "spell = [\"off\", \"en_US\"]", "spell = 3", "spell = \"\""] {
            let error = #expect(throws: ConfigError.self, "\(bad)") { try parse(bad) }
            #expect(error?.description.contains("\"spell\"") == true, "\(bad)")
        }
    }
}
