import AtpadCore

/// A small directory for core tests: a name word or handle starts with the query (folded
/// by case only), in directory order. Ranking proper is tested in AtpadDirectoryTests.
let samplePeople: [Entity] = [
    Entity(id: "1", name: "John Doe", handle: "jdoe"),
    Entity(id: "2", name: "Jane Roe", handle: "jroe"),
    Entity(id: "3", name: "Johanna Lee"),
    Entity(id: "4", name: "Bruce Wayne", handle: "batman"),
    Entity(id: "5", name: "Travis Bickle"),
    Entity(id: "6", name: "Travis Barker"),
    Entity(id: "7", name: "王伟"),
    Entity(id: "8", name: "Zoë Ørsted"),
]

func prefixAnswer(_ people: [Entity]) -> (String) -> [Candidate] {
    { query in
        let q = query.lowercased().split(separator: " ").map(String.init)
        return people.filter { e in
            if q.isEmpty { return true }
            let words = e.name.lowercased().split(separator: " ").map(String.init)
            if q.count == 1, let h = e.handle, h.hasPrefix(q[0]) { return true }
            var w = 0
            for part in q {
                while w < words.count && !words[w].hasPrefix(part) { w += 1 }
                if w == words.count { return false }
                w += 1
            }
            return true
        }.map { Candidate(entity: $0) }
    }
}

/// Drives an `Editor` with a key script in the replay notation and answers its queries
/// at once (or records them, with `autoAnswer` off), for tests written as
/// `(start markup with | for the cursor, keys) → expected markup with |`.
struct Harness {
    var editor: Editor
    var answer: (String) -> [Candidate]
    var autoAnswer = true
    /// Every effect the editor produced, in order.
    var effects: [Effect] = []

    init(_ start: String = "|", config: EditorConfig = EditorConfig(), people: [Entity] = samplePeople) throws {
        let (doc, cursor) = try AtpadMarkup.decodeWithCursor(start)
        editor = Editor(doc, cursor: cursor, config: config)
        answer = prefixAnswer(people)
    }

    mutating func keys(_ script: String) throws {
        for key in try KeyScript.parse(script) { press(key) }
    }

    mutating func press(_ key: Key) {
        run(editor.handle(key))
    }

    mutating func run(_ new: [Effect]) {
        var queue = new
        while !queue.isEmpty {
            let e = queue.removeFirst()
            effects.append(e)
            guard autoAnswer else { continue }
            switch e {
            case let .query(id, _, q):
                queue += editor.receive(.batch(queryID: id, answer(q), isFinal: true))
            case let .cancel(id):
                queue += editor.receive(.ended(queryID: id))
            default:
                break
            }
        }
    }

    /// The document as markup with `|` at the cursor.
    var state: String { Harness.render(editor) }

    static func render(_ editor: Editor) -> String {
        let doc = editor.marked
        let c = editor.cursor
        let scalars = Array(doc.text.unicodeScalars)
        var before = MarkedText(text: String(String.UnicodeScalarView(scalars[..<c])))
        var after = MarkedText(text: String(String.UnicodeScalarView(scalars[c...])))
        for m in doc.mentions {
            if m.range.upperBound <= c { before.mentions.append(m) } else { after.mentions.append(m.shifted(by: -c)) }
        }
        return AtpadMarkup.encode(before) + "|" + AtpadMarkup.encode(after)
    }

    var chooserIDs: [String] { editor.search?.items.map(\.entity.id) ?? [] }
    var query: String? { editor.search?.query }
    var queries: [String] {
        effects.compactMap { if case let .query(_, _, q) = $0 { return q } else { return nil } }
    }
}

/// Runs `keys` from `start` and returns the resulting markup with `|` at the cursor.
func edit(_ start: String, _ keys: String, config: EditorConfig = EditorConfig()) throws -> String {
    var h = try Harness(start, config: config)
    try h.keys(keys)
    return h.state
}
