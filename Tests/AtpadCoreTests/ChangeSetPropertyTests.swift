@testable import AtpadCore
import AtpadTestSupport
import Testing

/// `ChangeSet` against a naive reference over random texts and random changes: a change
/// is a list of steps fed to the builder as they come (so the normal form has work to do),
/// applied to an array of scalars one step at a time, and positions are mapped through
/// its edits one at a time from the last (each a single replacement, whose rule is
/// spelled out once in `mapThroughOne`).
@Suite struct ChangeSetPropertyTests {
    enum Step: Equatable {
        case retain(Int)
        case delete(Int)
        case insert(String)
    }

    /// The reference: the steps, read naively.
    struct Reference {
        var steps: [Step]

        func apply(to old: [Unicode.Scalar]) -> [Unicode.Scalar] {
            var new: [Unicode.Scalar] = []
            var p = 0
            for step in steps {
                switch step {
                case let .retain(n):
                    new += old[p ..< p + n]
                    p += n
                case let .delete(n):
                    p += n
                case let .insert(text):
                    new += text.unicodeScalars
                }
            }
            return new
        }

        /// Each place the steps touch: a run of deletions and insertions between retains.
        var edits: [(range: Range<Int>, text: String)] {
            var result: [(range: Range<Int>, text: String)] = []
            var p = 0
            var open: (start: Int, deleted: Int, text: String)?
            for step in steps {
                switch step {
                case let .retain(n):
                    guard n > 0 else { continue }
                    if let e = open, e.deleted > 0 || !e.text.isEmpty {
                        result.append((e.start ..< e.start + e.deleted, e.text))
                    }
                    open = nil
                    p += n
                case let .delete(n):
                    var e = open ?? (p, 0, "")
                    e.deleted += n
                    open = e
                    p += n
                case let .insert(text):
                    var e = open ?? (p, 0, "")
                    e.text += text
                    open = e
                }
            }
            if let e = open, e.deleted > 0 || !e.text.isEmpty { result.append((e.start ..< e.start + e.deleted, e.text)) }
            return result
        }

        /// Where `position` goes through one replacement of `range` by `length` scalars.
        static func mapThroughOne(_ position: Int, _ range: Range<Int>, _ length: Int, _ assoc: Assoc) -> Int {
            if position < range.lowerBound { return position }
            if position > range.upperBound { return position + length - range.count }
            if range.isEmpty { return assoc == .after ? position + length : position }
            if position == range.upperBound { return range.lowerBound + length }
            return assoc == .after ? range.lowerBound + length : range.lowerBound
        }

        func mapPos(_ position: Int, _ assoc: Assoc) -> Int {
            var p = position
            for edit in edits.reversed() {
                p = Reference.mapThroughOne(p, edit.range, edit.text.unicodeScalars.count, assoc)
            }
            return p
        }

        func deletes(scalarAt position: Int) -> Bool {
            edits.contains { $0.range.contains(position) }
        }

        /// Whether `range` comes through whole: no edit deletes in it or inserts strictly
        /// inside it.
        func keeps(_ range: Range<Int>) -> Bool {
            !edits.contains { e in
                e.range.isEmpty ? range.lowerBound < e.range.lowerBound && e.range.lowerBound < range.upperBound
                    : e.range.overlaps(range)
            }
        }
    }

    static let pieces: [String] = ["a", "b", " ", "\n", "é", "e\u{301}", "王", "👩‍💻", "🇫🇷"]

    static func randomText(_ rng: inout SeededRandom, _ n: Int) -> String {
        var s = ""
        for _ in 0..<n { s += rng.pick(pieces) }
        return s
    }

    /// Random steps over a text of `length` scalars, with empty and repeated steps and
    /// insertions before deletions, as the builder must put right.
    static func randomSteps(_ rng: inout SeededRandom, length: Int) -> [Step] {
        var steps: [Step] = []
        var left = length
        while left > 0 || rng.chance(0.2) {
            switch rng.int(0..<6) {
            case 0, 1:
                let n = min(left, rng.int(0..<6))
                steps.append(.retain(n))
                left -= n
            case 2, 3:
                let n = min(left, rng.int(0..<4))
                steps.append(.delete(n))
                left -= n
            default:
                steps.append(.insert(randomText(&rng, rng.int(0..<3))))
            }
            if left == 0 && rng.chance(0.5) { break }
        }
        return steps
    }

    static func build(_ steps: [Step]) -> ChangeSet {
        var changes = ChangeSet()
        for step in steps {
            switch step {
            case let .retain(n): changes.retain(n)
            case let .delete(n): changes.delete(n)
            case let .insert(text): changes.insert(text)
            }
        }
        return changes
    }

    static func apply(_ changes: ChangeSet, to old: [Unicode.Scalar]) -> [Unicode.Scalar] {
        Reference(steps: changes.operations.map { op in
            switch op {
            case let .retain(n): .retain(n)
            case let .delete(n): .delete(n)
            case let .insert(text, _): .insert(text)
            }
        }).apply(to: old)
    }

    /// Why `changes` is not in the normal form, or nil.
    static func abnormal(_ changes: ChangeSet) -> String? {
        var previous: ChangeSet.Operation?
        for op in changes.operations {
            switch (previous, op) {
            case (_, .retain(0)), (_, .delete(0)), (_, .insert(_, 0)): return "an empty operation"
            case (.retain?, .retain), (.delete?, .delete), (.insert?, .insert): return "two neighbours of one kind"
            case (.insert?, .delete): return "an insertion before a deletion"
            default: break
            }
            if case let .insert(text, length) = op, text.unicodeScalars.count != length { return "a wrong length" }
            previous = op
        }
        return nil
    }

    /// A random text, and a random change of it with its reference.
    static func random(_ rng: inout SeededRandom) -> (text: [Unicode.Scalar], steps: [Step], changes: ChangeSet) {
        let text = Array(randomText(&rng, rng.int(0..<40)).unicodeScalars)
        let steps = randomSteps(&rng, length: text.count)
        return (text, steps, build(steps))
    }

    @Test(arguments: 0..<300)
    func buildsAndAppliesLikeTheReference(_ seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &* 7919 &+ 11)
        let (text, steps, changes) = Self.random(&rng)
        let reference = Reference(steps: steps)
        let expected = reference.apply(to: text)
        #expect(Self.abnormal(changes) == nil, "seed \(seed): \(changes.operations)")
        #expect(changes.lengthBefore == text.count && changes.lengthAfter == expected.count, "seed \(seed)")
        #expect(Self.apply(changes, to: text) == expected, "seed \(seed)")
        #expect(changes.edits.map { ($0.range, $0.text) }.elementsEqual(reference.edits, by: { $0 == $1 }), "seed \(seed)")
        #expect(changes.isIdentity == reference.edits.isEmpty, "seed \(seed)")
        var start = 0
        var delta = 0
        for edit in changes.edits {
            #expect(edit.start == edit.range.lowerBound + delta && edit.length == edit.text.unicodeScalars.count)
            #expect(edit.range.lowerBound >= start, "seed \(seed): edits out of order")
            delta += edit.length - edit.range.count
            start = edit.range.upperBound
        }
    }

    @Test(arguments: 0..<300)
    func mapsPositionsLikeTheReference(_ seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &* 6271 &+ 5)
        let (text, steps, changes) = Self.random(&rng)
        let reference = Reference(steps: steps)
        for position in 0 ... text.count {
            for assoc in [Assoc.before, .after] {
                #expect(changes.mapPos(position, assoc: assoc) == reference.mapPos(position, assoc),
                        "seed \(seed): \(position) \(assoc) through \(changes.operations)")
            }
            #expect(changes.deletes(scalarAt: position) == reference.deletes(scalarAt: position), "seed \(seed)")
        }
    }

    @Test(arguments: 0..<200)
    func keepsRangesLikeTheReference(_ seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &* 3571 &+ 17)
        let (text, steps, changes) = Self.random(&rng)
        let reference = Reference(steps: steps)
        var ranges: [Range<Int>] = []
        var p = 0
        while p < text.count {
            let lower = p + rng.int(0..<4)
            let upper = lower + rng.int(1..<5)
            guard upper <= text.count else { break }
            ranges.append(lower ..< upper)
            p = upper
        }
        let kept = changes.keptRanges(ranges)
        let new = Self.apply(changes, to: text)
        for (range, mapped) in zip(ranges, kept) {
            guard reference.keeps(range) else {
                #expect(mapped == nil, "seed \(seed): \(range) is not kept through \(changes.operations)")
                continue
            }
            #expect(mapped == changes.mapRange(range), "seed \(seed): \(range)")
            if let mapped {
                #expect(Array(new[mapped]) == Array(text[range]), "seed \(seed): \(range) → \(mapped)")
                // And back again.
                #expect(changes.keptRanges([mapped], backward: true) == [range], "seed \(seed): \(mapped) back")
            }
        }
    }

    @Test(arguments: 0..<300)
    func composeIsBothInTurn(_ seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 1)
        let (text, _, first) = Self.random(&rng)
        let middle = Self.apply(first, to: text)
        let second = Self.build(Self.randomSteps(&rng, length: middle.count))
        let both = first.compose(second)
        #expect(Self.abnormal(both) == nil, "seed \(seed): \(both.operations)")
        #expect(both.lengthBefore == text.count && both.lengthAfter == second.lengthAfter, "seed \(seed)")
        #expect(Self.apply(both, to: text) == Self.apply(second, to: middle),
                "seed \(seed): \(first.operations) then \(second.operations) as \(both.operations)")
        // Composing with the change that keeps everything changes nothing.
        #expect(first.compose(ChangeSet(length: middle.count)) == first, "seed \(seed)")
        #expect(ChangeSet(length: text.count).compose(first) == first, "seed \(seed)")
    }

    @Test(arguments: 0..<300)
    func invertedTakesTheTextBack(_ seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &* 15_485_863 &+ 7)
        let (text, _, changes) = Self.random(&rng)
        let removed = changes.edits.map { String(String.UnicodeScalarView(text[$0.range])) }
        let inverse = changes.inverted(removed: removed)
        let new = Self.apply(changes, to: text)
        #expect(Self.abnormal(inverse) == nil, "seed \(seed)")
        #expect(inverse.lengthBefore == new.count && inverse.lengthAfter == text.count, "seed \(seed)")
        #expect(Self.apply(inverse, to: new) == text, "seed \(seed): \(changes.operations) back by \(inverse.operations)")
        #expect(Self.apply(changes.compose(inverse), to: text) == text, "seed \(seed)")
        let back = inverse.edits.map { String(String.UnicodeScalarView(new[$0.range])) }
        #expect(inverse.inverted(removed: back) == changes, "seed \(seed)")
    }

    // MARK: - Examples

    @Test func theNormalForm() {
        var changes = ChangeSet()
        changes.retain(2)
        changes.insert("xy")
        changes.delete(1)
        changes.retain(0)
        changes.delete(2)
        changes.insert("z")
        changes.retain(3)
        #expect(changes.operations == [.retain(2), .delete(3), .insert("xyz", length: 3), .retain(3)])
        #expect(changes.lengthBefore == 8 && changes.lengthAfter == 8)
        #expect(changes.edits == [ChangeSet.Edit(range: 2 ..< 5, start: 2, text: "xyz", length: 3)])
    }

    @Test func mappingAroundOneReplacement() {
        // "abcdef" with "cd" replaced by "XYZ": "abXYZef".
        let changes = ChangeSet(length: 6, replacing: [(2 ..< 4, "XYZ")])
        #expect(changes.mapPos(1, assoc: .after) == 1)
        #expect(changes.mapPos(2, assoc: .before) == 2)
        #expect(changes.mapPos(2, assoc: .after) == 5)
        #expect(changes.mapPos(3, assoc: .before) == 2)
        #expect(changes.mapPos(4, assoc: .before) == 5)
        #expect(changes.mapPos(5, assoc: .before) == 6)
        #expect(changes.mapRange(4 ..< 6) == 5 ..< 7)
        #expect(changes.deletes(scalarAt: 3) && !changes.deletes(scalarAt: 4))
        // An insertion at a position: `assoc` decides.
        let insertion = ChangeSet(length: 3, replacing: [(1 ..< 1, "új")])
        #expect(insertion.mapPos(1, assoc: .before) == 1)
        #expect(insertion.mapPos(1, assoc: .after) == 3)
        #expect(insertion.mapRange(1 ..< 2) == 3 ..< 4)
        #expect(insertion.mapRange(0 ..< 1) == 0 ..< 1)
    }
}
