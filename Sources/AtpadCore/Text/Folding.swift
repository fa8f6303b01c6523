/// Text folded for matching, with a map from every folded scalar back to the scalar of
/// the original text it came from.
///
/// Ranking compares folded text but reports match ranges in the original name, so each
/// folded scalar remembers its origin: both `s` of `ß` → `ss` point at the `ß`.
public struct FoldedText: Hashable, Sendable {
    /// The folded scalars.
    public var scalars: [Unicode.Scalar]
    /// For each folded scalar, the Unicode-scalar offset in the original text it came from
    /// (non-decreasing).
    public var origins: [Int]

    /// The folded text as a string.
    public var string: String {
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }
}

/// Folding for matching (docs/directories.md, "Ranking and frecency"): lower case, accents
/// removed, special letters spelled out (`ø`→`o`, `ł`→`l`, `ß`→`ss`, `æ`→`ae`, `œ`→`oe`,
/// `đ`/`ð`→`d`, `þ`→`th`, `ı`→`i`), whitespace runs collapsed to one space and trimmed.
///
/// Only Latin, Greek and Cyrillic letters lose their diacritics; other scripts (CJK,
/// Hangul, Arabic, Hebrew, kana…) pass through unchanged apart from lower-casing, so a
/// name and a query typed in the same script always fold alike.
public enum Folding {
    /// Folds `text`, keeping where each folded scalar came from.
    public static func fold(_ text: String) -> FoldedText {
        var scalars: [UInt32] = []
        var origins: [Int32] = []
        append(text, to: &scalars, origins: &origins)
        return FoldedText(
            scalars: scalars.map { Unicode.Scalar($0)! },
            origins: origins.map(Int.init)
        )
    }

    /// The folded form of `text` as a string (for display, tests and lookups).
    public static func folded(_ text: String) -> String {
        fold(text).string
    }

    // MARK: - Internal, allocation-light form used by the index

    /// Appends the folded scalars of `text` to `scalars` and their original scalar offsets
    /// to `origins` (unless `keepOrigins` is false). Whitespace becomes one space; leading
    /// and trailing spaces are dropped; Unicode hyphens become `-` so word splitting only
    /// has to look for two scalars.
    ///
    /// Returns the number of Characters in `text` when every scalar of it stands alone as
    /// a grapheme cluster (see ``characterCount(_:)``), else nil; counting on the way
    /// saves the index a second pass over every name.
    @inline(__always)
    @discardableResult
    package static func append(
        _ text: String,
        to scalars: inout [UInt32],
        origins: inout [Int32],
        keepOrigins: Bool = true
    ) -> Int? {
        let start = scalars.count
        var offset: Int32 = 0
        var alone = true
        for scalar in text.unicodeScalars {
            defer { offset += 1 }
            let value = scalar.value
            // ASCII inline: it is most of most names, and this runs for every scalar of a
            // million of them.
            if value < 0x80 {
                if value == 0x0D { alone = false }
                if value == 0x20 || (value >= 0x09 && value <= 0x0D) {
                    // Collapse runs and never start with a space.
                    if scalars.count > start, scalars[scalars.count - 1] != space {
                        scalars.append(space)
                        if keepOrigins { origins.append(offset) }
                    }
                } else {
                    scalars.append(value >= 0x41 && value <= 0x5A ? value + 0x20 : value)
                    if keepOrigins { origins.append(offset) }
                }
                continue
            }
            if alone, !standsAlone(value) { alone = false }
            if isWhitespace(scalar) {
                if scalars.count > start, scalars[scalars.count - 1] != space {
                    scalars.append(space)
                    if keepOrigins { origins.append(offset) }
                }
                continue
            }
            foldScalar(scalar) { folded in
                scalars.append(folded)
                if keepOrigins { origins.append(offset) }
            }
        }
        if scalars.count > start, scalars[scalars.count - 1] == space {
            scalars.removeLast()
            if keepOrigins { origins.removeLast() }
        }
        return alone ? Int(offset) : nil
    }

    /// The number of Characters (grapheme clusters) in `text`, counted as scalars when
    /// every scalar is one that always stands alone as a cluster (below U+0300 other than
    /// CR, or a kana, CJK ideograph or Hangul syllable), which is nearly every name;
    /// otherwise by the standard library's grapheme breaking, which is far slower.
    static func characterCount(_ text: String) -> Int {
        var count = 0
        for scalar in text.unicodeScalars {
            guard standsAlone(scalar.value) else { return text.count }
            count += 1
        }
        return count
    }

    /// Whether a scalar is always a grapheme cluster of its own, whatever is around it.
    @inline(__always)
    static func standsAlone(_ value: UInt32) -> Bool {
        value < 0x300 ? value != 0x0D
            : (0x3041 ... 0x3096).contains(value) || (0x30A0 ... 0x30FF).contains(value)
                || (0x3400 ... 0x9FFF).contains(value) || (0xAC00 ... 0xD7A3).contains(value)
    }

    package static let space: UInt32 = 0x20
    package static let hyphen: UInt32 = 0x2D

    /// Whether `value` separates name words: a space or a hyphen (after folding).
    @inline(__always)
    package static func isWordSeparator(_ value: UInt32) -> Bool {
        value == space || value == hyphen
    }

    @inline(__always)
    package static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            return value == 0x20 || (value >= 0x09 && value <= 0x0D)
        }
        // Unicode's White_Space property outside ASCII, spelled out: checked for every
        // character of every name, and the property lookup is comparatively slow.
        switch value {
        case 0x85, 0xA0, 0x1680, 0x2000 ... 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// Calls `emit` with the folded form of one scalar: zero (a stripped combining mark),
    /// one or two scalars.
    @inline(__always)
    static func foldScalar(_ scalar: Unicode.Scalar, _ emit: (UInt32) -> Void) {
        let value = scalar.value
        if value < 0x80 {
            emit(value >= 0x41 && value <= 0x5A ? value + 0x20 : value)
        } else if value < tableLimit {
            let packed = table[Int(value - 0x80)]
            let first = UInt32(truncatingIfNeeded: packed)
            let second = UInt32(truncatingIfNeeded: packed >> 32)
            if first != 0 { emit(first) }
            if second != 0 { emit(second) }
        } else if value == 0x2010 || value == 0x2011 {
            emit(hyphen)
        } else if isStrippedMark(value) {
            return
        } else if isCaseless(value) {
            emit(value)
        } else if scalar.properties.changesWhenLowercased {
            for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                emit(lower.value)
            }
        } else {
            emit(value)
        }
    }

    // MARK: - The table for U+0080 ..< U+2000

    /// Scalars below this are folded through a table built once; above it only case
    /// changes (and the few combining-mark blocks there are stripped).
    package static let tableLimit: UInt32 = 0x2000

    /// The fold of every scalar in U+0080 ..< U+2000, packed as up to two scalars
    /// (low 32 bits first, high 32 bits second; 0 means none). Built once because
    /// decomposition goes through Foundation (not available to the core), which is far too
    /// slow per character of a million names anyway.
    package static let table: [UInt64] = {
        // Start from identity and apply the generated differences (FoldTable.swift).
        var table = (UInt32(0x80) ..< tableLimit).map { UInt64($0) }
        var i = 0
        while i + 1 < FoldTable.differences.count {
            table[Int(FoldTable.differences[i]) - 0x80] = FoldTable.differences[i + 1]
            i += 2
        }
        return table
    }()

    /// Blocks without case (kana, CJK ideographs, Hangul syllables), so the common
    /// non-Latin names skip a property lookup.
    @inline(__always)
    static func isCaseless(_ value: UInt32) -> Bool {
        (0x3040 ... 0x30FF).contains(value)
            || (0x3400 ... 0x9FFF).contains(value)
            || (0xAC00 ... 0xD7A3).contains(value)
    }

    /// The combining diacritical mark blocks whose marks are accents on Latin, Greek and
    /// Cyrillic letters.
    @inline(__always)
    package static func isStrippedMark(_ value: UInt32) -> Bool {
        (0x300 ... 0x36F).contains(value)
            || (0x1AB0 ... 0x1AFF).contains(value)
            || (0x1DC0 ... 0x1DFF).contains(value)
            || (0x20D0 ... 0x20FF).contains(value)
            || (0xFE20 ... 0xFE2F).contains(value)
    }
}
