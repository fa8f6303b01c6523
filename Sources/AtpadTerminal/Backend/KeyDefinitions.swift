import AtpadCore
import CNcursesw

/// The terminfo key capabilities atpad answers to, and what each means: looked up at
/// start so the decoder reads the terminal's own key strings as its entry says. The
/// xterm/VT forms every terminal in use sends (with xterm's modifiers) are the decoder's
/// own grammar; these add what a particular terminal does differently.
enum KeyDefinitions {
    /// Capability names and their keys. Keypad corners and the VT220 Find/Select keys sit
    /// where Home/End/PgUp/PgDn are (some entries name `\e[1~` / `\e[4~` so).
    static let capabilities: [(name: String, key: Key)] = [
        ("kcuu1", .up), ("kcud1", .down), ("kcub1", .left), ("kcuf1", .right),
        ("khome", .home), ("kend", .end), ("kpp", .pageUp), ("knp", .pageDown),
        ("kdch1", .delete), ("kcbt", .backTab), ("kent", .enter),
        ("kLFT", .shiftLeft), ("kRIT", .shiftRight), ("kri", .shiftUp), ("kind", .shiftDown),
        ("kHOM", .shiftHome), ("kEND", .shiftEnd),
        ("kDC", .delete), ("kPRV", .pageUp), ("kNXT", .pageDown),
        ("ka1", .home), ("ka3", .pageUp), ("kc1", .end), ("kc3", .pageDown),
        ("kfnd", .home), ("kslt", .end), ("kbeg", .home),
        ("kf1", .f1), ("kf2", .f2), ("kf7", .f7),
        // xterm's modified keys, extended names in its entry.
        ("kLFT5", .ctrlLeft), ("kRIT5", .ctrlRight), ("kHOM5", .ctrlHome), ("kEND5", .ctrlEnd),
        ("kLFT6", .ctrlLeft), ("kRIT6", .ctrlRight), ("kHOM6", .ctrlHome), ("kEND6", .ctrlEnd),
        // Alt-Left/Right move by word as Alt-B/Alt-F do.
        ("kLFT3", .ctrlLeft), ("kRIT3", .ctrlRight),
        ("kUP", .shiftUp), ("kDN", .shiftDown), ("kUP5", .up), ("kDN5", .down),
    ]

    /// The current terminal's key strings, for `KeyDecoder(sequences:)`. Needs a current
    /// terminal (after `newterm`).
    static func terminfoSequences() -> [[UInt8]: Key] {
        var sequences: [[UInt8]: Key] = [:]
        for (name, key) in capabilities {
            guard let value = atpad_tigetstr(name) else { continue }
            let bytes = TerminalStrings.withoutDelays(value)
            // The first name for a string wins (kDC and kdch1 may share one).
            if sequences[bytes] == nil { sequences[bytes] = key }
        }
        return sequences
    }
}
