/// The layout of an index file (docs/directories.md, "Big directories: the index cache"),
/// version ``version``.
///
/// All numbers are little-endian, as this machine writes them (an index is a cache of
/// this machine's, never shared). The file is a header, then sections, each starting at
/// a multiple of 8 bytes so the tables can be read in place:
///
/// | bytes | what |
/// |---|---|
/// | 0 | magic `atpadidx` |
/// | 8 | checksum of every byte from 16 to the end (``IndexChecksum``) |
/// | 16 | format version |
/// | 24 | number of entries |
/// | 32, 40 | bucket bits of the first-scalar and two-scalar tables |
/// | 48 | length of the whole file |
/// | 56 | fingerprint of the load options |
/// | 64 | per section (``Section``, in order): offset, length |
enum IndexFormat {
    /// Raised whenever the layout or the meaning of any table changes: an index of
    /// another version is rebuilt, never read.
    /// Version 2: folded names and handles in one, two or three bytes a scalar per entry
    /// (``FoldedUnits``), not 32-bit scalars.
    /// Version 3: records hold the email and the accounts too.
    static let version: UInt64 = 3
    static let magic: [UInt8] = Array("atpadidx".utf8)
    /// Where the section table starts.
    static let tableOffset = 64
    static var headerSize: Int { tableOffset + Section.allCases.count * 16 }

    /// The sections, in file order.
    enum Section: Int, CaseIterable {
        /// The files the index was built from (``SourceStamp``s), to tell it is current.
        case sources
        /// Folded names and handles in bytes, with per-entry starts (UInt32, one more than
        /// entries: a byte offset in the low 30 bits, the entry's bytes a scalar less one in
        /// the top two; see ``FoldedUnits``); name words as Int32 (start, end) scalar
        /// offsets per entry.
        case names, nameStarts, words, wordStarts, handles, handleStarts
        case nameLengths, letterMasks
        case firstStarts, firstPositions, pairStarts, pairPositions
        /// Per entry, where its record starts in `records` (UInt32, one more than entries).
        case recordStarts
        /// Per entry: id, name, handle, detail, url, email, then the account of each
        /// ``Service`` in its order, each as a LEB128 length + 1 (0: absent)
        /// followed by its UTF-8.
        case records
        /// Open addressing by a hash of the id (``idHash``): entry position + 1, 0 empty.
        case idTable
        /// The load's warnings (duplicate ids), one per line.
        case warnings
    }

    /// FNV-1a of `bytes`, which places an id in the id table.
    static func idHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// FNV-1a of a string's UTF-8.
    static func hash(_ text: String) -> UInt64 {
        var copy = text
        return copy.withUTF8 { idHash(UnsafeRawBufferPointer($0)) }
    }

    /// The number of slots of the id table of `count` entries: a power of two at least
    /// twice the entries, so probes stay short.
    static func idSlots(count: Int) -> Int {
        var slots = 16
        while slots < count * 2 { slots <<= 1 }
        return slots
    }
}

/// What identifies one version of a directory file: its path and what `stat` says of it.
/// The change time (with nanoseconds) and the inode catch a rewrite that keeps the size
/// and restores the modification time.
struct SourceStamp: Equatable, Sendable {
    var path: String
    var device: UInt64
    var inode: UInt64
    var size: UInt64
    var modified: (seconds: Int64, nanoseconds: Int64)
    var changed: (seconds: Int64, nanoseconds: Int64)

    static func == (a: SourceStamp, b: SourceStamp) -> Bool {
        a.path == b.path && a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified == b.modified && a.changed == b.changed
    }

    /// The serialized stamps, as the `sources` section holds them: a count, then per file
    /// seven numbers, the path's length and the path padded to 8 bytes.
    static func serialize(_ stamps: [SourceStamp]) -> [UInt8] {
        var out: [UInt8] = []
        func put(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        put(UInt64(stamps.count))
        for stamp in stamps {
            for value in [stamp.device, stamp.inode, stamp.size,
                          UInt64(bitPattern: stamp.modified.seconds), UInt64(bitPattern: stamp.modified.nanoseconds),
                          UInt64(bitPattern: stamp.changed.seconds), UInt64(bitPattern: stamp.changed.nanoseconds)] {
                put(value)
            }
            let path = Array(stamp.path.utf8)
            put(UInt64(path.count))
            out += path
            while out.count % 8 != 0 { out.append(0) }
        }
        return out
    }
}
