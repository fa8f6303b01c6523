import AtpadCore
import CNcursesw
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The key sequences atpad teaches ncurses beyond the terminfo entry, and the extended
/// key codes it looks up, so the decoder knows what every code means.
enum KeyDefinitions {
    /// Extended terminfo names (xterm's modified keys) whose codes ncurses assigns at
    /// start-up; the decoder learns them by looking the strings up.
    static let extendedNames: [(name: String, key: Key)] = [
        ("kLFT5", .ctrlLeft), ("kRIT5", .ctrlRight), ("kHOM5", .ctrlHome), ("kEND5", .ctrlEnd),
        ("kLFT6", .ctrlLeft), ("kRIT6", .ctrlRight), ("kHOM6", .ctrlHome), ("kEND6", .ctrlEnd),
        // Alt-Left/Right move by word as Alt-B/Alt-F do.
        ("kLFT3", .ctrlLeft), ("kRIT3", .ctrlRight),
        ("kUP", .shiftUp), ("kDN", .shiftDown), ("kUP5", .up), ("kDN5", .down),
        ("kHOM", .shiftHome), ("kEND", .shiftEnd), ("kLFT", .shiftLeft), ("kRIT", .shiftRight),
    ]

    /// Sequences terminals send that the terminfo entry may not name: tmux sends `\e[1~`
    /// and `\e[4~` for Home/End even under TERM=xterm-256color, and bracketed paste is
    /// never in terminfo. Each is defined only where ncurses does not know it yet.
    static let sequences: [(sequence: String, meaning: KeyDecoder.CodeMeaning)] = [
        ("\u{1B}[200~", .pasteStart), ("\u{1B}[201~", .pasteEnd),
        ("\u{1B}[1~", .key(.home)), ("\u{1B}[7~", .key(.home)), ("\u{1B}[H", .key(.home)), ("\u{1B}OH", .key(.home)),
        ("\u{1B}[4~", .key(.end)), ("\u{1B}[8~", .key(.end)), ("\u{1B}[F", .key(.end)), ("\u{1B}OF", .key(.end)),
        ("\u{1B}[1;5D", .key(.ctrlLeft)), ("\u{1B}[1;5C", .key(.ctrlRight)),
        ("\u{1B}[1;5H", .key(.ctrlHome)), ("\u{1B}[1;5F", .key(.ctrlEnd)),
        ("\u{1B}[1;2A", .key(.shiftUp)), ("\u{1B}[1;2B", .key(.shiftDown)),
        ("\u{1B}[1;2D", .key(.shiftLeft)), ("\u{1B}[1;2C", .key(.shiftRight)),
        ("\u{1B}[1;2H", .key(.shiftHome)), ("\u{1B}[1;2F", .key(.shiftEnd)),
        ("\u{1B}[3~", .key(.delete)), ("\u{1B}[5~", .key(.pageUp)), ("\u{1B}[6~", .key(.pageDown)),
        ("\u{1B}[Z", .key(.backTab)),
    ]

    /// Registers the extended codes and defines the missing sequences. Needs a current
    /// ncurses screen with keypad on.
    static func register(in decoder: inout KeyDecoder) {
        for (name, key) in extendedNames {
            guard let string = atpad_tigetstr(name) else { continue }
            let code = key_defined(string)
            if code > 0 && decoder.meaning(of: code) == nil {
                decoder.define(code, as: .key(key))
            }
        }
        var candidate: Int32 = 0x1000
        for (sequence, meaning) in sequences {
            let code = key_defined(sequence)
            if code > 0 {
                // Already bound (by terminfo): make sure the decoder reads it the same way.
                if decoder.meaning(of: code) == nil { decoder.define(code, as: meaning) }
                continue
            }
            // -1: a prefix of (or prefixed by) a known key; the decoder reads it raw then.
            guard code == 0 else { continue }
            while let bound = keybound(candidate, 0) {
                free(bound)
                candidate += 1
            }
            if define_key(sequence, candidate) == OK {
                decoder.define(candidate, as: meaning)
                candidate += 1
            }
        }
    }
}
