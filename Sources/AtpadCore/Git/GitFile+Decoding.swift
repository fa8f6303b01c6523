extension GitFile {
    /// The document valid UTF-8 `bytes` hold in `format` when they are this git file: the
    /// message is read as git hands it on — without git's lines, so a comment line in a
    /// paragraph does not cut it — and git's lines are put back where they were as plain
    /// text, which nothing decodes and every format writes back as it is.
    func decode(utf8 bytes: [UInt8], format: DocumentFormat, lookup: EntityLookup) throws(FormatError) -> DecodedDocument {
        let ranges = bytes.withUnsafeBufferPointer { gitRanges($0) }
        guard !ranges.isEmpty else { return try format.decode(utf8: bytes, lookup: lookup) }
        // The message without git's lines, and for each of git's parts the message line
        // it goes before (parts start lines, so a line index finds the place again in the
        // decoded text, whatever the format made of the mentions in between).
        var message: [UInt8] = []
        message.reserveCapacity(bytes.count)
        var cuts: [(line: Int, text: ArraySlice<UInt8>)] = []
        var lines = 0
        var p = 0
        for range in ranges {
            let kept = bytes[p ..< range.lowerBound]
            message += kept
            lines += kept.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            cuts.append((lines, bytes[range]))
            p = range.upperBound
        }
        message += bytes[p...]
        var decoded = try format.decode(utf8: message, lookup: lookup)
        decoded.document = Self.splice(cuts, into: decoded.document)
        return decoded
    }

    /// `doc` with each cut's text inserted at the start of its line (or at the end when the
    /// text has fewer lines), and its mentions moved past what was inserted before them.
    static func splice(_ cuts: [(line: Int, text: ArraySlice<UInt8>)], into doc: MarkedText) -> MarkedText {
        var out: [UInt8] = []
        out.reserveCapacity(doc.text.utf8.count + cuts.reduce(0) { $0 + $1.text.count })
        var inserted: [(at: Int, length: Int)] = []  // scalar offsets in `doc.text`
        var line = 0, scalars = 0
        var cut = 0
        var utf8 = doc.text.utf8.makeIterator()
        func insertCuts() {
            while cut < cuts.count, cuts[cut].line <= line {
                out += cuts[cut].text
                inserted.append((scalars, UTF8Scan.scalarCount(cuts[cut].text)))
                cut += 1
            }
        }
        insertCuts()
        while let b = utf8.next() {
            out.append(b)
            if !UTF8Scan.isContinuation(b) { scalars += 1 }
            if b == 0x0A {
                line += 1
                insertCuts()
            }
        }
        line = .max
        insertCuts()
        var mentions: [Mention] = []
        mentions.reserveCapacity(doc.mentions.count)
        var shift = 0, k = 0
        for m in doc.mentions {
            while k < inserted.count, inserted[k].at <= m.range.lowerBound {
                shift += inserted[k].length
                k += 1
            }
            // A mention cannot hold a line break, so no cut falls inside one; if one did,
            // its text stays and the mention goes.
            if k < inserted.count, inserted[k].at < m.range.upperBound { continue }
            var moved = m
            moved.range = m.range.lowerBound + shift ..< m.range.upperBound + shift
            mentions.append(moved)
        }
        return MarkedText(text: String(decoding: out, as: UTF8.self), mentions: mentions)
    }
}
