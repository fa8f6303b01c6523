/// The key-script notation of `atpad replay --keys` (docs/commands.md, "`atpad replay`"):
/// literal characters and key names in angle brackets, e.g. `@jo<Down><Enter>`.
///
/// - Every character stands for itself (`.char`), except a newline (`\n`, `\r\n` or `\r`),
///   which is `.enter`, and a tab, which is `.tab`.
/// - Names, matched without regard to case: `<Enter>` (`<Return>`), `<Tab>`, `<S-Tab>`,
///   `<BS>` (`<Backspace>`), `<Del>` (`<Delete>`), `<Esc>`, `<Left>`, `<Right>`, `<Up>`,
///   `<Down>`, `<Home>`, `<End>`, `<PgUp>`, `<PgDn>`, `<S-Left>`, `<S-Right>`, `<S-Up>`,
///   `<S-Down>`, `<S-Home>`, `<S-End>`, `<C-Left>`, `<C-Right>`, `<C-Home>`, `<C-End>`,
///   `<C-Space>`, `<M-BS>`, `<F1>`, `<F2>`, `<Space>`, `<lt>` (a literal `<`), `<C-x>` for a letter
///   x and `<M-x>` for any single character x.
/// - `<Paste>…</Paste>` is one `.paste` key; its content is literal except `<lt>`,
///   `<Enter>` and `<Tab>`, which stand for `<`, a newline and a tab.
/// - A `<` that does not start something shaped like a name (letters, digits and `-`
///   between `<` and `>`) is a literal `<`, so `a < b` and `<3` need no escape.
public enum KeyScript {
    /// The keys `script` stands for; throws `KeyScriptError` for an unknown name, an
    /// unterminated `<Paste>` or a `</Paste>` with no `<Paste>`.
    public static func parse(_ script: String) throws(KeyScriptError) -> [Key] {
        let chars = Array(script)
        var keys: [Key] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            guard c == "<" else {
                keys.append(literal(c))
                i += 1
                continue
            }
            if let (alt, next) = altKey(in: chars, at: i) {
                keys.append(alt)
                i = next
                continue
            }
            if matches(chars, at: i, "</paste>") {
                throw KeyScriptError(kind: .pasteEndWithoutStart, column: i + 1)
            }
            guard let (name, next) = bracketedName(in: chars, at: i) else {
                keys.append(.char("<"))
                i += 1
                continue
            }
            if name.lowercased() == "paste" {
                guard let (content, afterPaste) = pasteContent(in: chars, from: next) else {
                    throw KeyScriptError(kind: .unterminatedPaste, column: i + 1)
                }
                keys.append(.paste(content))
                i = afterPaste
                continue
            }
            guard let key = namedKey(name) else {
                throw KeyScriptError(kind: .unknownName(name), column: i + 1)
            }
            keys.append(key)
            i = next
        }
        return keys
    }

    private static func literal(_ c: Character) -> Key {
        switch c {
        case "\n", "\r\n", "\r": return .enter
        case "\t": return .tab
        default: return .char(c)
        }
    }

    /// `<M-x>` for any single character x (checked before the name shape, since x may be
    /// `<`, `>` or punctuation).
    private static func altKey(in chars: [Character], at i: Int) -> (Key, next: Int)? {
        guard i + 4 < chars.count, chars[i + 1] == "M" || chars[i + 1] == "m", chars[i + 2] == "-",
              chars[i + 4] == ">"
        else { return nil }
        let x = chars[i + 3]
        let lower = x.lowercased()
        // Guarded because a few letters lower-case to more than one character.
        return (.alt(x.isLetter && lower.count == 1 ? Character(lower) : x), i + 5)
    }

    /// The name between `<` at `i` and the next `>`, when everything between is letters,
    /// digits and `-`; nil when the `<` is just a `<`.
    private static func bracketedName(in chars: [Character], at i: Int) -> (String, next: Int)? {
        var j = i + 1
        while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "-" {
            j += 1
        }
        guard j > i + 1, j < chars.count, chars[j] == ">" else { return nil }
        return (String(chars[i + 1 ..< j]), j + 1)
    }

    private static func namedKey(_ name: String) -> Key? {
        let lower = name.lowercased()
        switch lower {
        case "enter", "return": return .enter
        case "tab": return .tab
        case "s-tab": return .backTab
        case "bs", "backspace": return .backspace
        case "del", "delete": return .delete
        case "esc": return .escape
        case "left": return .left
        case "right": return .right
        case "up": return .up
        case "down": return .down
        case "home": return .home
        case "end": return .end
        case "pgup": return .pageUp
        case "pgdn": return .pageDown
        case "s-left": return .shiftLeft
        case "s-right": return .shiftRight
        case "s-up": return .shiftUp
        case "s-down": return .shiftDown
        case "s-home": return .shiftHome
        case "s-end": return .shiftEnd
        case "c-left": return .ctrlLeft
        case "c-right": return .ctrlRight
        case "c-home": return .ctrlHome
        case "c-end": return .ctrlEnd
        case "c-space": return .ctrlSpace
        case "m-bs": return .altBackspace
        case "f1": return .f1
        case "f2": return .f2
        case "f7": return .f7
        case "space": return .char(" ")
        case "lt": return .char("<")
        default:
            // `<C-x>`: Ctrl with an ASCII letter, the only ones a terminal can send.
            let scalars = Array(lower.unicodeScalars)
            if scalars.count == 3, scalars[0] == "c", scalars[1] == "-", ("a" ... "z").contains(scalars[2]) {
                return .ctrl(Character(scalars[2]))
            }
            return nil
        }
    }

    /// The content of a paste starting at `from` (after `<Paste>`) and the index after its
    /// `</Paste>`, or nil when it is never closed.
    private static func pasteContent(in chars: [Character], from: Int) -> (String, next: Int)? {
        var content = ""
        var i = from
        while i < chars.count {
            if chars[i] == "<" {
                if matches(chars, at: i, "</paste>") { return (content, i + 8) }
                if matches(chars, at: i, "<lt>") { content.append("<"); i += 4; continue }
                if matches(chars, at: i, "<enter>") { content.append("\n"); i += 7; continue }
                if matches(chars, at: i, "<tab>") { content.append("\t"); i += 5; continue }
            }
            content.append(chars[i])
            i += 1
        }
        return nil
    }

    /// Whether `chars` at `i` spell `lowerCased` (ASCII, compared without regard to case).
    private static func matches(_ chars: [Character], at i: Int, _ lowerCased: String) -> Bool {
        var j = i
        for expected in lowerCased {
            guard j < chars.count, chars[j].lowercased() == String(expected) else { return false }
            j += 1
        }
        return true
    }
}

/// Why a key script could not be read: one line naming the place.
public struct KeyScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// `<Name>` shaped like a key name but not one; holds the name as written.
        case unknownName(String)
        /// A `<Paste>` with no `</Paste>` after it.
        case unterminatedPaste
        /// A `</Paste>` with no `<Paste>` before it.
        case pasteEndWithoutStart
    }

    public var kind: Kind
    /// The 1-based column, in characters, of the `<` where the problem starts.
    public var column: Int

    public init(kind: Kind, column: Int) {
        self.kind = kind
        self.column = column
    }

    public var description: String {
        switch kind {
        case .unknownName(let name):
            return "--keys: unknown key name <\(name)> at column \(column)"
        case .unterminatedPaste:
            return "--keys: <Paste> at column \(column) has no </Paste>"
        case .pasteEndWithoutStart:
            return "--keys: </Paste> at column \(column) has no <Paste> before it"
        }
    }
}
