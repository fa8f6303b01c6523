@testable import AtpadTerminal
import AtpadCore
import Testing

/// The wrap cache is transparent: cached rows equal freshly wrapped ones, whatever the
/// order of requests and however often the generations turn over.
@Suite struct WrapCacheTests {
    @Test func cachedRowsEqualFreshOnes() {
        let cache = WrapCache()
        let lines = (0..<700).map { "line \($0) with some words that wrap 王伟 \($0 % 7)" }
        for round in 0..<3 {
            for (i, line) in lines.enumerated() where (i + round) % 3 != 0 {
                let width = 10 + (i % 5)
                let atomic = i % 4 == 0 ? [0..<4] : []
                #expect(cache.rows(line, width: width, tabWidth: 4, atomic: atomic)
                        == SoftWrap.rows(line, width: width, tabWidth: 4, atomic: atomic))
            }
        }
    }

    @Test func keyIncludesWidthAndMentions() {
        let cache = WrapCache()
        let a = cache.rows("one two three", width: 5, tabWidth: 4, atomic: [])
        let b = cache.rows("one two three", width: 8, tabWidth: 4, atomic: [])
        let c = cache.rows("one two three", width: 5, tabWidth: 4, atomic: [0..<7])
        #expect(a == SoftWrap.rows("one two three", width: 5))
        #expect(b == SoftWrap.rows("one two three", width: 8))
        #expect(c == SoftWrap.rows("one two three", width: 5, atomic: [0..<7]))
    }

    /// "é" and "e\u{301}" are equal Strings but not the same text to wrap: the decomposed
    /// one's row ends a scalar later. Keyed by String, the cache once gave it the other's rows.
    @Test func canonicallyEquivalentTextsAreCachedApart() {
        let cache = WrapCache()
        let composed = cache.rows("caf\u{E9} ok", width: 20, tabWidth: 4, atomic: [])
        let decomposed = cache.rows("cafe\u{301} ok", width: 20, tabWidth: 4, atomic: [])
        #expect(composed == SoftWrap.rows("caf\u{E9} ok", width: 20))
        #expect(decomposed == SoftWrap.rows("cafe\u{301} ok", width: 20))
        #expect(decomposed.last?.end == 8)
    }
}
