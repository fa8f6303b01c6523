/// Mention syntax a decoder found but could not resolve through the directory, collected
/// into one note (`2 mentions not in the directory were left as text: @ghost, <@U999>`).
struct UnresolvedMentions {
    /// How many distinct spellings the note lists before it says how many more there are.
    static let listed = 5

    private(set) var count = 0
    private var spellings: [String] = []
    private var seen: Set<String> = []

    /// Records one occurrence of `spelling` (the syntax as written in the file).
    mutating func add(_ spelling: String) {
        count += 1
        if seen.insert(spelling).inserted { spellings.append(spelling) }
    }

    /// The note, or nil when every mention was resolved.
    var note: String? {
        guard count > 0 else { return nil }
        var list = spellings.prefix(Self.listed).joined(separator: ", ")
        if spellings.count > Self.listed { list += " and \(spellings.count - Self.listed) more" }
        let subject = count == 1 ? "1 mention not in the directory was" : "\(count) mentions not in the directory were"
        return "\(subject) left as text: \(list)"
    }
}
