import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc

/// Writes the tables of a parsed directory as an index file (``IndexFormat``), through
/// ``AtomicFile`` (owner-only, its folders created), so a reader (or a second atpad
/// building the same index) only ever sees a whole file.
///
/// The arrays are streamed through one block-sized buffer, hashed as they go: writing a
/// million people's index copies no table whole.
enum IndexFileWriter {
    /// Why an index could not be written, in one line.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Writes the index of `arrays` (loaded from the files `sources`, with `warnings`) to
    /// `path`.
    static func write(_ arrays: IndexArrays, warnings: [String], sources: [SourceStamp], options: UInt64,
                      to path: String) throws {
        let count = arrays.entities.count
        // Where each entity's record starts, and the records' total size.
        var recordStarts = [UInt32](repeating: 0, count: count + 1)
        var recordBytes = 0
        for position in 0 ..< count {
            recordBytes += recordSize(arrays.entities[position])
            guard recordBytes <= Int(UInt32.max) else { throw Failure(message: "directory too large to index") }
            recordStarts[position + 1] = UInt32(recordBytes)
        }
        let idTable = makeIDTable(arrays.entities)
        let sourceBytes = SourceStamp.serialize(sources)
        let warningBytes = Array(warnings.joined(separator: "\n").utf8)

        // Each section's bytes, lent in file order.
        typealias Lend = ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
        func lend<T>(_ array: [T]) -> (Int, Lend) {
            (array.count * MemoryLayout<T>.stride, { body in
                try array.withUnsafeBytes { raw in try body(raw) }
            })
        }
        let tables = arrays.wordStartIndex
        var sections: [(length: Int, lend: Lend)] = []
        for section in IndexFormat.Section.allCases {
            switch section {
            case .sources: sections.append(lend(sourceBytes))
            case .names: sections.append(lend(arrays.names))
            case .nameStarts: sections.append(lend(arrays.nameStarts))
            case .words: sections.append(lend(arrays.words))
            case .wordStarts: sections.append(lend(arrays.wordStarts))
            case .handles: sections.append(lend(arrays.handles))
            case .handleStarts: sections.append(lend(arrays.handleStarts))
            case .nameLengths: sections.append(lend(arrays.nameLengths))
            case .letterMasks: sections.append(lend(arrays.letterMasks))
            case .firstStarts: sections.append(lend(tables.first.starts))
            case .firstPositions: sections.append(lend(tables.first.positions))
            case .pairStarts: sections.append(lend(tables.pair.starts))
            case .pairPositions: sections.append(lend(tables.pair.positions))
            case .recordStarts: sections.append(lend(recordStarts))
            case .records:
                sections.append((recordBytes, { body in
                    try streamRecords(arrays.entities, body)
                }))
            case .idTable: sections.append(lend(idTable))
            case .warnings: sections.append(lend(warningBytes))
            }
        }

        // The header.
        var header = [UInt8](repeating: 0, count: IndexFormat.headerSize)
        func put(_ value: UInt64, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { header.replaceSubrange(offset ..< offset + 8, with: $0) }
        }
        header.replaceSubrange(0 ..< 8, with: IndexFormat.magic)
        put(IndexFormat.version, at: 16)
        put(UInt64(count), at: 24)
        put(UInt64(tables.first.bits), at: 32)
        put(UInt64(tables.pair.bits), at: 40)
        put(options, at: 56)
        var cursor = IndexFormat.headerSize
        for (number, section) in sections.enumerated() {
            put(UInt64(cursor), at: IndexFormat.tableOffset + number * 16)
            put(UInt64(section.length), at: IndexFormat.tableOffset + number * 16 + 8)
            cursor += (section.length + 7) & ~7
        }
        put(UInt64(cursor), at: 48)

        // No flush: an index damaged by a crash fails its checksum and is rebuilt, and
        // flushing a few hundred megabytes would only slow the first start down.
        let options = AtomicFile.Options(permissions: .ownerOnly, createsFolders: true, flushes: false,
                                         followsSymlinks: false)
        try AtomicFile.write(to: path, options) { output in
            var stream = BlockStream(output: output)
            defer { stream.release() }
            try header[0 ..< 16].withUnsafeBytes { raw in try output.write(raw) }
            try header[16...].withUnsafeBytes { raw in try stream.append(raw) }
            let zeros = [UInt8](repeating: 0, count: 8)
            for section in sections {
                try section.lend { raw in try stream.append(raw) }
                let padding = ((section.length + 7) & ~7) - section.length
                if padding > 0 { try zeros[..<padding].withUnsafeBytes { raw in try stream.append(raw) } }
            }
            let checksum = try stream.finish()
            try withUnsafeBytes(of: checksum.littleEndian) { raw in try output.write(raw, at: 8) }
        }
    }

    // MARK: - Records

    /// The bytes of one entity's record.
    static func recordSize(_ entity: Entity) -> Int {
        func field(_ text: String?) -> Int {
            guard let text else { return 1 }
            let length = text.utf8.count
            return lengthSize(length + 1) + length
        }
        var size = field(entity.id) + field(entity.name) + field(entity.handle) + field(entity.detail) + field(entity.url)
            + field(entity.email)
        for service in Service.allCases { size += field(entity.accounts[service]) }
        return size
    }

    private static func lengthSize(_ value: Int) -> Int {
        var size = 1
        var rest = value >> 7
        while rest > 0 { size += 1; rest >>= 7 }
        return size
    }

    /// Encodes the records into a buffer lent to `body` a piece at a time.
    private static func streamRecords(_ entities: [Entity],
                                      _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        func field(_ text: String?) {
            guard let text else { buffer.append(0); return }
            var value = text.utf8.count + 1
            while value >= 0x80 {
                buffer.append(UInt8(value & 0x7F) | 0x80)
                value >>= 7
            }
            buffer.append(UInt8(value))
            buffer.append(contentsOf: text.utf8)
        }
        for entity in entities {
            field(entity.id)
            field(entity.name)
            field(entity.handle)
            field(entity.detail)
            field(entity.url)
            field(entity.email)
            for service in Service.allCases { field(entity.accounts[service]) }
            if buffer.count >= 1 << 16 - 512 {
                try buffer.withUnsafeBytes { raw in try body(raw) }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try buffer.withUnsafeBytes { raw in try body(raw) }
    }

    /// The id table: each entity's position + 1 at the first free slot from its id's hash.
    private static func makeIDTable(_ entities: [Entity]) -> [UInt32] {
        let slots = IndexFormat.idSlots(count: entities.count)
        var table = [UInt32](repeating: 0, count: slots)
        let mask = slots - 1
        for (position, entity) in entities.enumerated() {
            var slot = Int(truncatingIfNeeded: IndexFormat.hash(entity.id)) & mask
            while table[slot] != 0 { slot = (slot + 1) & mask }
            table[slot] = UInt32(position + 1)
        }
        return table
    }

}

/// The file's bytes from offset 16 on, gathered into blocks of ``IndexChecksum/blockSize``,
/// each hashed and written whole.
private struct BlockStream {
    let output: AtomicFile.Output
    let block: UnsafeMutableRawBufferPointer
    var filled = 0
    var index = 0
    var checksum = IndexChecksum.start

    init(output: AtomicFile.Output) {
        self.output = output
        block = .allocate(byteCount: IndexChecksum.blockSize, alignment: 16)
    }

    func release() { block.deallocate() }

    mutating func append(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let take = min(bytes.count - offset, block.count - filled)
            UnsafeMutableRawBufferPointer(rebasing: block[filled ..< filled + take])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset ..< offset + take]))
            filled += take
            offset += take
            if filled == block.count { try flush() }
        }
    }

    /// Writes the last block; the checksum.
    mutating func finish() throws -> UInt64 {
        if filled > 0 { try flush() }
        return checksum
    }

    private mutating func flush() throws {
        let full = UnsafeRawBufferPointer(rebasing: block[0 ..< filled])
        checksum = IndexChecksum.fold(checksum, IndexChecksum.block(full, index: index))
        try output.write(full)
        index += 1
        filled = 0
    }
}
