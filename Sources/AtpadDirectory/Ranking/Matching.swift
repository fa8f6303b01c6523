import AtpadCore

/// The four matchers of docs/directories.md, "Ranking and frecency", over folded scalars.
/// Each reports matched spans of the name as (start, end) folded offsets through `emit`.
enum Matching {
    /// Whether `text[start ..< end]` starts with `prefix`.
    static func starts<Text: FoldedText>(_ text: Text, _ start: Int, _ end: Int,
                                         with prefix: ArraySlice<UInt32>) -> Bool {
        guard prefix.count <= end - start else { return false }
        var offset = start
        for value in prefix {
            if text[offset] != value { return false }
            offset += 1
        }
        return true
    }

    /// Each query word starts a different name word, in order. Taking the earliest
    /// possible name word for each query word finds an assignment whenever one exists.
    static func wordPrefixes<Text: FoldedText>(
        _ query: FoldedQuery,
        name: Text,
        words: UnsafeBufferPointer<Int32>,
        emit: (Int, Int) -> Void
    ) -> Bool {
        guard !query.words.isEmpty else { return false }
        var word = 0
        let wordCount = words.count / 2
        for queryWord in query.words {
            let needle = query.scalars[queryWord]
            var found = false
            while word < wordCount {
                let start = Int(words[word * 2])
                let end = Int(words[word * 2 + 1])
                word += 1
                if starts(name, start, end, with: needle) {
                    emit(start, start + needle.count)
                    found = true
                    break
                }
            }
            if !found { return false }
        }
        return true
    }

    /// The query (one word, two scalars or more) is the first letters of as many
    /// consecutive name words.
    static func initials<Text: FoldedText>(
        _ query: FoldedQuery,
        name: Text,
        words: UnsafeBufferPointer<Int32>,
        emit: (Int, Int) -> Void
    ) -> Bool {
        let length = query.scalars.count
        let wordCount = words.count / 2
        guard !query.hasSpace, length >= 2, length <= wordCount else { return false }
        for first in 0 ... wordCount - length {
            var all = true
            for offset in 0 ..< length where name[Int(words[(first + offset) * 2])] != query.scalars[offset] {
                all = false
                break
            }
            if all {
                for offset in 0 ..< length {
                    let start = Int(words[(first + offset) * 2])
                    emit(start, start + 1)
                }
                return true
            }
        }
        return false
    }

    /// The first occurrence of `needle` in `text`.
    static func substring<Text: FoldedText>(
        _ needle: [UInt32],
        of text: Text,
        emit: (Int, Int) -> Void
    ) -> Bool {
        guard !needle.isEmpty, needle.count <= text.count else { return false }
        let first = needle[0]
        for start in 0 ... text.count - needle.count where text[start] == first {
            var offset = 1
            while offset < needle.count, text[start + offset] == needle[offset] { offset += 1 }
            if offset == needle.count {
                emit(start, start + needle.count)
                return true
            }
        }
        return false
    }

    /// `needle` appears in order in `text`, each scalar at its earliest place.
    static func subsequence<Text: FoldedText>(
        _ needle: [UInt32],
        of text: Text,
        emit: (Int, Int) -> Void
    ) -> Bool {
        guard !needle.isEmpty else { return false }
        var next = 0
        for offset in 0 ..< text.count where text[offset] == needle[next] {
            emit(offset, offset + 1)
            next += 1
            if next == needle.count { return true }
        }
        return false
    }

    /// `needle` (possibly empty) appears in order in `text`.
    static func isSubsequence<Text: FoldedText>(_ needle: [UInt32], of text: Text) -> Bool {
        var next = 0
        guard next < needle.count else { return true }
        for offset in 0 ..< text.count where text[offset] == needle[next] {
            next += 1
            if next == needle.count { return true }
        }
        return false
    }
}
