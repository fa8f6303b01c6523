/// Values built to be written by ``JSONWriter`` rather than read: their offset is 0, and
/// an object keeps its members in the order given (the order they are written in).
extension JSONValue {
    /// A value of `kind`, built rather than read.
    public init(_ kind: Kind) {
        self.init(kind: kind, offset: 0)
    }

    public static func object(_ members: [(key: String, value: JSONValue)]) -> JSONValue {
        JSONValue(.object(members))
    }

    public static func array(_ elements: [JSONValue]) -> JSONValue {
        JSONValue(.array(elements))
    }

    public static func string(_ text: String) -> JSONValue {
        JSONValue(.string(text))
    }

    /// The string, or null for nil.
    public static func string(orNull text: String?) -> JSONValue {
        text.map(string) ?? null
    }

    public static func number(_ n: Int) -> JSONValue {
        JSONValue(.number(String(n)))
    }

    /// A finite `Double` as Swift writes it (`1.0`, `1700000000.5`, `1e-05`), which reads
    /// back as the same `Double`.
    public static func number(_ x: Double) -> JSONValue {
        JSONValue(.number("\(x)"))
    }

    /// A number literal already in JSON's grammar (a duration with its decimals).
    public static func number(literal: String) -> JSONValue {
        JSONValue(.number(literal))
    }

    public static func bool(_ flag: Bool) -> JSONValue {
        JSONValue(.bool(flag))
    }

    public static let null = JSONValue(.null)
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral text: String) {
        self.init(.string(text))
    }

    public init(integerLiteral n: Int) {
        self.init(.number(String(n)))
    }

    public init(booleanLiteral flag: Bool) {
        self.init(.bool(flag))
    }

    public init(arrayLiteral elements: JSONValue...) {
        self.init(.array(elements))
    }

    /// An object whose members are in the literal's order.
    public init(dictionaryLiteral members: (String, JSONValue)...) {
        self.init(.object(members.map { (key: $0.0, value: $0.1) }))
    }
}
