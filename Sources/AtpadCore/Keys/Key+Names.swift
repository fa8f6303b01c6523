/// How keys are written for people: `name` in F1 and the docs (`Ctrl-S`), `shortName` on
/// the help bar and the prompt row (`^S`, as nano writes it).
extension Key {
    public var name: String {
        switch self {
        case let .char(c): String(c)
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Bksp"
        case .delete: "Del"
        case .escape: "Esc"
        case .left: "Left"
        case .right: "Right"
        case .up: "Up"
        case .down: "Down"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .shiftLeft: "Shift-Left"
        case .shiftRight: "Shift-Right"
        case .shiftUp: "Shift-Up"
        case .shiftDown: "Shift-Down"
        case .shiftHome: "Shift-Home"
        case .shiftEnd: "Shift-End"
        case .ctrlLeft: "Ctrl-Left"
        case .ctrlRight: "Ctrl-Right"
        case .ctrlHome: "Ctrl-Home"
        case .ctrlEnd: "Ctrl-End"
        case let .ctrl(c): "Ctrl-" + c.uppercased()
        case .ctrlSpace: "Ctrl-Space"
        case let .alt(c): "Alt-" + c.uppercased()
        case .altBackspace: "Alt-Bksp"
        case .f1: "F1"
        case .f2: "F2"
        case .f7: "F7"
        case .paste: "Paste"
        }
    }

    public var shortName: String {
        switch self {
        case let .ctrl(c): "^" + c.uppercased()
        case .ctrlSpace: "^Space"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .backTab: "⇧Tab"
        default: name
        }
    }
}
