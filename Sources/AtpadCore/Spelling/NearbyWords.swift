/// The words a dictionary knows one edit away from a misspelt word: the quick half of
/// Hunspell's own suggestions (docs/spelling.md, "Suggestions"). Most typing errors are one
/// edit — two letters swapped, one left out, one too many, one wrong — and trying each
/// such spelling is a few hundred lookups, where Hunspell's full suggestion also compares
/// the word with the whole dictionary (tens of ms a word). Spelling suggests these first
/// and asks Hunspell only when no letter's edit finds a word (``Found/byLetters``).
public enum NearbyWords {
    /// The known spellings one edit from `word`, best first and without repeats: its case
    /// changed (`english` → `English`, `tHE` → `the`), a misspelling the dictionary names
    /// (`rules`' replacements: `alot` → `a lot`), two neighbouring letters swapped
    /// (`recieve`), a letter missing (`wich` → `which`), a letter too many, a letter wrong,
    /// a letter doubled in the wrong place (`tommorow` → `tomorrow`), then a space missing
    /// (`untill` → `until l`). The letters added and changed are the
    /// `rules`' alphabet, most common first, which orders the finds of one kind. A
    /// capitalised word is tried in lower case and its finds capitalised again.
    ///
    /// `knows` is asked about each candidate as its UTF-8 bytes and a NUL, which a Hunspell
    /// handle reads as they are: the candidates are made as bytes, not strings, since
    /// making hundreds of strings a word took as long as Hunspell's lookups.
    public static func find(_ word: String, rules: Rules,
                            knows: (UnsafePointer<CChar>) -> Bool) -> Found {
        var letters = Array(word.unicodeScalars)
        guard !letters.isEmpty, !letters.contains("\0") else { return Found(words: [], byLetters: false) }
        let capitalised = letters[0].properties.isUppercase
            && !letters.dropFirst().contains { $0.properties.isUppercase }
        if capitalised { letters[0] = lowercased(letters[0]) }
        let count = letters.count
        let alphabet = rules.alphabet.filter { $0 != "\0" }
        // Asked in the loops below for every candidate: looked up once.
        let isLetter = letters.map(\.properties.isAlphabetic), alphabetIsLetter = alphabet.map(\.properties.isAlphabetic)

        // Each candidate is a list of pieces: the word's letters (0 ..< count), then the
        // alphabet's; each piece's bytes as they are and capitalised.
        let scalars = letters + alphabet
        let pieces = scalars.map(bytes)
        let capitals = scalars.map { bytes(uppercased($0)) }
        var candidate: [Int] = []
        var buffer: [CChar] = []
        var found: [String] = []
        var byLetters = false
        func keep(_ text: String, byLetter: Bool) {
            guard !found.contains(text) else { return }
            found.append(text)
            byLetters = byLetters || byLetter
        }

        /// Whether the candidate is known; a known one is kept unless it is kept already.
        @discardableResult
        func test(capitalising: Bool = capitalised, keeping: Bool = true) -> Bool {
            buffer.removeAll(keepingCapacity: true)
            for (place, piece) in candidate.enumerated() {
                buffer.append(contentsOf: place == 0 && capitalising ? capitals[piece] : pieces[piece])
            }
            buffer.append(0)
            guard buffer.withUnsafeBufferPointer({ knows($0.baseAddress!) }) else { return false }
            if keeping { keep(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, byLetter: true) }
            return true
        }
        func take(_ places: Range<Int>) { candidate.removeAll(keepingCapacity: true); candidate += places }

        // Its case: every letter down, or the first up and the rest down (a name, a
        // sentence's start).
        let lower = letters.map(lowercased)
        for cased in [lower, [uppercased(lower[0])] + lower.dropFirst()] where cased != Array(word.unicodeScalars) {
            let text = String(String.UnicodeScalarView(cased))
            if text.withCString(knows) { keep(text, byLetter: true) }
        }
        // A misspelling the dictionary names; a space in what it gives is two words.
        for replacement in rules.replacements where !replacement.from.isEmpty {
            var start = 0
            while start + replacement.from.count <= count {
                guard let at = (start ... count - replacement.from.count).first(where: {
                    letters[$0 ..< $0 + replacement.from.count].elementsEqual(replacement.from)
                }) else { break }
                start = at + 1
                let end = at + replacement.from.count
                if replacement.atStart && at != 0 || replacement.atEnd && end != count { continue }
                var spelled = Array(letters[..<at]) + replacement.to + letters[end...]
                if capitalised, let first = spelled.first { spelled[0] = uppercased(first) }
                let text = String(String.UnicodeScalarView(spelled))
                if !text.isEmpty, text.split(separator: " ").allSatisfy({ String($0).withCString(knows) }) {
                    keep(text, byLetter: false)
                }
            }
        }
        // Two neighbouring letters swapped.
        for i in 0 ..< count - 1 where letters[i] != letters[i + 1] {
            take(0 ..< count)
            candidate.swapAt(i, i + 1)
            test()
        }
        // A letter missing. A letter put just after the same letter is the spelling of it
        // put just before, tried already.
        for i in 0 ... count {
            for (a, letter) in alphabet.enumerated() where i == 0 || letters[i - 1] != letter {
                // An apostrophe only between letters.
                if !alphabetIsLetter[a], i == 0 || i == count { continue }
                take(0 ..< i)
                candidate.append(count + a)
                candidate += i ..< count
                test()
            }
        }
        // A letter too many (of a doubled letter, the first only: the same spelling).
        if count > 1 {
            for i in 0 ..< count where i == 0 || letters[i] != letters[i - 1] {
                take(0 ..< i)
                candidate += i + 1 ..< count
                test()
            }
        }
        // A letter wrong.
        for i in 0 ..< count {
            for (a, letter) in alphabet.enumerated() where letter != letters[i] {
                if !alphabetIsLetter[a], i == 0 || i == count - 1 { continue }
                take(0 ..< count)
                candidate[i] = count + a
                test()
            }
        }
        // A letter doubled in the wrong place (`tommorow` → `tomorrow`, `neccesary` →
        // `necessary`): two edits, but one slip, and a few lookups (each double undone,
        // each single letter doubled) where every spelling two edits away would be
        // hundreds of thousands.
        for i in 0 ..< max(count - 1, 0) where letters[i] == letters[i + 1] {
            for j in 0 ..< count where j != i && j != i + 1 && isLetter[j]
                && (j == 0 || letters[j - 1] != letters[j]) && (j == count - 1 || letters[j + 1] != letters[j]) {
                candidate.removeAll(keepingCapacity: true)
                for k in 0 ..< count where k != i + 1 {
                    candidate.append(k)
                    if k == j { candidate.append(k) }
                }
                test()
            }
        }
        // Two words run together (a space missing, tried last: one half is often a
        // lone letter or an abbreviation, `until l`, `occur ed`): both halves known.
        for i in 1 ..< max(count, 1) {
            take(i ..< count)
            guard isLetter[i], isLetter[i - 1],
                  test(capitalising: false, keeping: false) else { continue }
            take(0 ..< i)
            guard test(keeping: false) else { continue }
            let head = capitalised ? [uppercased(letters[0])] + letters[1 ..< i] : Array(letters[..<i])
            keep(String(String.UnicodeScalarView(head)) + " " + String(String.UnicodeScalarView(letters[i...])),
                 byLetter: false)
        }
        return Found(words: found, byLetters: byLetters)
    }

    /// What ``find(_:rules:knows:)`` found.
    public struct Found: Equatable, Sendable {
        /// The known spellings, best first.
        public var words: [String]
        /// Whether any of them is the word with one letter (or its case) changed, rather
        /// than only a misspelling the dictionary names or a split: when none is, a word
        /// mistyped twice is likelier, and Hunspell's full suggestion does better.
        public var byLetters: Bool
    }

    /// What a dictionary's affix file says about finding what a misspelt word was meant to
    /// be: the letters to try (its `TRY` line) and the misspellings it names (its `REP`
    /// lines), as Hunspell reads them.
    public struct Rules: Sendable, Equatable {
        /// The letters added and changed, most common first: lower case (case is tried on
        /// its own) and the apostrophe, each once. A `TRY` line's other marks (`-`, `.`) are
        /// left out: Hunspell takes `w-ch` as two words and `until.` as `until`.
        public var alphabet: [Unicode.Scalar]
        /// A `REP` line: `from` (`^` before it: only at the word's start, `$` after: only
        /// at its end) is often written for `to` (`_` in it a space: `REP alot a_lot`).
        public struct Replacement: Sendable, Equatable {
            public var from: [Unicode.Scalar]
            public var to: [Unicode.Scalar]
            public var atStart: Bool
            public var atEnd: Bool
        }
        /// The misspellings named, in the file's order.
        public var replacements: [Replacement]

        /// The rules of the affix file lines `lines` (the others are not read); the letters
        /// a to z when there is no `TRY` line.
        public init(affixLines lines: [String]) {
            var letters: [Unicode.Scalar] = []
            var replacements: [Replacement] = []
            for line in lines {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                if fields.count >= 2, fields[0] == "TRY" {
                    letters += fields[1].unicodeScalars
                } else if fields.count >= 3, fields[0] == "REP" {
                    var from = Array(fields[1].unicodeScalars)
                    let atStart = from.first == "^", atEnd = from.count > 1 && from.last == "$"
                    if atStart { from.removeFirst() }
                    if atEnd { from.removeLast() }
                    let to = fields[2].unicodeScalars.map { $0 == "_" ? " " : $0 }
                    replacements.append(Replacement(from: from, to: Array(to), atStart: atStart, atEnd: atEnd))
                }
            }
            var seen: Set<Unicode.Scalar> = []
            alphabet = letters.filter {
                ($0.properties.isAlphabetic && !$0.properties.isUppercase || $0 == "'" || $0 == "\u{2019}")
                    && seen.insert($0).inserted
            }
            if alphabet.isEmpty { alphabet = (UInt8(ascii: "a") ... UInt8(ascii: "z")).map { Unicode.Scalar($0) } }
            self.replacements = replacements
        }
    }

    private static func bytes(_ scalar: Unicode.Scalar) -> [CChar] {
        Array(String(scalar).utf8).map { CChar(bitPattern: $0) }
    }

    private static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        single(scalar.properties.lowercaseMapping) ?? scalar
    }

    private static func uppercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        single(scalar.properties.uppercaseMapping) ?? scalar
    }

    /// The mapping when it is one scalar (`ß` upper-cases to two, and is left as it is).
    private static func single(_ mapping: String) -> Unicode.Scalar? {
        var scalars = mapping.unicodeScalars.makeIterator()
        guard let first = scalars.next(), scalars.next() == nil else { return nil }
        return first
    }
}
