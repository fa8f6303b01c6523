import AtpadCore

/// Reading a JSON-RPC message's members (LSP 3.17): the first member of a name, and the
/// value as the protocol's types.
extension JSONValue {
    subscript(_ key: String) -> JSONValue? {
        guard case let .object(members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    var string: String? {
        if case let .string(s) = kind { return s }
        return nil
    }

    /// An integer number (LSP's `integer` and `uinteger`).
    var int: Int? {
        if case let .number(literal) = kind { return Int(literal) }
        return nil
    }

    var bool: Bool? {
        if case let .bool(b) = kind { return b }
        return nil
    }

    var array: [JSONValue]? {
        if case let .array(a) = kind { return a }
        return nil
    }

    var isNull: Bool {
        if case .null = kind { return true }
        return false
    }
}
