import AtpadCore
import CNcursesw
@testable import AtpadTerminal
import Testing

/// Misspelt words on screen (docs/spelling.md, "In the editor"): the `misspelled` role
/// (`~`) over Markdown's, never on the word being typed, and drawn with the terminal's
/// curly underline where it has one, a plain one elsewhere.
@Suite struct MisspelledRoleTests {
    init() { setlocale(LC_ALL, "C.UTF-8") }

    /// An editor over `text` (cursor at `cursor`) whose check found `words`.
    func editor(_ text: String, cursor: Int = 0, marks words: [String]) -> Editor {
        var e = Editor(MarkedText(text: text), cursor: cursor, config: EditorConfig(format: .github))
        var found: [SpellMarks.Mark] = []
        let scalars = Array(text.unicodeScalars)
        for word in words {
            let w = Array(word.unicodeScalars)
            let start = (0 ... scalars.count - w.count).first { Array(scalars[$0 ..< $0 + w.count]) == w }!
            found.append(SpellMarks.Mark(range: start ..< start + w.count, word: word))
        }
        e.takeMisspellings(found.sorted { $0.range.lowerBound < $1.range.lowerBound }, version: e.version)
        return e
    }

    @Test func misspeltWordsAreDrawnInTheirRole() {
        let f = frame(editor("Teh fox wrng x", marks: ["Teh", "wrng"]), width: 20, height: 4)
        #expect(String(f.screen.roleLines[1]).hasPrefix("~~~.....~~~~.."))
        // Over Markdown's roles: the rest of a heading stays a heading.
        let heading = frame(editor("# A wrng heading", marks: ["wrng"]), width: 20, height: 4)
        #expect(String(heading.screen.roleLines[1]).hasPrefix("HHHH~~~~HHHHHHHH"))
    }

    @Test func theWordBeingTypedIsNot() {
        let typing = frame(editor("hi wrng", cursor: 7, marks: ["wrng"]), width: 20, height: 4)
        #expect(String(typing.screen.roleLines[1]).hasPrefix("......."))
        let left = frame(editor("hi wrng ", cursor: 8, marks: ["wrng"]), width: 20, height: 4)
        #expect(String(left.screen.roleLines[1]).hasPrefix("...~~~~."))
    }

    @Test func theWordACorrectionIsForIsTheSearch() {
        var e = editor("hi wrng", cursor: 7, marks: ["wrng"])
        _ = e.handle(.f7)
        let f = frame(e, width: 20, height: 8)
        #expect(String(f.screen.roleLines[1]).hasPrefix("...ssss"))
    }

    /// On a terminal too short for the box, the one-line picker offers the corrections,
    /// headed by the word.
    @Test func aShortTerminalsPickerOffersTheCorrections() {
        var e = editor("hi wrng", cursor: 0, marks: ["wrng"])
        for effect in e.handle(.f7) {
            guard case let .suggest(id, _) = effect else { continue }
            _ = e.receive(.batch(queryID: id, [Candidate(entity: Entity(id: "wrong", name: "wrong"))], isFinal: true))
        }
        let f = frame(e, width: 60, height: 5)
        #expect(f.screen.lines.contains { $0.hasPrefix("wrng: wrong │ Add wrng to my words │ ") },
                "\(f.screen.lines)")
    }

    /// The writer sends the terminal's `Smulx` curl for an undercurl, and its plain
    /// underline where the terminal has none.
    @Test func anUndercurlIsTheCurlWhereTheTerminalHasOne() {
        var curly = TerminalStrings.xterm
        curly.curlyUnderline = Array("\u{1B}[4:3m".utf8)
        for (strings, expected) in [(curly, "\u{1B}[4:3m"), (TerminalStrings.xterm, "\u{1B}[4m")] {
            var writer = FrameWriter(strings: strings)
            writer.setLooks(Role.byCode.map { $0 == .misspelled ? Style(undercurl: true) : Style() }, colors: true,
                            colorCount: 256)
            var screen = Screen(width: 4, height: 1)
            for (i, c) in "ab".utf8.enumerated() { screen[0, i] = ScreenCell(ascii: c, .misspelled) }
            var out: [UInt8] = []
            writer.write(screen, over: nil, cleared: true, rows: 1, columns: 4, into: &out)
            let text = String(decoding: out, as: UTF8.self)
            #expect(text.contains(expected + "ab"), "\(text.debugDescription)")
        }
    }
}
