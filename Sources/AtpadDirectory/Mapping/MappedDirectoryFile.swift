import AtpadCore
import AtpadSystem

/// Directory files read through an ``EntityMapping``
/// (docs/directories.md, "Connect your directory"), so that a service's own answer saved to
/// a file (`gh api … > people.json`) loads as it is.
///
/// A `.json` file is one document whose `items` path holds the array; an `.ndjson` file
/// has one item per line (`items` does not apply). The mapping is applied while the file
/// is read; afterwards the entities are ranked like any directory file's. CSV has no
/// nesting to map and is refused with a clear error.
public enum MappedDirectoryFile {
    /// The entities of `paths`, in order, first of each id kept; `warnings` says how many
    /// items were skipped for lack of an id or a name.
    public static func load(paths: [String], mapping: EntityMapping) throws -> (entities: [Entity], warnings: [String]) {
        var entities: [Entity] = []
        var incomplete = 0
        for path in paths {
            let bytes = try DirectoryFile.contents(of: path)
            let fail = { (line: Int?, message: String) in DirectoryError(path: path, line: line, message: message) }
            switch DirectoryFormat.of(path: path, bytes: bytes) {
            case .json:
                do {
                    let found = try mapping.entities(of: try mapping.items(of: try JSONDocument.parse(bytes)))
                    entities += found.entities
                    incomplete += found.incomplete
                } catch {
                    throw fail(nil, error.message)
                }
            case .ndjson:
                var number = 0
                for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                    number += 1
                    guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
                    do {
                        switch try mapping.entity(from: try JSONDocument.parse(Array(line)), number: number) {
                        case .entity(let entity): entities.append(entity)
                        case .excluded: break
                        case .incomplete: incomplete += 1
                        }
                    } catch {
                        throw fail(number, error.message)
                    }
                }
            case .csv:
                throw fail(nil, "items, map and exclude read JSON and NDJSON files, not CSV")
            }
        }
        let unique = DirectoryLoader.unique(entities)
        var warnings: [String] = []
        if incomplete > 0 { warnings.append(EntityMapping.skippedNote(incomplete)) }
        if unique.count < entities.count { warnings.append("\(entities.count - unique.count) duplicate ids ignored") }
        return (unique, warnings)
    }
}
