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
    case id, name, handle, detail, url, insert, email, accounts

    /// The key's bit in a set of keys.
    var bit: UInt8 {
        switch self {
        case .id: 1
        case .name: 2
        case .handle: 4
        case .detail: 8
        case .url: 16
        case .insert: 32
        case .email: 64
        case .accounts: 128
        }
    }

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
        case 6 where spells("insert"): self = .insert
        case 5 where spells("email"): self = .email
        case 8 where spells("accounts"): self = .accounts
        default: return nil
        }
    }
}

/// The values found for the known keys of one entity object.
///
/// String values, nearly all of them, are kept as Strings; any other value as a
/// ``JSONValue`` for its message. Building a JSONValue for every field of a million
/// entries, and destroying it, was a tenth of loading them.
struct EntityFields {
    /// One key's value and where it starts.
    enum Value {
        case string(String)
        case other(JSONValue.Kind)
    }

    private var values: (Value?, Value?, Value?, Value?, Value?, Value?) = (nil, nil, nil, nil, nil, nil)
    private var offsets: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
    /// The rarer keys, apart so that the common ones stay one small tuple.
    private var email: Value?, emailOffset = 0
    private var accounts: Value?, accountsOffset = 0
    /// One bit per key found, so checking for a repeated key touches no value.
    private var found: UInt8 = 0

    /// Whether `key` was found.
    func has(_ key: EntityKey) -> Bool {
        found & key.bit != 0
    }

    mutating func set(_ key: EntityKey, _ value: consuming Value, at offset: Int) {
        found |= key.bit
        switch key {
        case .id: values.0 = value; offsets.0 = offset
        case .name: values.1 = value; offsets.1 = offset
        case .handle: values.2 = value; offsets.2 = offset
        case .detail: values.3 = value; offsets.3 = offset
        case .url: values.4 = value; offsets.4 = offset
        case .insert: values.5 = value; offsets.5 = offset
        case .email: email = value; emailOffset = offset
        case .accounts: accounts = value; accountsOffset = offset
        }
    }

    /// The entity these fields describe (docs/directories.md, "Directory files"): `id` a non-empty
    /// string or an integer (taken as written), `name` a string with something other than
    /// whitespace in it, the others strings or null, an empty string counting as absent.
    ///
    /// - Parameter start: the offset of the object, where a missing field is reported.
    mutating func entity(start: Int, _ subject: EntitySubject) throws -> Entity {
        // The values are moved out: reading them in place copied the whole struct (five
        // values, their reference counts) for every entry.
        let idValue = values.0.take()
        let nameValue = values.1.take()
        let handleValue = values.2.take()
        let detailValue = values.3.take()
        let urlValue = values.4.take()
        let insertValue = values.5.take()

        let id: String
        switch idValue {
        case nil:
            throw EntityError(offset: start, message: "\(subject.noun) has no \"id\"")
        case .string(let text):
            guard !text.isEmpty else {
                throw EntityError(offset: offsets.0, message: "\(subject.noun) has an empty \"id\"")
            }
            id = text
        case .other(.number(let literal)) where literal.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) }):
            id = literal
        case .other(let kind):
            throw EntityError(
                offset: offsets.0,
                message: "\(subject.fieldPrefix)\"id\" must be a string or an integer, not \(kind.noun)"
            )
        }

        let name: String
        switch nameValue {
        case nil:
            throw EntityError(offset: start, message: "\(subject.noun) has no \"name\"")
        case .string(let text):
            guard EntityFields.hasVisibleText(text) else {
                throw EntityError(offset: offsets.1, message: "\(subject.noun) has an empty \"name\"")
            }
            name = text
        case .other(let kind):
            throw EntityError(
                offset: offsets.1,
                message: "\(subject.fieldPrefix)\"name\" must be a string, not \(kind.noun)"
            )
        }

        return Entity(
            id: id,
            name: name,
            handle: try Self.optional(handleValue, .handle, at: offsets.2, subject),
            detail: try Self.optional(detailValue, .detail, at: offsets.3, subject),
            url: try Self.optional(urlValue, .url, at: offsets.4, subject),
            insert: try Self.optional(insertValue, .insert, at: offsets.5, subject),
            email: try Self.optional(email.take(), .email, at: emailOffset, subject),
            accounts: try Self.accounts(accounts.take(), at: accountsOffset, subject)
        )
    }

    /// `accounts`: an object whose keys are services (``Service``) and whose values are
    /// ids, strings or integers (an empty string or null counting as absent); or null.
    private static func accounts(_ value: consuming Value?, at offset: Int, _ subject: EntitySubject) throws -> [Service: String] {
        switch value {
        case nil, .other(.null): return [:]
        case .other(.object(let members)):
            var accounts: [Service: String] = [:]
            for (key, member) in members {
                guard let service = Service(name: key) else {
                    throw EntityError(offset: member.offset, message: "\(subject.fieldPrefix)\"accounts\" has the unknown "
                        + "service \(JSONText.quote(key)) (the services are \(Service.names))")
                }
                switch member.kind {
                case .string(let text): if !text.isEmpty { accounts[service] = text }
                case .number(let literal) where literal.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) }):
                    accounts[service] = literal
                case .null: break
                case let kind:
                    throw EntityError(offset: member.offset, message: "\(subject.fieldPrefix)\"accounts.\(key)\" must be "
                        + "a string or an integer, not \(kind.noun)")
                }
            }
            return accounts
        case .string:
            throw EntityError(offset: offset, message: "\(subject.fieldPrefix)\"accounts\" must be an object, not a string")
        case .other(let kind):
            throw EntityError(offset: offset, message: "\(subject.fieldPrefix)\"accounts\" must be an object, not \(kind.noun)")
        }
    }

    /// An optional field: a string (empty counts as absent) or null.
    private static func optional(_ value: consuming Value?, _ key: EntityKey, at offset: Int, _ subject: EntitySubject) throws -> String? {
        switch value {
        case nil, .other(.null): return nil
        case .string(let text): return text.isEmpty ? nil : text
        case .other(let kind):
            throw EntityError(
                offset: offset,
                message: "\(subject.fieldPrefix)\"\(key.rawValue)\" must be a string or null, not \(kind.noun)"
            )
        }
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
                throw JSONSyntaxError(offset: offset, message: "expected ':' after the key \"\(Self.keyText(in: bytes, at: keyStart))\"")
            }
            offset += 1
            skipWhitespace()
            let valueStart = offset
            if let key {
                if fields.has(key) {
                    throw EntityError(offset: valueStart, message: "\(subject.noun) has \"\(key.rawValue)\" twice")
                }
                if peek() == UInt8(ascii: "\"") {
                    fields.set(key, .string(try readString()), at: valueStart)
                } else {
                    fields.set(key, .other(try readValue(depth: 2).kind), at: valueStart)
                }
            } else if peek() == UInt8(ascii: "\"") {
                try skipString()
            } else {
                _ = try readValue(depth: 2)
            }
            // The key is named only for an error (and the autoclosure may not touch self).
            let bytes = self.bytes
            if try endOfItem(closing: UInt8(ascii: "}"), "after \"\(Self.keyText(in: bytes, at: keyStart))\"") {
                return try fields.entity(start: start, subject)
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
    private static func keyText(in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> String {
        var reader = JSONReader(bytes: bytes, offset: position)
        return (try? reader.readString()) ?? ""
    }
}
