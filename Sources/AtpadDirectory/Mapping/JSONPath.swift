import AtpadCore
import AtpadSystem

/// A path into a JSON value (docs/directories.md, "Connect your directory"): `members`,
/// `profile.title`, `@odata.nextLink`, `emails.0`. At each step the rest of the path is
/// first looked up as one whole key, then split at its dots, left to right, so keys that
/// contain dots are found. A number step picks that element of an array. The empty path is
/// the value itself.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    public let text: String

    public init(_ text: String) {
        self.text = text.trimmed()
    }

    public var description: String { text }

    /// The value at this path in `value`, nil when any step is missing.
    public func lookup(in value: JSONValue) -> JSONValue? {
        text.isEmpty ? value : Self.lookup(Substring(text), in: value)
    }

    private static func lookup(_ path: Substring, in value: JSONValue) -> JSONValue? {
        switch value.kind {
        case .object(let members):
            if let whole = members.first(where: { $0.key == path }) { return whole.value }
            var dot = path.firstIndex(of: ".")
            while let split = dot {
                let key = path[..<split]
                if let member = members.first(where: { $0.key == key }),
                   let found = lookup(path[path.index(after: split)...], in: member.value) {
                    return found
                }
                dot = path[path.index(after: split)...].firstIndex(of: ".")
            }
            return nil
        case .array(let elements):
            let end = path.firstIndex(of: ".") ?? path.endIndex
            guard let index = Int(path[..<end]), elements.indices.contains(index) else { return nil }
            return end == path.endIndex ? elements[index] : lookup(path[path.index(after: end)...], in: elements[index])
        default:
            return nil
        }
    }
}

extension JSONValue {
    /// The value as a map reads it: strings as they are, numbers and booleans as their
    /// JSON text; nil for `null` and `""` (absent); ``JSONValue/Kind/noun`` for objects and
    /// arrays, which have no text, through `container`.
    func scalarText() -> ScalarText {
        switch kind {
        case .string(let text): text.isEmpty ? .absent : .text(text)
        case .number(let literal): .text(literal)
        case .bool(let flag): .text(flag ? "true" : "false")
        case .null: .absent
        case .object, .array: .container(kind.noun)
        }
    }

    enum ScalarText: Equatable {
        case text(String)
        case absent
        case container(String)
    }

    /// Whether the value is JSON `true`.
    var isTrue: Bool {
        if case .bool(true) = kind { return true }
        return false
    }
}
