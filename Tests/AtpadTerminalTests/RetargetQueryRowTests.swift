import AtpadCore
@testable import AtpadTerminal
import Testing

/// Issue 22, bullet 9: re-targeting shows the pre-filled name selected in the chooser's
/// first row, so it is clear the first key typed replaces it.
@Suite struct RetargetQueryRowTests {
    @Test func thePreFilledNameIsDrawnSelectedUntilAKeyEditsIt() throws {
        var e = try makeEditor("hi @[John Doe](1)|", width: 40)
        _ = e.handle(.backspace)  // selects the mention
        _ = e.handle(.ctrlSpace)
        let row = { (f: Frame) -> (text: String, roles: String) in
            let i = f.screen.lines.firstIndex { $0.contains("│ @") }!
            return (f.screen.lines[i], f.screen.roleLines[i])
        }
        let opened = row(frame(e, width: 40, height: 9))
        #expect(opened.text.contains("│ @John Doe"))
        let at = opened.text.distance(from: opened.text.startIndex, to: opened.text.range(of: "@John")!.lowerBound)
        let roles = Array(opened.roles)
        #expect(roles[at] == "s", "the trigger is the search's")
        #expect(String(roles[(at + 1) ..< (at + 9)]) == "vvvvvvvv", "the name is selected")

        _ = e.handle(.char("j"))
        let typed = row(frame(e, width: 40, height: 9))
        #expect(typed.text.contains("│ @j "))
        #expect(!typed.roles.contains("v"))
    }
}
