import AtpadCore

/// The entities read from one file, in file order, each with the byte offset where it
/// starts, so that a later message (a duplicate id) can name its line.
struct ParsedEntities {
    var entities: [Entity] = []
    var starts: [Int] = []

    mutating func append(_ entity: consuming Entity, at offset: Int) {
        entities.append(entity)
        starts.append(offset)
    }
}
