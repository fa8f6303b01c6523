import AtpadSystem
import Testing

/// Hunspell through its C API (docs/spelling.md, "Dictionaries"), with the en_US
/// dictionary of Debian's hunspell-en-us, which scripts/setup installs.
@Suite struct HunspellSpellingTests {
    static let folders = HunspellDictionary.folders(environment: [:])

    @Test func checksSuggestsAndAddsWords() throws {
        let english = try #require(HunspellDictionary(language: "en_US", folders: Self.folders))
        #expect(english.language == "en_US")
        #expect(english.check("spelling"))
        #expect(english.check("don't"))
        #expect(!english.check("speling"))
        #expect(english.suggestions("speling").contains("spelling"))
        #expect(!english.check("atpad"))
        english.add("atpad")
        #expect(english.check("atpad"))
    }

    @Test func aMissingLanguageIsNil() {
        #expect(HunspellDictionary(language: "xx_XX", folders: Self.folders) == nil)
        #expect(HunspellDictionary(language: "../hunspell/en_US", folders: Self.folders) == nil)
        #expect(HunspellDictionary(language: "en_US", folders: ["/nonexistent"]) == nil)
    }

    @Test func foldersFollowTheEnvironment() {
        let folders = HunspellDictionary.folders(environment: ["DICPATH": "/a:/b", "XDG_DATA_HOME": "/x", "HOME": "/h"])
        #expect(Array(folders.prefix(3)) == ["/a", "/b", "/x/hunspell"])
        #expect(folders.contains("/usr/share/hunspell"))
        #expect(HunspellDictionary.folders(environment: ["HOME": "/h"]).first == "/h/.local/share/hunspell")
    }

    /// One handle, many threads: every call goes through its lock.
    @Test func isSafeOnManyThreads() async throws {
        let english = try #require(HunspellDictionary(language: "en_US", folders: Self.folders))
        let results = await withTaskGroup(of: Bool.self) { group in
            for i in 0 ..< 8 {
                group.addTask {
                    (0 ..< 50).allSatisfy { j in
                        english.add("zzword\(i)x\(j)")
                        return english.check("house") && !english.check("hhouse") && english.check("zzword\(i)x\(j)")
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}
