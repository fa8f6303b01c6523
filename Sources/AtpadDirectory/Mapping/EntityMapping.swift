import FoundationEssentials
import AtpadCore
import AtpadSystem

/// How a source's JSON becomes entities (docs/directories.md, "Connect your directory"):
/// `items` (where the array is), `map` (where each field of an entity is) and `exclude`
/// (which items to skip).
///
/// A field's rule is a path (`profile.title`), alternatives separated by `//` (the first
/// present and non-empty wins: `real_name // name`), or — when it has a `{` — a template
/// whose `{path}` parts are filled in (`{title} · {team}`; an absent part is empty, and a
/// template whose parts are all absent is absent). A template is not split at `//`, so
/// `https://example.com/{login}` is one template. Fields without a rule keep their own
/// names (`id` is read from `id`).
public struct EntityMapping: Equatable, Sendable {
    /// The fields a map may set.
    public static let fields = ["id", "name", "handle", "detail", "url", "insert", "email"]
        + Service.allCases.map { "accounts." + $0.rawValue }

    /// The path of the array of items in the answer; nil: the answer is the array (or, for
    /// a command, one item per line).
    public var items: JSONPath?
    /// The rule of each mapped field, by field name.
    public var map: [String: FieldRule]
    /// Items where any of these paths is `true` are skipped.
    public var exclude: [JSONPath]

    /// The mapping of atpad's own entity shape: nothing to change.
    public static let plain = try! EntityMapping()

    /// A mapping; throws a ``SourceError`` naming an unknown field.
    public init(items: String? = nil, map: [String: String] = [:], exclude: [String] = []) throws(SourceError) {
        self.items = items.map(JSONPath.init)
        var rules: [String: FieldRule] = [:]
        for (field, rule) in map {
            guard Self.fields.contains(field) else {
                throw SourceError("map: unknown field \"\(field)\" (the fields are \(Self.fields.joined(separator: ", ")))")
            }
            rules[field] = FieldRule(rule)
        }
        self.map = rules
        self.exclude = exclude.map(JSONPath.init)
    }

    /// The mapping as stable text (for naming a cache file).
    var key: String {
        let rules = map.keys.sorted().map { "\($0)=\(map[$0]!.text)" }.joined(separator: ",")
        return "items=\(items?.text ?? "-");map=\(rules);exclude=\(exclude.map(\.text).joined(separator: ","))"
    }

    /// Whether this mapping changes nothing: atpad's own entity shape, as in
    /// docs/directories.md, "Directory files".
    public var isPlain: Bool { items == nil && map.isEmpty && exclude.isEmpty }

    /// Parses a command-line `--map` value: `id=login,name=name//login,detail={title} · {team}`.
    /// A comma starts the next rule only when a word and `=` follow it, so templates may
    /// hold commas (but not `, word=`).
    public static func parseMapOption(_ text: String) throws(SourceError) -> [String: String] {
        var rules: [String: String] = [:]
        var pieces: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == ",", startsRule(text[text.index(after: index)...]) {
                pieces.append(text[start ..< index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        pieces.append(text[start...])
        for piece in pieces {
            guard let eq = piece.firstIndex(of: "=") else {
                throw SourceError("--map '\(text)': expected FIELD=PATH, separated by commas")
            }
            let field = piece[..<eq].trimmed()
            guard fields.contains(field) else {
                throw SourceError("--map '\(text)': unknown field \"\(field)\" (the fields are \(fields.joined(separator: ", ")))")
            }
            rules[field] = String(piece[piece.index(after: eq)...])
        }
        return rules
    }

    private static func startsRule(_ rest: Substring) -> Bool {
        let trimmed = rest.drop { $0 == " " }
        guard let eq = trimmed.firstIndex(of: "=") else { return false }
        let name = trimmed[..<eq].trimmed()
        return !name.isEmpty && name.allSatisfy { $0.isLetter || $0 == "_" || $0 == "." }
    }

    // MARK: - Reading

    /// The items of `document`: the array at ``items`` (or the document itself when it is
    /// not set). A missing path or one that is not an array is a failure saying so.
    public func items(of document: JSONValue) throws(SourceError) -> [JSONValue] {
        let path = items ?? JSONPath("")
        guard let found = path.lookup(in: document) else {
            throw SourceError("items \"\(path)\" is not in the answer")
        }
        guard case .array(let elements) = found.kind else {
            let place = path.text.isEmpty ? "the answer" : "items \"\(path)\""
            throw SourceError("\(place) is \(found.kind.noun), not an array")
        }
        return elements
    }

    /// What one item becomes.
    public enum Outcome: Equatable {
        case entity(Entity)
        /// An `exclude` path is true.
        case excluded
        /// No id or no name after mapping.
        case incomplete
    }

    /// The entity of one item. A rule that reaches an object or an array is a failure
    /// naming the field and the item (`number`, from 1).
    public func entity(from item: JSONValue, number: Int) throws(SourceError) -> Outcome {
        for path in exclude where path.lookup(in: item)?.isTrue == true { return .excluded }
        func field(_ name: String) throws(SourceError) -> String? {
            let rule = map[name] ?? FieldRule(name)
            do {
                return try rule.value(in: item)
            } catch {
                throw SourceError("map \(name) = \"\(rule.text)\": item \(number) has \(error.noun) there, not a value")
            }
        }
        guard let id = try field("id"), let name = try field("name") else { return .incomplete }
        var accounts: [Service: String] = [:]
        for service in Service.allCases {
            if let account = try field("accounts." + service.rawValue) { accounts[service] = account }
        }
        return .entity(Entity(id: id, name: name, handle: try field("handle"), detail: try field("detail"),
                              url: try field("url"), insert: try field("insert"), email: try field("email"),
                              accounts: accounts))
    }

    /// The entities of `items`, in order, with how many were incomplete (excluded items
    /// are not counted: skipping them is what was asked).
    public func entities(of items: [JSONValue]) throws(SourceError) -> (entities: [Entity], incomplete: Int) {
        var entities: [Entity] = []
        entities.reserveCapacity(items.count)
        var incomplete = 0
        for (offset, item) in items.enumerated() {
            switch try entity(from: item, number: offset + 1) {
            case .entity(let entity): entities.append(entity)
            case .excluded: break
            case .incomplete: incomplete += 1
            }
        }
        return (entities, incomplete)
    }

    /// The one-line note about skipped items (docs/directories.md, "Connect your directory").
    public static func skippedNote(_ count: Int) -> String {
        "\(count) item\(count == 1 ? "" : "s") without id or name skipped"
    }
}

/// One field's rule in a map: alternatives, each a path or a template.
public struct FieldRule: Equatable, Sendable {
    /// The rule as written.
    public let text: String
    private let alternatives: [Alternative]

    private enum Alternative: Equatable, Sendable {
        case path(JSONPath)
        /// Literal text and paths, in order.
        case template([TemplatePart])
    }

    private enum TemplatePart: Equatable, Sendable {
        case literal(String)
        case path(JSONPath)
    }

    /// The reason a rule has no value: it reached an object or an array.
    struct NotAValue: Error {
        let noun: String
    }

    public init(_ text: String) {
        self.text = text
        if text.contains("{") {
            alternatives = [.template(Self.templateParts(text))]
        } else {
            alternatives = text.components(separatedBy: "//").map { .path(JSONPath($0)) }
        }
    }

    private static func templateParts(_ text: String) -> [TemplatePart] {
        var parts: [TemplatePart] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            parts.append(.path(JSONPath(String(rest[rest.index(after: open) ..< close]))))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        return parts
    }

    /// The field's text in `item`; nil when absent.
    func value(in item: JSONValue) throws(NotAValue) -> String? {
        for alternative in alternatives {
            switch alternative {
            case .path(let path):
                guard let found = path.lookup(in: item) else { continue }
                switch found.scalarText() {
                case .text(let text): return text
                case .absent: continue
                case .container(let noun): throw NotAValue(noun: noun)
                }
            case .template(let parts):
                var text = ""
                var anyPresent = false
                for part in parts {
                    switch part {
                    case .literal(let literal): text += literal
                    case .path(let path):
                        guard let found = path.lookup(in: item) else { continue }
                        switch found.scalarText() {
                        case .text(let value):
                            text += value
                            anyPresent = true
                        case .absent: break
                        case .container(let noun): throw NotAValue(noun: noun)
                        }
                    }
                }
                if anyPresent, !text.isEmpty { return text }
            }
        }
        return nil
    }
}
