import AtpadCore

extension DirectoryOptions {
    /// The routed directories as an `EntityLookup` for the formats (handles, ids, urls).
    /// Loads every directory file, so call it only when a format needs it.
    func lookup() throws -> EntityLookup {
        EntityLookup(try load().mapValues(\.entities))
    }
}
