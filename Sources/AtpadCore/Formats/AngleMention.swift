/// The `<@id>` / `<#id>` mention tokens that Slack and Discord share: writing them, reading
/// them, and finding the entity behind one.
///
/// `#` mentions are written `<#id>` (channels); every other trigger is written `<@id>`,
/// since both chat systems have only these two kinds. Reading `<@id>` looks the id up in
/// the `@` directory first, then in the other non-`#` ones.
enum AngleMention {
    /// One token as read: its kind (`@` or `#`), where its id is, and where it ends.
    struct Token {
        var kind: Unicode.Scalar
        var id: Range<Int>
        var end: Int
    }

    /// The opening of the token for `m`: `<#` for `#`, else `<@`.
    static func opening(for m: Mention) -> String {
        m.trigger == "#" ? "<#" : "<@"
    }

    /// Reads a token starting at the `<` at `i`: `<@id>` or `<#id>`, and also `<@!id>`
    /// when `bang` (Discord's older nickname form) and `<@id|label>` when `label` (Slack).
    /// An id is one or more characters other than `<`, `>`, `|` and whitespace.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, bang: Bool, label: Bool) -> Token? {
        guard i + 2 < bytes.count, bytes[i] == UInt8(ascii: "<") else { return nil }
        let kind = bytes[i + 1]
        guard kind == UInt8(ascii: "@") || kind == UInt8(ascii: "#") else { return nil }
        var start = i + 2
        if bang, kind == UInt8(ascii: "@"), bytes[start] == UInt8(ascii: "!") { start += 1 }
        var j = start
        while j < bytes.count, isIDByte(bytes[j]) { j += 1 }
        guard j > start, j < bytes.count else { return nil }
        let id = start ..< j
        if label, bytes[j] == UInt8(ascii: "|") {
            j += 1
            while j < bytes.count, bytes[j] != UInt8(ascii: ">"), bytes[j] != UInt8(ascii: "<"), bytes[j] != 0x0A { j += 1 }
            guard j < bytes.count else { return nil }
        }
        guard bytes[j] == UInt8(ascii: ">") else { return nil }
        return Token(kind: Unicode.Scalar(kind), id: id, end: j + 1)
    }

    private static func isIDByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "|"), 0x20, 0x09, 0x0A, 0x0D: return false
        default: return true
        }
    }

    /// The trigger and entity behind a token of `kind` with `id`, if the directory knows it
    /// (by the account on `format`'s service first, then by id).
    static func resolve(kind: Unicode.Scalar, id: String, lookup: EntityLookup,
                        format: DocumentFormat) -> (Unicode.Scalar, Entity)? {
        if kind == "#" {
            return lookup.entity(trigger: "#", written: id, in: format).map { ("#", $0) }
        }
        for trigger in lookup.triggers where trigger != "#" {
            if let entity = lookup.entity(trigger: trigger, written: id, in: format) { return (trigger, entity) }
        }
        return nil
    }
}
