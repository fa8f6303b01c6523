import AtpadCore

/// A document from atpad markup, for short format tests.
func markup(_ s: String) -> MarkedText {
    AtpadMarkup.decode(s)
}

/// A lookup with `people` under `@` and `channels` under `#`.
func lookup(_ people: [Entity], channels: [Entity] = []) -> EntityLookup {
    var directories: [Unicode.Scalar: [Entity]] = ["@": people]
    if !channels.isEmpty { directories["#"] = channels }
    return EntityLookup(directories)
}

/// The people most format tests use.
let formatPeople: [Entity] = [
    Entity(id: "u1", name: "John Doe", handle: "jdoe", url: "https://example.com/jdoe"),
    Entity(id: "u2", name: "Jane Roe", handle: "jane.roe"),
    Entity(id: "u3", name: "王伟"),
    Entity(id: "u4", name: "Zoë [x] Ørsted", url: "https://example.com/a_(b)"),
]

let formatChannels: [Entity] = [Entity(id: "C1", name: "general")]

/// The document's mentions (not its kept constructs) as `trigger id name start` strings,
/// for readable expectations.
func summary(_ doc: MarkedText) -> [String] {
    doc.listedMentions.map { "\(Character($0.trigger))\($0.id) \($0.name) \($0.range.lowerBound)" }
}

/// The text of the document's kept constructs, in order.
func kept(_ doc: MarkedText) -> [String] {
    doc.mentions.filter(\.isKept).map(\.text)
}

/// Random documents over an alphabet chosen to break every format's escaping.
struct NastyDocuments {
    /// The shared nasty pieces plus what each output format gives a meaning to.
    static let pieces: [String] = nastyPieces + [
        "<", ">", "&", "&amp;", "&lt;", "<@u1>", "<#C1>", "\\<@", "<@!", "[@x](mention:y)", "](", "*", "_", "~",
        "%", "%2", "```\n", "`", "mention:", "a@b.com", "@jdoe", "\\@[", "@[", "שלום", "e\u{301}",
    ]

    var rng: SeededRandom

    mutating func string(_ count: Range<Int>) -> String {
        var s = ""
        for _ in 0 ..< rng.int(count) { s += rng.pick(Self.pieces) }
        return s
    }

    /// A document with random plain runs and mentions of `entities` (or random ones when
    /// `entities` is empty) with the given triggers.
    mutating func document(entities: [Entity] = [], triggers: [Unicode.Scalar] = AtpadMarkup.triggers) -> MarkedText {
        var text = ""
        var length = 0
        var mentions: [Mention] = []
        for _ in 0 ..< rng.int(0 ..< 6) {
            let plain = string(0 ..< 7)
            text += plain
            length += plain.unicodeScalars.count
            if rng.chance(0.25) { continue }
            let trigger = rng.pick(triggers)
            let entity = entities.isEmpty ? Entity(id: string(1 ..< 4), name: string(1 ..< 4)) : rng.pick(entities)
            let m = Mention(trigger: trigger, entity: entity, start: length)
            mentions.append(m)
            text += m.text
            length += m.range.count
        }
        text += string(0 ..< 4)
        return MarkedText(text: text, mentions: mentions)
    }
}
