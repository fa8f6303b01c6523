@testable import AtpadApp
@testable import AtpadTerminal
import Foundation
import Testing

/// Themes (docs/config.md, "Themes") map roles to styles with fallback, load from TOML,
/// reduce colours, and keep mentions distinguishable without colour.
@Suite struct ThemeTests {
    let themes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Resources/themes")

    func parse(_ toml: String) throws(ThemeError) -> Theme {
        try Theme.parse(toml, file: "t.toml", name: "t")
    }

    func error(_ toml: String) -> ThemeError? {
        do throws(ThemeError) {
            _ = try parse(toml)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Fallback

    @Test func aMissingRoleFallsBackToItsParentThenText() throws {
        let theme = try parse("""
            [text]
            foreground = "white"
            [chooser]
            background = 236
            attributes = ["dim"]
            """)
        let match = theme.style(for: .chooserMatch, colors: 256)
        #expect(match.background == TerminalColor(236))
        #expect(match.foreground == TerminalColor(7))
        // chooser.match falls back to chooser, which is dim; it stays distinguishable: bold.
        #expect(match.dim && match.bold)
        #expect(theme.style(for: .title, colors: 256) == Style(foreground: TerminalColor(7)))
    }

    @Test func fieldsAreInheritedOneByOne() throws {
        let theme = try parse("""
            [chooser]
            foreground = 252
            background = 236
            [chooser.selected]
            foreground = "black"
            attributes = ["bold"]
            """)
        #expect(theme.style(for: .chooserSelected, colors: 256)
            == Style(foreground: TerminalColor(0), background: TerminalColor(236), bold: true))
    }

    @Test func attributesReplaceTheInheritedOnesAndDefaultIsTheTerminals() throws {
        let theme = try parse("""
            [chooser]
            foreground = "red"
            attributes = ["bold", "underline"]
            [chooser.detail]
            foreground = "default"
            attributes = []
            """)
        #expect(theme.style(for: .chooserDetail, colors: 256) == Style())
    }

    @Test func dottedRolesMayBeQuotedKeysOrInlineTables() throws {
        let quoted = try parse("""
            ["mention.selected"]
            attributes = ["reverse"]
            """)
        #expect(quoted.entries[.mentionSelected]?.attributes == [.reverse])
        let inline = try parse("""
            mention = { foreground = "cyan", selected = { background = "bright-blue" } }
            """)
        #expect(inline.entries[.mention]?.foreground == .indexed(6))
        #expect(inline.entries[.mentionSelected]?.background == .indexed(12))
    }

    // MARK: Bundled themes

    @Test func theDefaultThemeLoads() throws {
        let theme = try Theme.load(named: "default", in: [themes])
        #expect(theme.name == "default")
        let mention = theme.style(for: .mention, colors: 256)
        #expect(mention.foreground == TerminalColor(6) && mention.bold)
        #expect(theme.style(for: .chooser, colors: 256).background == TerminalColor(236))
        #expect(Theme.names(in: themes) == ["default", "mono"])
    }

    /// The default theme is built in (docs/install.md), the same as the file shipped beside it.
    @Test func theBuiltInDefaultIsTheShippedFile() throws {
        let file = try Theme.load(contentsOf: themes.appendingPathComponent("default.toml"))
        #expect(Theme.builtInDefault == file)
        #expect(Theme.builtInDefault.entries.count >= Role.allCases.count - 2)
    }

    @Test func withoutAThemesFolderTheDefaultIsBuiltInAndOthersAreNamed() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/themes")
        #expect(try Theme.load("default", themesIn: []) == Theme.builtInDefault)
        #expect(try Theme.load("default", themesIn: [missing]) == Theme.builtInDefault)
        #expect(throws: ThemeError(file: "mono.toml", message: "no theme named \"mono\" (themes: default)")) {
            try Theme.load("mono", themesIn: [missing])
        }
    }

    @Test func theMonoThemeHasAttributesOnly() throws {
        let theme = try Theme.load("mono", themesIn: [themes])
        for role in Role.allCases {
            let style = theme.style(for: role, colors: 256)
            #expect(style.foreground == nil && style.background == nil, "\(role)")
        }
        #expect(theme.style(for: .mention, colors: 256) == Style(bold: true, underline: true))
        #expect(theme.style(for: .mentionSelected, colors: 256) == Style(bold: true, reverse: true))
        #expect(theme.style(for: .chooserSelected, colors: 256) == Style(reverse: true))
    }

    @Test func findMatchesPromptsAndVerbatimInTheBundledThemes() throws {
        let mono = try Theme.load("mono", themesIn: [themes])
        #expect(mono.style(for: .match, colors: 256) == Style(underline: true))
        #expect(mono.style(for: .matchCurrent, colors: 256) == Style(bold: true, reverse: true))
        #expect(mono.style(for: .prompt, colors: 256) == Style(bold: true))
        #expect(mono.style(for: .verbatim, colors: 256) == Style(dim: true))
        let theme = try Theme.load(named: "default", in: [themes])
        #expect(theme.style(for: .match, colors: 256).background == TerminalColor(3))
        #expect(theme.style(for: .matchCurrent, colors: 256).background == TerminalColor(10))
        // With 8 colours and with none, text, matches and the current match still differ.
        for colors in [0, 8] {
            let looks = [Role.text, .match, .matchCurrent, .mention].map { theme.style(for: $0, colors: colors) }
            #expect(Set(looks).count == 4, "\(colors) colours: \(looks)")
        }
    }

    /// A misspelt word (docs/spelling.md, "In the editor"): a curly underline, and apart
    /// from text, mentions, links and the search in both bundled themes, with colour or
    /// without, even where the terminal draws the curl as a plain underline.
    @Test func misspeltWordsStandApartInTheBundledThemes() throws {
        let mono = try Theme.load("mono", themesIn: [themes])
        #expect(mono.style(for: .misspelled, colors: 256) == Style(dim: true, undercurl: true))
        let theme = try Theme.load(named: "default", in: [themes])
        #expect(theme.style(for: .misspelled, colors: 256) == Style(foreground: TerminalColor(1), undercurl: true))
        for t in [theme, mono, Theme.plain] {
            for colors in [0, 8, 256] {
                let word = t.style(for: .misspelled, colors: colors)
                #expect(word.undercurl, "\(t.name), \(colors) colours")
                for other in [Role.text, .mention, .markupLink, .search] {
                    let look = t.style(for: other, colors: colors)
                    #expect(look.withPlainUnderline != word.withPlainUnderline, "\(t.name), \(colors) colours: \(other)")
                }
            }
        }
    }

    @Test func aThemeThatSaysNothingStillMarksMatches() {
        let looks = [Role.text, .match, .matchCurrent, .mention, .selection].map { Theme.plain.style(for: $0, colors: 0) }
        #expect(Set(looks).count == 5)
        #expect(Role.matchCurrent.parent == .match)
    }

    @Test func aThemeByPath() throws {
        let theme = try Theme.load(themes.appendingPathComponent("mono.toml").path, themesIn: [])
        #expect(theme.name == "mono")
    }

    // MARK: Colour depth

    @Test func colorsAreReducedToWhatTheTerminalHas() throws {
        let theme = try parse("""
            [mention]
            foreground = 196
            background = 236
            [search]
            foreground = "bright-yellow"
            """)
        #expect(theme.style(for: .mention, colors: 256).foreground == TerminalColor(196))
        #expect(theme.style(for: .mention, colors: 16) == Style(foreground: TerminalColor(9), background: TerminalColor(0)))
        #expect(theme.style(for: .mention, colors: 8) == Style(foreground: TerminalColor(1), background: TerminalColor(0)))
        #expect(theme.style(for: .search, colors: 16).foreground == TerminalColor(11))
        #expect(theme.style(for: .search, colors: 8).foreground == TerminalColor(3))
        // Greys and the cube go to their nearest basic colour.
        #expect(ColorDepth.reduce(250, colors: 16) == 7)
        #expect(ColorDepth.reduce(244, colors: 16) == 8)
        #expect(ColorDepth.reduce(21, colors: 16) == 4)
        #expect(ColorDepth.reduce(46, colors: 16) == 10)
    }

    // MARK: No colour

    @Test func withoutColourAttributesStayAndMentionsStandOut() throws {
        let theme = try Theme.load(named: "default", in: [themes])
        for role in Role.allCases {
            let style = theme.style(for: role, colors: 0)
            #expect(style.foreground == nil && style.background == nil, "\(role)")
        }
        let text = theme.style(for: .text, colors: 0)
        let mention = theme.style(for: .mention, colors: 0)
        let selected = theme.style(for: .mentionSelected, colors: 0)
        let search = theme.style(for: .search, colors: 0)
        // Bold and underlined: a heading or strong text (bold) around it must not hide it.
        #expect(mention == Style(bold: true, underline: true))
        #expect(selected == Style(bold: true, underline: true, reverse: true))
        #expect(search == Style(underline: true))
        #expect(Set([text, mention, selected, search]).count == 4)
        #expect(theme.style(for: .chooserSelected, colors: 0).reverse)
        #expect(theme.style(for: .selection, colors: 0).reverse)
    }

    /// Issue 32: without colour (`NO_COLOR`, `--no-color`) and in the mono theme a mention
    /// is bold and underlined, and it, a selected mention, a heading, strong text, a link,
    /// code and a kept construct (`verbatim`) all look different; the colours of the default
    /// theme are as they were.
    @Test func withoutColourAMentionStandsOutFromAHeadingAndTheOtherRoles() throws {
        let roles: [Role] = [.text, .mention, .mentionSelected, .markupHeading, .markupStrong, .markupLink, .markupCode,
                             .verbatim]
        let mono = try Theme.load("mono", themesIn: [themes])
        let standard = try Theme.load(named: "default", in: [themes])
        for (theme, colors) in [(standard, 0), (mono, 0), (mono, 256)] {
            let looks = roles.map { theme.style(for: $0, colors: colors) }
            #expect(looks[1] == Style(bold: true, underline: true), "\(theme.name) \(colors)")
            // A mention and a selected mention differ from each other and from every role
            // around them; the rest differ from text (a heading and strong text share
            // their bold, code and kept constructs their dim).
            for (i, look) in looks.enumerated() where i > 0 {
                #expect(look != looks[0], "\(theme.name) \(colors) \(roles[i])")
                if i > 2 {
                    #expect(look != looks[1] && look != looks[2], "\(theme.name) \(colors) \(roles[i])")
                }
            }
            #expect(looks[1] != looks[2])
            // Find matches stay visible on a heading and on a mention.
            for role in [Role.match, .matchCurrent] {
                let style = theme.style(for: role, colors: colors)
                #expect(![looks[0], looks[1], looks[3], looks[4]].contains(style), "\(theme.name) \(role)")
            }
        }
        #expect(standard.style(for: .mention, colors: 256) == Style(foreground: TerminalColor(6), bold: true))
        #expect(standard.style(for: .markupHeading, colors: 256) == Style(foreground: TerminalColor(3), bold: true))
        #expect(standard.style(for: .verbatim, colors: 256) == Style(foreground: TerminalColor(2)))
    }

    @Test func aThemeThatSaysNothingStillMarksMentions() throws {
        for colors in [0, 8, 256] {
            let theme = Theme.plain
            let text = theme.style(for: .text, colors: colors)
            let mention = theme.style(for: .mention, colors: colors)
            let selected = theme.style(for: .mentionSelected, colors: colors)
            let search = theme.style(for: .search, colors: colors)
            #expect(mention == Style(underline: true))
            #expect(selected == Style(underline: true, reverse: true))
            #expect(search == Style(bold: true, underline: true))
            #expect(Set([text, mention, selected, search]).count == 4)
            #expect(theme.style(for: .selection, colors: colors) == Style(reverse: true))
        }
    }

    @Test func aColourOnlyMentionGetsAnAttributeWithoutColour() throws {
        let theme = try parse("""
            [mention]
            foreground = "cyan"
            [mention.selected]
            foreground = "black"
            background = "cyan"
            """)
        #expect(theme.style(for: .mention, colors: 256) == Style(foreground: TerminalColor(6)))
        #expect(theme.style(for: .mention, colors: 0) == Style(underline: true))
        #expect(theme.style(for: .mentionSelected, colors: 0) == Style(underline: true, reverse: true))
    }

    @Test func stylesForEveryRoleAtOnce() throws {
        let styles = try Theme.load(named: "default", in: [themes]).styles(colors: 8)
        #expect(styles.count == Role.allCases.count)
        #expect(styles[.helpKey]?.reverse == true)
    }

    // MARK: Errors

    @Test func aSyntaxErrorNamesTheFileAndLine() {
        let e = error("[mention]\nforeground = \"cyan\n")
        #expect(e?.file == "t.toml")
        #expect(e?.line == 2)
        #expect(e?.description.hasPrefix("t.toml:2:19: syntax error: ") == true)
        let header = error("[mention\nforeground = 3\n")
        #expect(header?.line == 1)
        #expect(header?.description.contains("\n") == false)
        #expect(error("[mention]\nforeground = 3\nforeground = 4\n")?.line == 3)
    }

    @Test func anUnknownRole() {
        let e = error("[text]\n\n[mentoin]\nforeground = \"red\"\n")
        #expect(e?.line == 3)
        #expect(e?.message == "unknown role \"mentoin\" (did you mean \"mention\"?)")
        #expect(e?.key == "mentoin")
        #expect(error("[chooser.matches]\nattributes = [\"bold\"]\n")?.message.hasPrefix("unknown role \"chooser.matches\"") == true)
        // Nothing near: every role is listed.
        #expect(error("[colours]\n")?.message.hasPrefix("unknown role \"colours\" (roles: text, mention, ") == true)
    }

    @Test func anUnknownColour() {
        let e = error("[mention]\nattributes = [\"bold\"]\nforeground = \"cyna\"\n")
        #expect(e?.line == 3)
        #expect(e?.message.hasPrefix("[mention] foreground: unknown colour \"cyna\"") == true)
        #expect(e?.description.hasPrefix("t.toml:3: [mention] foreground: unknown colour \"cyna\"") == true)
    }

    @Test func aColourOutOfRangeOrOfTheWrongType() {
        #expect(error("[search]\nbackground = 256\n")?.message == "[search] background: colour 256 is out of range (0–255)")
        #expect(error("[search]\nbackground = -1\n")?.line == 2)
        let e = error("[search]\nbackground = 1.5\n")
        #expect(e?.line == 2)
        #expect(e?.message.hasPrefix("[search] background: expected a colour, found 1.5; use a colour name") == true)
        #expect(error("[search]\nbackground = true\n")?.message.hasPrefix("[search] background: expected a colour, found true") == true)
    }

    @Test func anUnknownAttributeOrTheWrongType() {
        let e = error("[chooser.match]\nattributes = [\"bold\", \"blink\"]\n")
        #expect(e?.line == 2)
        #expect(e?.message.hasPrefix("[chooser.match] attributes: unknown attribute \"blink\"") == true)
        #expect(error("[chooser]\nattributes = \"bold\"\n")?.message.contains("expected an array") == true)
        #expect(error("[chooser]\nattributes = [1]\n")?.message.contains("unknown attribute 1") == true)
        // The first wrong element, whatever its type.
        #expect(error("[chooser]\nattributes = [\"bold\", \"blink\", 1]\n")?.message.contains("unknown attribute \"blink\"") == true)
        #expect(error("[chooser]\nattributes = [\"bold\", 1, \"blink\"]\n")?.message.contains("unknown attribute 1") == true)
    }

    @Test func anUnknownKeyOrATopLevelValue() {
        // Named as the config names an unknown key, with the key it most likely meant.
        let e = error("[mention]\nforground = \"red\"\n")
        #expect(e?.line == 2)
        #expect(e?.key == "mention.forground")
        #expect(e?.description == "t.toml:2: unknown key \"forground\" in [mention] (did you mean \"foreground\"?)")
        #expect(error("[mention.selected]\nshade = 3\n")?.message
            == "unknown key \"shade\" in [mention.selected] (a role has foreground, background, attributes)")
        #expect(error("foreground = \"red\"\n")?.message.contains("is not a role table") == true)
        #expect(error("[markup]\nforeground = \"red\"\n")?.message.hasPrefix("\"markup.foreground\" is not a role table") == true)
    }

    @Test func theFirstErrorInTheFileIsReported() {
        let e = error("[title]\nforeground = \"nope\"\n[mention]\nforeground = \"nada\"\n")
        #expect(e?.line == 2)
    }

    /// A theme file is read as the config is (TOMLReader): its bytes checked first, each
    /// problem found with its line, the first in the file reported in the config's shape.
    @Test func aThemeFileIsCheckedAsTheConfigIs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atpad-theme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.toml")
        try Data(Array("[mention]\nforeground = \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)).write(to: file)
        #expect(throws: ThemeError(file: file.path, line: 2, message: "not valid UTF-8 text")) {
            try Theme.load(contentsOf: file)
        }
        try Data(Array("[mention]\n\nforeground = 3".utf8) + [0] + Array("\n".utf8)).write(to: file)
        #expect(throws: ThemeError(file: file.path, line: 3, message: "syntax error: a NUL character")) {
            try Theme.load(contentsOf: file)
        }
        // The same problem in a config and in a theme: one line of the same shape.
        let config = #expect(throws: ConfigError.self) {
            try Config.parse("limit = 3\nlimit = 4\n", file: "c.toml", environment: [:])
        }
        let theme = error("[mention]\nforeground = 3\nforeground = 4\n")
        let configColumn = try #require(config?.column), themeColumn = try #require(theme?.column)
        #expect(config?.description.hasPrefix("c.toml:2:\(configColumn): syntax error: ") == true)
        #expect(theme?.description.hasPrefix("t.toml:3:\(themeColumn): syntax error: ") == true)
    }

    @Test func aRoleWrittenTwiceTakesBothFields() throws {
        let theme = try parse("""
            ["mention.selected"]
            foreground = "red"
            [mention.selected]
            background = "blue"
            """)
        #expect(theme.entries[.mentionSelected] == Theme.Entry(foreground: .indexed(1), background: .indexed(4)))
        // A table of roles only sets nothing itself.
        #expect(try parse("[mention.selected]\nattributes = []\n").entries.keys.sorted { $0.rawValue < $1.rawValue }
            == [.mentionSelected])
    }

    @Test func missingThemesAndFiles() {
        #expect(throws: ThemeError.self) { try Theme.load(named: "solarized", in: [themes]) }
        do {
            _ = try Theme.load(named: "solarized", in: [themes])
        } catch {
            #expect(error.description == "solarized.toml: no theme named \"solarized\" (themes: default, mono)")
        }
        do {
            _ = try Theme.load("/nonexistent/x.toml", themesIn: [themes])
        } catch {
            #expect(error.description == "/nonexistent/x.toml: no such theme file")
        }
    }
}
