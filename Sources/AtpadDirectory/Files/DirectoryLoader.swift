import AtpadCore

/// One directory made of one or more files: their entities, merged and prepared for
/// ranking, and what was dropped on the way.
public struct MergedDirectory: Sendable {
    /// The entities prepared for ranking.
    public let index: DirectoryIndex
    /// Problems that did not stop the load, one line each, without a program prefix
    /// (for example `3 duplicate ids ignored (first: "u42" in b.csv:4)`).
    public let warnings: [String]

    /// How the index cache served this load; nil when no cache was asked.
    public internal(set) var indexStatus: IndexStatus?
    /// Where to write the index of a directory parsed for want of one.
    var pendingIndex: (cache: IndexCache, stamps: [SourceStamp])?

    init(index: DirectoryIndex, warnings: [String], indexStatus: IndexStatus? = nil) {
        self.index = index
        self.warnings = warnings
        self.indexStatus = indexStatus
    }

    /// The entities in the order of the files and of each file; every id appears once.
    public var entities: [Entity] { index.entities }

    /// Whether ``writeIndex()`` has an index to write.
    public var needsIndexWrite: Bool { pendingIndex != nil }

    /// Writes the index of a directory that was parsed because its index was missing,
    /// stale or damaged, and returns the status after it (``IndexStatus/written(_:)`` or
    /// ``IndexStatus/unavailable(_:)``). It takes a while for a big directory: call it
    /// off the editor's input path. Without a pending index, the status is unchanged.
    @discardableResult
    public func writeIndex() -> IndexStatus? {
        guard let (cache, stamps) = pendingIndex, case let .arrays(arrays) = index.storage,
              case let .pending(why) = indexStatus else { return indexStatus }
        if let failure = cache.write(arrays, warnings: warnings, stamps: stamps) { return .unavailable(failure) }
        return .written(why)
    }
}

/// Loads the directory files of one trigger and merges them (`-d` repeated:
/// docs/directories.md, "Directory sources").
public enum DirectoryLoader {
    /// Loads `paths` in the order given, each in the format of its extension (or sniffed),
    /// and merges them into one directory, indexed for ranking.
    ///
    /// Of several entries with one id, in one file or across files, the first is kept;
    /// the others make one warning for the whole load, naming how many there were and
    /// where the first of them is. The first file that cannot be used stops the load with
    /// its ``DirectoryError``.
    public static func load(paths: [String]) throws -> MergedDirectory {
        var merger = Merger()
        for path in paths {
            // Each file's bytes are let go before the next is read, and before indexing.
            let bytes = try DirectoryFile.contents(of: path)
            let format = DirectoryFormat.of(path: path, bytes: bytes)
            let parsed = try DirectoryFile.parse(bytes, format: format, path: path)
            merger.add(parsed) { offset in
                "\(path):\(ByteLines.lineNumber(in: bytes, at: offset, loneCarriageReturn: format != .ndjson))"
            }
        }
        let (entities, warnings) = (merger.entities, merger.warnings)
        // The id set is not needed by the index: let it go before the index is built, so
        // the two never take memory at the same time.
        merger = Merger()
        return MergedDirectory(index: DirectoryIndex(entities), warnings: warnings)
    }

    /// Like ``load(paths:)``, through the index cache
    /// (docs/directories.md, "Big directories: the index cache"): when the cache holds a
    /// current, undamaged index of these files, it is mapped instead of parsing them;
    /// otherwise they are parsed and the result can write the index
    /// (``MergedDirectory/writeIndex()``).
    public static func load(paths: [String], cache: IndexCache?) throws -> MergedDirectory {
        guard let cache else { return try load(paths: paths) }
        guard let stamps = cache.stamps(paths) else {
            var merged = try load(paths: paths)
            merged.indexStatus = .unavailable("under \(cache.minimumSize / 1024) KB, parsed each time")
            return merged
        }
        let why: String
        do {
            let mapped = try MappedIndex.open(path: cache.file(for: stamps.map(\.path)), sources: stamps,
                                              options: cache.optionsFingerprint)
            return MergedDirectory(index: DirectoryIndex(mapped: mapped), warnings: mapped.warnings, indexStatus: .used)
        } catch .missing {
            why = "none yet"
        } catch .stale {
            why = "stale"
        } catch let .damaged(reason) {
            why = "damaged: \(reason)"
        }
        var merged = try load(paths: paths)
        merged.indexStatus = .pending(why)
        merged.pendingIndex = (cache, stamps)
        return merged
    }

    /// `entities` with each id's first entry only, in order (no warning).
    static func unique(_ entities: [Entity]) -> [Entity] {
        var merger = Merger()
        merger.add(ParsedEntities(entities: entities)) { _ in "" }
        return merger.entities
    }
}

/// Appends files' entities while dropping ids already seen, remembering the first drop.
private struct Merger {
    private(set) var entities: [Entity] = []
    private var seen = IdSet()
    private var duplicates = 0
    /// The first dropped id and where it was.
    private var first: (id: String, origin: String)?

    /// Adds a file's entities. `locate` names where the entity starting at an offset is
    /// (`b.csv:4`); it is called for the first duplicate only.
    mutating func add(_ parsed: ParsedEntities, locate: (Int) -> String) {
        seen.reserveCapacity(seen.count + parsed.entities.count)
        var dropped: [Int] = []
        for position in parsed.entities.indices where !seen.insert(parsed.entities[position].id) {
            dropped.append(position)
        }
        guard !dropped.isEmpty else {
            // The common case: nothing to drop, so the file's array is taken as it is
            // (no copy at all for the first file).
            if entities.isEmpty { entities = parsed.entities } else { entities.append(contentsOf: parsed.entities) }
            return
        }
        if first == nil {
            let position = dropped[0]
            let origin = position < parsed.starts.count ? locate(parsed.starts[position]) : ""
            first = (parsed.entities[position].id, origin)
        }
        duplicates += dropped.count
        entities.reserveCapacity(entities.count + parsed.entities.count - dropped.count)
        var next = 0
        for (position, entity) in parsed.entities.enumerated() {
            if next < dropped.count, dropped[next] == position {
                next += 1
            } else {
                entities.append(entity)
            }
        }
    }

    var warnings: [String] {
        guard let first else { return [] }
        return [duplicates == 1
            ? "1 duplicate id ignored (\(JSONText.quote(first.id)) in \(first.origin))"
            : "\(duplicates) duplicate ids ignored (first: \(JSONText.quote(first.id)) in \(first.origin))"]
    }
}
