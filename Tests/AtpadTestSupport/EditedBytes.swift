/// What "an edit changes only its bytes" means for a saved file (docs/formats.md, "Files
/// come back as they were"): the property test of one edit (`OneEditPropertyTests`) and
/// the fuzz target (`Fuzz/`) ask the same question here, on bytes alone.
public enum EditedBytes {
    /// At most this many escape backslashes may be added or dropped by one edit: one
    /// needed (or made unneeded) before it and one after it, twice over for markup's pairs.
    public static let escapeAllowance = 4

    /// Whether `new` is `old` with `written` inserted at one place — give or take escape
    /// backslashes right next to it, which the edit made necessary (a `<` typed before
    /// Discord's `@1>`, a backslash typed before a markup trigger and `[`): every byte of
    /// `old` is still there, and nothing changed further away.
    public static func isInsertion(of written: [UInt8], from old: [UInt8], to new: [UInt8]) -> Bool {
        isEditAllowingMarkupEscapes(removing: [], writing: written[...], from: old, to: new, allowance: escapeAllowance)
    }

    /// Whether `new` is `old` with one run of bytes that reads as `removed` taken out and
    /// `written` put in its place — give or take escape backslashes the edit made necessary
    /// or unneeded: every other byte of `old` is still there, in order, and nothing changed
    /// further away. `removed` and `written` are the runs as their format writes them on
    /// their own. Escapes depend on what follows them (Discord doubles the backslashes
    /// right before `<@`, markup pairs those before a trigger), so beyond `escapeAllowance`
    /// each backslash of the two runs, and each of the runs of backslashes in `old` where
    /// the change begins and ends, may be one escape more or less: an edit inside a run of
    /// escaped backslashes leaves the part before it escaping nothing.
    public static func isReplacement(of removed: [UInt8], by written: [UInt8], from old: [UInt8], to new: [UInt8]) -> Bool {
        let backslash = UInt8(ascii: "\\")
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        /// The backslashes of `old` in the run that holds or ends at index `i`.
        func backslashes(at i: Int) -> Int {
            var lower = min(i, old.count), upper = lower
            while lower > 0, old[lower - 1] == backslash { lower -= 1 }
            while upper < old.count, old[upper] == backslash { upper += 1 }
            return upper - lower
        }
        let end = old.count - suffix
        let allowance = escapeAllowance + removed.count(where: { $0 == backslash }) + written.count(where: { $0 == backslash })
            + backslashes(at: prefix) + (end != prefix ? backslashes(at: end) : 0)
        // What the two runs share at either end is no change: only the rest is looked for
        // (a run replaced by itself is no edit at all).
        var removed = removed[...], written = written[...]
        while let r = removed.first, let w = written.first, r == w {
            removed.removeFirst()
            written.removeFirst()
        }
        while let r = removed.last, let w = written.last, r == w {
            removed.removeLast()
            written.removeLast()
        }
        return isEditAllowingMarkupEscapes(removing: removed, writing: written, from: old, to: new, allowance: allowance)
    }

    /// `isEdit`, or else `isEdit` of the bytes without markup's `\@[` escapes: that escape
    /// goes where literal text begins, however far before the edit — typing `](u1)` after a
    /// literal `@[aa bb` (its name as long as the line) makes the writer escape that `@[`,
    /// so that it stays text. Compared without the backslashes right before a trigger and
    /// `[`, the rest must still be the edit.
    private static func isEditAllowingMarkupEscapes(removing removed: ArraySlice<UInt8>, writing written: ArraySlice<UInt8>,
                                                    from old: [UInt8], to new: [UInt8], allowance: Int) -> Bool {
        if isEdit(removing: removed, writing: written, from: old, to: new, allowance: allowance) { return true }
        let plainOld = withoutMarkupEscapes(old), plainNew = withoutMarkupEscapes(new)
        guard plainOld != old || plainNew != new else { return false }
        return isEdit(removing: withoutMarkupEscapes(Array(removed))[...], writing: withoutMarkupEscapes(Array(written))[...],
                      from: plainOld, to: plainNew, allowance: allowance)
    }

    /// `bytes` without the backslashes that stand right before one of markup's triggers
    /// followed by `[` (`\@[` → `@[`): the escapes the markup writer adds where text would
    /// otherwise read as a mention (docs/formats.md).
    static func withoutMarkupEscapes(_ bytes: [UInt8]) -> [UInt8] {
        let triggers = Set("@#$%+~:".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\"), i + 2 < bytes.count, triggers.contains(bytes[i + 1]), bytes[i + 2] == UInt8(ascii: "[") {
                i += 1
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }

    private static func isEdit(removing removed: ArraySlice<UInt8>, writing written: ArraySlice<UInt8>,
                               from old: [UInt8], to new: [UInt8], allowance: Int) -> Bool {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        // Where the text went in is ambiguous when it repeats the bytes around it (`&` typed
        // before `&amp;`), and an escape the edit made necessary (or unneeded) may be a
        // little before it (the trigger of markup's `@[name` that the edit completes or
        // breaks as a mention): every place near the first difference is tried.
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let last = min(old.count, max(prefix, old.count - suffix) + 8)
        // The removed run, read with the same allowance, may be longer or shorter than
        // `removed` by the escapes it held in the file or its writing adds.
        let lengths = removed.isEmpty ? 0 ... 0 : max(0, removed.count - allowance) ... removed.count + allowance
        for place in max(0, prefix - written.count - removed.count - 4) ... last {
            for length in lengths where place + length <= old.count {
                guard let inRemoved = escapesBetween(old[place ..< place + length], removed, limit: allowance) else { continue }
                let candidate = old[..<place] + written + old[(place + length)...]
                // Both share the bytes before `place` and `prefix`: the comparison starts after them.
                let from = min(place, prefix)
                guard let around = escapesBetween(candidate[from...], new[from...], limit: allowance - inRemoved) else { continue }
                if inRemoved + around <= allowance { return true }
            }
        }
        return false
    }

    /// Whether `a` and `b` are equal but for a few escape backslashes (at most
    /// `escapeAllowance`, added or dropped anywhere: an edit may make one needed before it
    /// and one after it).
    public static func differsByEscapes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        escapesBetween(a[...], b[...], limit: escapeAllowance) != nil
    }

    /// How many backslashes must be added to or dropped from `a` to give `b` (matched from
    /// the start, a backslash where the two differ counting as an escape), or nil when
    /// anything but backslashes differs or more than `limit` do.
    static func escapesBetween(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>, limit: Int) -> Int? {
        let backslash = UInt8(ascii: "\\")
        var i = a.startIndex, j = b.startIndex, escapes = 0
        while i < a.endIndex || j < b.endIndex {
            if i < a.endIndex, j < b.endIndex, a[i] == b[j] {
                i += 1
                j += 1
            } else if i < a.endIndex, a[i] == backslash {
                i += 1
                escapes += 1
            } else if j < b.endIndex, b[j] == backslash {
                j += 1
                escapes += 1
            } else {
                return nil
            }
            if escapes > limit { return nil }
        }
        return escapes
    }
}
