import AtpadCore

/// The entities read from one file, in file order, each with the byte offset where it
/// starts, so that a later message (a duplicate id) can name its line.
struct ParsedEntities {
    private(set) var entities: [Entity] = []
    private(set) var starts: [Int] = []

    init(entities: [Entity] = []) {
        self.entities = entities
    }

    /// Makes room for about one entity per line of `bytes` (and at most one per
    /// `minimumBytesEach` bytes), guessed from the first 64 KB: growing an array of a
    /// million entities by doubling would copy hundreds of megabytes.
    mutating func reserve(expectingLinesOf bytes: UnsafeBufferPointer<UInt8>, minimumBytesEach: Int = 1) {
        let sample = min(bytes.count, 1 << 16)
        var lines = 1
        for index in 0 ..< sample where bytes[index] == 0x0A { lines += 1 }
        let guess = Int(Double(bytes.count) * Double(lines) / Double(max(sample, 1)) * 1.05) + 16
        let expected = min(guess, bytes.count / max(minimumBytesEach, 1) + 16)
        entities.reserveCapacity(expected)
        starts.reserveCapacity(expected)
    }

    mutating func append(_ entity: consuming Entity, at offset: Int) {
        entities.append(entity)
        starts.append(offset)
    }
}
