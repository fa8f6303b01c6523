import AtpadCore

/// The config a client sends in `initializationOptions` or `workspace/didChangeConfiguration`
/// (docs/editors.md, "Settings from the client"): an object with the config file's keys
/// (`{"spell": "en_US", "triggers": {"@": {"directory": "people.json"}}}`), read by the
/// config file's own reader after it is written as TOML, so its keys, values and
/// messages are the file's.
enum LSPClientConfig {
    /// `object` as the TOML text of a config file: each member a `key = value` line, the
    /// nested objects inline tables; null members are left out. Nil when `object` is not
    /// an object or has no members (nothing to change).
    static func toml(_ object: JSONValue) -> String? {
        guard case let .object(members) = object.kind else { return nil }
        let lines = members.compactMap { member in value(member.value).map { key(member.key) + " = " + $0 } }
        return lines.isEmpty ? nil : lines.joined(separator: "\n") + "\n"
    }

    /// A key, quoted: TOML's basic strings escape as JSON's do (`@` and `#` need quotes).
    private static func key(_ name: String) -> String {
        JSONWriter.text(.string(name), layout: .compact)
    }

    private static func value(_ v: JSONValue) -> String? {
        switch v.kind {
        case .null: nil
        case .string, .number, .bool: JSONWriter.text(v, layout: .compact)
        case let .array(elements): "[" + elements.compactMap(value).joined(separator: ", ") + "]"
        case let .object(members):
            "{" + members.compactMap { m in value(m.value).map { key(m.key) + " = " + $0 } }.joined(separator: ", ") + "}"
        }
    }
}
