import AtpadCore

/// A problem with an entity's fields (not with its syntax), at a byte offset.
struct EntityError: Error {
    let offset: Int
    let message: String
}

/// How error messages name the entity being read. Built into text only when an error is
/// reported, so reading a million entries formats nothing.
enum EntitySubject {
    /// The n-th entry of a JSON array (1-based): `entry 4 has no "name"`.
    case entry(Int)
    /// The one object on a line of NDJSON, whose location already says which:
    /// `the entity has no "name"`.
    case lineObject

    /// The noun that starts a message about the whole entity.
    var noun: String {
        switch self {
        case .entry(let number): "entry \(number)"
        case .lineObject: "the entity"
        }
    }

    /// What starts a message about one of its fields.
    var fieldPrefix: String {
        switch self {
        case .entry(let number): "entry \(number): "
        case .lineObject: ""
        }
    }
}

/// The keys of an entity object that atpad reads; every other key is ignored.
enum EntityKey: String {
    case id, name, handle, detail, url

    /// The key spelled by `bytes` (a key without escapes), compared without making a
    /// String: keys are read once per field of a million entries.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        func spells(_ word: StaticString) -> Bool {
            guard word.utf8CodeUnitCount == bytes.count else { return false }
            let letters = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for index in 0 ..< bytes.count where bytes[index] != letters[index] { return false }
            return true
        }
        switch bytes.count {
        case 2 where spells("id"): self = .id
        case 4 where spells("name"): self = .name
        case 6 where spells("handle"): self = .handle
        case 6 where spells("detail"): self = .detail
        case 3 where spells("url"): self = .url
        default: return nil
        }
    }
}

/// The values found for the known keys of one entity object.
struct EntityFields {
    var id, name, handle, detail, url: JSONValue?

    subscript(key: EntityKey) -> JSONValue? {
        get {
            switch key {
            case .id: id
            case .name: name
            case .handle: handle
            case .detail: detail
            case .url: url
            }
        }
        set {
            switch key {
            case .id: id = newValue
            case .name: name = newValue
            case .handle: handle = newValue
            case .detail: detail = newValue
            case .url: url = newValue
            }
        }
    }

    /// The entity these fields describe (SPEC §8 "Directory entity"): `id` a non-empty
    /// string or an integer (taken as written), `name` a string with something other than
    /// whitespace in it, the others strings or null, an empty string counting as absent.
    ///
    /// - Parameter start: the offset of the object, where a missing field is reported.
    consuming func entity(start: Int, _ subject: EntitySubject) throws -> Entity {
        let id: String
        switch self.id?.kind {
        case nil:
            throw EntityError(offset: start, message: "\(subject.noun) has no \"id\"")
        case .string(let text):
            guard !text.isEmpty else {
                throw EntityError(offset: self.id!.offset, message: "\(subject.noun) has an empty \"id\"")
            }
            id = text
        case .number(let literal) where literal.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) }):
            id = literal
        case .some(let kind):
            throw EntityError(
                offset: self.id!.offset,
                message: "\(subject.fieldPrefix)\"id\" must be a string or an integer, not \(kind.noun)"
            )
        }

        let name: String
        switch self.name?.kind {
        case nil:
            throw EntityError(offset: start, message: "\(subject.noun) has no \"name\"")
        case .string(let text):
            guard EntityFields.hasVisibleText(text) else {
                throw EntityError(offset: self.name!.offset, message: "\(subject.noun) has an empty \"name\"")
            }
            name = text
        case .some(let kind):
            throw EntityError(
                offset: self.name!.offset,
                message: "\(subject.fieldPrefix)\"name\" must be a string, not \(kind.noun)"
            )
        }

        func optional(_ key: EntityKey) throws -> String? {
            guard let field = self[key] else { return nil }
            switch field.kind {
            case .null: return nil
            case .string(let text): return text.isEmpty ? nil : text
            default:
                throw EntityError(
                    offset: field.offset,
                    message: "\(subject.fieldPrefix)\"\(key.rawValue)\" must be a string or null, not \(field.kind.noun)"
                )
            }
        }
        return Entity(id: id, name: name, handle: try optional(.handle), detail: try optional(.detail), url: try optional(.url))
    }

    /// Whether `text` has a scalar other than whitespace (a name must show something).
    /// Looks at scalars, not Characters: grapheme breaking a million names is slow, and
    /// the first scalar almost always settles it.
    static func hasVisibleText(_ text: String) -> Bool {
        text.unicodeScalars.contains { !Folding.isWhitespace($0) }
    }
}

extension JSONReader {
    /// Reads the entity object that starts at the current offset (at its `{`) and checks
    /// its fields. Unknown keys are read for their syntax and dropped; known ones may not
    /// repeat.
    ///
    /// Reads the object directly rather than through ``readValue(depth:)``: no array of
    /// members and no String per key, which halves the cost of a large directory.
    mutating func readEntity(_ subject: EntitySubject) throws -> Entity {
        let start = offset
        offset += 1
        var fields = EntityFields()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return try fields.entity(start: start, subject)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw JSONSyntaxError(offset: offset, message: "expected a quoted key, found \(describe(at: offset))")
            }
            let keyStart = offset
            let key = try readKey()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw JSONSyntaxError(offset: offset, message: "expected ':' after the key \"\(keyText(at: keyStart))\"")
            }
            offset += 1
            skipWhitespace()
            let value = try readValue(depth: 2)
            if let key {
                if fields[key] != nil {
                    throw EntityError(offset: value.offset, message: "\(subject.noun) has \"\(key.rawValue)\" twice")
                }
                fields[key] = value
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                offset += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    throw JSONSyntaxError(offset: offset, message: "trailing comma before '}'")
                }
            case UInt8(ascii: "}"):
                offset += 1
                return try fields.entity(start: start, subject)
            default:
                throw JSONSyntaxError(
                    offset: offset,
                    message: "expected ',' or '}' after \"\(keyText(at: keyStart))\", found \(describe(at: offset))"
                )
            }
        }
    }

    /// Reads a quoted key and tells which entity field it names (nil for any other key).
    private mutating func readKey() throws -> EntityKey? {
        var scan = offset + 1
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") {
                let key = EntityKey(UnsafeBufferPointer(rebasing: bytes[offset + 1 ..< scan]))
                offset = scan + 1
                return key
            }
            if byte == UInt8(ascii: "\\") || byte == 0x0A || byte == 0x0D { break }
            scan += 1
        }
        // Escapes (or an error to report): the slow way.
        return EntityKey(rawValue: try readString())
    }

    /// The key that starts at `position`, for an error message.
    private func keyText(at position: Int) -> String {
        var copy = self
        copy.offset = position
        return (try? copy.readString()) ?? ""
    }
}
