import AtpadCore
import Dispatch
import FoundationEssentials
import Synchronization
import Glibc

/// An index file (``IndexFormat``) mapped into memory and searched in place: its tables
/// are never decoded into Swift objects, and an entity is decoded from its record only
/// when it is shown.
///
/// Opening checks, in order of cost, that the file is the owner's, of this version, whole
/// (its length), built from the directory files as they are now (``SourceStamp``), and
/// undamaged (its checksum, read through one small buffer so the check does not bring the
/// whole file into memory); only then is it mapped.
final class MappedIndex: @unchecked Sendable {
    // Immutable after init; the mapping lives as long as this object.
    private let base: UnsafeRawPointer
    private let length: Int
    let count: Int
    private let tableSet: TableSet
    private let recordStarts: UnsafeBufferPointer<UInt32>
    private let records: UnsafeRawBufferPointer
    private let idTable: UnsafeBufferPointer<UInt32>
    /// The load's warnings, kept with the index.
    let warnings: [String]

    /// The search tables' pointers into the mapping (a ``SearchTables`` but its
    /// narrowing cache, which each search brings).
    private struct TableSet {
        let buffers: Buffers
        let nameLengths: UnsafeBufferPointer<Int32>
        let letterMasks: UnsafeBufferPointer<UInt64>
        let wordStartIndex: WordStartIndex.View
    }

    /// Why an index file was not used.
    enum Rejection: Error, Equatable {
        /// There is none.
        case missing
        /// It was built from other versions of the files, or with other options.
        case stale
        /// It is not the owner's, not an index, of another version, cut short or damaged.
        case damaged(String)
    }

    /// Maps the index at `path` if it is a whole, undamaged index of the files `sources`
    /// (as they are now) loaded with `options`.
    static func open(path: String, sources: [SourceStamp], options: UInt64) throws(Rejection) -> MappedIndex {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { throw .missing }
            throw .damaged("cannot be opened (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw .damaged("not a file") }
        guard info.st_uid == geteuid() else { throw .damaged("not the user's own") }
        let size = Int(info.st_size)
        let headerSize = IndexFormat.headerSize
        guard size >= headerSize else { throw .damaged("cut short") }

        var header = [UInt8](repeating: 0, count: headerSize)
        guard readAll(fd, into: &header, at: 0) else { throw .damaged("cannot be read") }
        func field(_ offset: Int) -> UInt64 {
            header.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        }
        guard header.starts(with: IndexFormat.magic) else { throw .damaged("not an atpad index") }
        guard field(16) == IndexFormat.version else { throw .damaged("format version \(field(16)), not \(IndexFormat.version)") }
        guard field(48) == UInt64(size) else { throw .damaged("cut short (\(size) of \(field(48)) bytes)") }
        guard field(56) == options else { throw .stale }
        let count = Int(truncatingIfNeeded: field(24))
        var ranges: [Range<Int>] = []
        for number in IndexFormat.Section.allCases.indices {
            let offset = field(IndexFormat.tableOffset + number * 16)
            let length = field(IndexFormat.tableOffset + number * 16 + 8)
            guard offset >= UInt64(headerSize), offset % 8 == 0, length <= UInt64(size),
                  offset <= UInt64(size) - length else { throw .damaged("a section lies outside the file") }
            ranges.append(Int(offset) ..< Int(offset + length))
        }

        // Stale? The stamps are compared before the (costlier) checksum.
        let expected = SourceStamp.serialize(sources)
        let sourceRange = ranges[IndexFormat.Section.sources.rawValue]
        guard sourceRange.count == expected.count else { throw .stale }
        var stored = [UInt8](repeating: 0, count: expected.count)
        guard readAll(fd, into: &stored, at: sourceRange.lowerBound) else { throw .damaged("cannot be read") }
        guard stored == expected else { throw .stale }

        guard try checksum(fd, size: size) == field(8) else { throw .damaged("checksum mismatch") }

        guard let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), mapping != MAP_FAILED else {
            throw .damaged("cannot be mapped (\(String(cString: strerror(errno))))")
        }
        do {
            return try MappedIndex(base: UnsafeRawPointer(mapping), length: size, count: count,
                                   bits: (Int(field(32)), Int(field(40))), ranges: ranges)
        } catch {
            munmap(mapping, size)
            throw error
        }
    }

    private init(base: UnsafeRawPointer, length: Int, count: Int, bits: (Int, Int),
                 ranges: [Range<Int>]) throws(Rejection) {
        self.base = base
        self.length = length
        self.count = count
        func section<T>(_ section: IndexFormat.Section, _: T.Type) -> UnsafeBufferPointer<T> {
            let range = ranges[section.rawValue]
            return UnsafeBufferPointer(start: (base + range.lowerBound).assumingMemoryBound(to: T.self),
                                       count: range.count / MemoryLayout<T>.stride)
        }
        // The sizes must agree with the count: the checksum vouches for the bytes, these
        // checks for the writer having meant this layout.
        let nameStarts = section(.nameStarts, UInt32.self)
        let wordStarts = section(.wordStarts, Int32.self)
        let handleStarts = section(.handleStarts, UInt32.self)
        let names = section(.names, UInt8.self)
        let words = section(.words, Int32.self)
        let handles = section(.handles, UInt8.self)
        let firstStarts = section(.firstStarts, Int32.self)
        let pairStarts = section(.pairStarts, Int32.self)
        let firstPositions = section(.firstPositions, Int32.self)
        let pairPositions = section(.pairPositions, Int32.self)
        recordStarts = section(.recordStarts, UInt32.self)
        idTable = section(.idTable, UInt32.self)
        let recordRange = ranges[IndexFormat.Section.records.rawValue]
        records = UnsafeRawBufferPointer(start: base + recordRange.lowerBound, count: recordRange.count)
        guard count >= 0, count < Int(Int32.max),
              (8 ... 16).contains(bits.0), (10 ... 20).contains(bits.1),
              nameStarts.count == count + 1, wordStarts.count == count + 1, handleStarts.count == count + 1,
              recordStarts.count == count + 1,
              section(.nameLengths, Int32.self).count == count, section(.letterMasks, UInt64.self).count == count,
              nameStarts[count] == UInt32(names.count), Int(wordStarts[count]) * 2 == words.count,
              handleStarts[count] == UInt32(handles.count), Int(recordStarts[count]) == records.count,
              firstStarts.count == (1 << bits.0) + 1, pairStarts.count == (1 << bits.1) + 1,
              Int(firstStarts[1 << bits.0]) == firstPositions.count, Int(pairStarts[1 << bits.1]) == pairPositions.count,
              idTable.count == IndexFormat.idSlots(count: count)
        else { throw .damaged("tables do not match the header") }
        tableSet = TableSet(
            buffers: Buffers(names: names, nameStarts: nameStarts, words: words, wordStarts: wordStarts,
                             handles: handles, handleStarts: handleStarts),
            nameLengths: section(.nameLengths, Int32.self), letterMasks: section(.letterMasks, UInt64.self),
            wordStartIndex: WordStartIndex.View(
                first: .init(starts: firstStarts, positions: firstPositions, bits: bits.0),
                pair: .init(starts: pairStarts, positions: pairPositions, bits: bits.1)))
        let warningText = section(.warnings, UInt8.self)
        warnings = warningText.isEmpty ? [] : String(decoding: warningText, as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), length)
    }

    /// The tables as one search view (valid while this object lives).
    func tables(narrowing: NarrowingCache) -> SearchTables {
        SearchTables(count: count, buffers: tableSet.buffers, nameLengths: tableSet.nameLengths,
                     letterMasks: tableSet.letterMasks, wordStartIndex: tableSet.wordStartIndex, narrowing: narrowing)
    }

    // MARK: - Records

    /// The entity at `position`, decoded from its record.
    func entity(at position: Int) -> Entity {
        var fields = RecordFields(records, from: Int(recordStarts[position]))
        let id = fields.next() ?? ""
        let name = fields.next() ?? ""
        let (handle, detail, url, email) = (fields.next(), fields.next(), fields.next(), fields.next())
        var accounts: [Service: String] = [:]
        for service in Service.allCases {
            if let account = fields.next() { accounts[service] = account }
        }
        return Entity(id: id, name: name, handle: handle, detail: detail, url: url, email: email, accounts: accounts)
    }

    /// The position of the entry with id `id`, found through the id table.
    func position(ofID id: String) -> Int? {
        var id = id
        return id.withUTF8 { wanted -> Int? in
            let mask = idTable.count - 1
            var slot = Int(truncatingIfNeeded: IndexFormat.idHash(UnsafeRawBufferPointer(wanted))) & mask
            for _ in 0 ..< idTable.count {
                let stored = Int(idTable[slot])
                if stored == 0 { return nil }
                var fields = RecordFields(records, from: Int(recordStarts[stored - 1]))
                if let bytes = fields.nextBytes(), bytes.elementsEqual(UnsafeRawBufferPointer(wanted)) {
                    return stored - 1
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// Reads a record's fields in order.
    private struct RecordFields {
        let records: UnsafeRawBufferPointer
        var offset: Int

        init(_ records: UnsafeRawBufferPointer, from offset: Int) {
            self.records = records
            self.offset = offset
        }

        /// The next field's bytes, or nil when it is absent.
        mutating func nextBytes() -> UnsafeRawBufferPointer? {
            var value = 0
            var shift = 0
            while offset < records.count {
                let byte = records[offset]
                offset += 1
                value |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 || shift > 56 { break }
            }
            guard value > 0 else { return nil }
            let end = min(offset + value - 1, records.count)
            defer { offset = end }
            return UnsafeRawBufferPointer(rebasing: records[offset ..< end])
        }

        mutating func next() -> String? {
            nextBytes().map { String(decoding: $0, as: UTF8.self) }
        }
    }

    // MARK: - Reading

    /// The file's checksum, read block by block through a small buffer per worker: the
    /// check costs a read of the file (from the page cache, usually) without bringing it
    /// into this process's memory. Two workers share the blocks when the file is big.
    private static func checksum(_ fd: Int32, size: Int) throws(Rejection) -> UInt64 {
        let blocks = (size - 16 + IndexChecksum.blockSize - 1) / IndexChecksum.blockSize
        let workers = blocks >= 16 ? 2 : 1
        // Each worker writes the hashes of its own blocks only.
        nonisolated(unsafe) let hashes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(blocks, 1))
        defer { hashes.deallocate() }
        let failed = Mutex(false)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: IndexChecksum.blockSize, alignment: 16)
            defer { buffer.deallocate() }
            let share = (blocks + workers - 1) / workers
            for index in worker * share ..< min(blocks, (worker + 1) * share) {
                let offset = 16 + index * IndexChecksum.blockSize
                let want = min(IndexChecksum.blockSize, size - offset)
                var got = 0
                while got < want {
                    let n = pread(fd, buffer.baseAddress! + got, want - got, off_t(offset + got))
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else {
                        failed.withLock { $0 = true }
                        return
                    }
                    got += n
                }
                hashes[index] = IndexChecksum.block(UnsafeRawBufferPointer(rebasing: buffer[0 ..< want]), index: index)
            }
        }
        if failed.withLock({ $0 }) { throw .damaged("cannot be read") }
        return hashes[0 ..< blocks].reduce(IndexChecksum.start, IndexChecksum.fold)
    }

    private static func readAll(_ fd: Int32, into bytes: inout [UInt8], at offset: Int) -> Bool {
        let want = bytes.count
        return bytes.withUnsafeMutableBytes { raw in
            var got = 0
            while got < want {
                let n = pread(fd, raw.baseAddress! + got, want - got, off_t(offset + got))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                got += n
            }
            return true
        }
    }
}
