import AtpadCore

/// Reads a directory file of comma-separated values (RFC 4180) whose first row names the
/// columns: `id` and `name` are required, `handle`, `detail`, `url`, `insert`, `email` and
/// `accounts.SERVICE` (`accounts.slack`: the person's id there) optional, in any order,
/// matched without case; other columns are ignored.
///
/// - A field may be quoted: inside quotes, commas and line breaks are data and `""` is
///   one quote. Spaces and tabs around a field are dropped (quote it to keep them); a
///   quote inside an unquoted field is kept as written.
/// - Rows end at LF, CRLF or a lone CR. Blank lines are skipped.
/// - Every row has as many fields as the header. An empty `id` or `name` is an error, an
///   empty optional field is absent.
/// - An empty file, or a header without rows, is an empty directory.
enum CSVFormat {
    /// Appends the entities of `buffer` (valid UTF-8 from `start`, past any byte order
    /// mark) to `parsed`;
    /// `path` only names the file in errors.
    static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>,
        from start: Int,
        path: String,
        into parsed: inout ParsedEntities
    ) throws {
        var reader = CSVReader(bytes: buffer, offset: start)
        var fields: [CSVField] = []
        do {
            guard try reader.readRecord(into: &fields, labels: []) else { return }
            let header = try Header(fields, reader: reader)
            parsed.reserve(expectingLinesOf: buffer)
            while try reader.readRecord(into: &fields, labels: header.labels) {
                parsed.append(try header.entity(fields, reader: reader), at: fields[0].recordStart)
            }
        } catch let error as CSVError {
            throw DirectoryError(path: path, line: error.line, message: error.message)
        }
    }
}

/// A problem in a CSV file, on a line.
private struct CSVError: Error {
    let line: Int
    let message: String
}

/// One field of a record: where its text lies in the file (inside the quotes for a
/// quoted field) and whether it has `""` pairs to collapse.
private struct CSVField {
    var start: Int
    var end: Int
    var hasDoubledQuotes: Bool
    /// The line the field starts on.
    var line: Int
    /// The offset where its record starts (kept on every field to avoid another array).
    var recordStart: Int
}

/// What the header says: which column holds which entity field.
private struct Header {
    /// The column names as written, for messages about a field.
    let labels: [String]
    let count: Int
    let id: Int
    let name: Int
    let handle: Int?
    let detail: Int?
    let url: Int?
    let insert: Int?
    let email: Int?
    /// The `accounts.SERVICE` columns.
    let accounts: [(service: Service, column: Int)]

    init(_ fields: [CSVField], reader: CSVReader) throws {
        var labels: [String] = []
        var columns: [EntityKey: Int] = [:]
        var accounts: [(service: Service, column: Int)] = []
        for (index, field) in fields.enumerated() {
            let label = reader.string(field)
            labels.append(label)
            let lowered = label.lowercased()
            if lowered.hasPrefix("accounts.") {
                let name = String(lowered.dropFirst("accounts.".count))
                guard let service = Service(name: name) else {
                    throw CSVError(line: field.line, message: "the header names the unknown service \"\(name)\" "
                        + "(the services are \(Service.names))")
                }
                if accounts.contains(where: { $0.service == service }) {
                    throw CSVError(line: field.line, message: "the header names the column \"accounts.\(name)\" twice")
                }
                accounts.append((service, index))
                continue
            }
            guard let key = EntityKey(rawValue: lowered) else { continue }
            if key == .accounts {
                throw CSVError(line: field.line, message: "an \"accounts\" column needs a service: accounts.slack, "
                    + "accounts.github, ... (the services are \(Service.names))")
            }
            if columns[key] != nil {
                throw CSVError(line: field.line, message: "the header names the column \"\(key.rawValue)\" twice")
            }
            columns[key] = index
        }
        for required in [EntityKey.id, .name] where columns[required] == nil {
            throw CSVError(
                line: fields[0].line,
                message: "the header has no \"\(required.rawValue)\" column "
                    + "(the first row names the columns: id,name and optionally handle,detail,url)"
            )
        }
        self.labels = labels
        count = fields.count
        id = columns[.id]!
        name = columns[.name]!
        handle = columns[.handle]
        detail = columns[.detail]
        url = columns[.url]
        insert = columns[.insert]
        email = columns[.email]
        self.accounts = accounts
    }

    /// The entity of one row.
    func entity(_ fields: [CSVField], reader: CSVReader) throws -> Entity {
        let line = fields[0].line
        guard fields.count == count else {
            let has = fields.count == 1 ? "1 field" : "\(fields.count) fields"
            throw CSVError(line: line, message: "row has \(has), the header has \(count)")
        }
        let id = reader.string(fields[self.id])
        guard !id.isEmpty else { throw CSVError(line: fields[self.id].line, message: "row has no \"id\"") }
        let name = reader.string(fields[self.name])
        guard EntityFields.hasVisibleText(name) else {
            throw CSVError(line: fields[self.name].line, message: "row has no \"name\"")
        }
        func optional(_ column: Int?) -> String? {
            guard let column else { return nil }
            let value = reader.string(fields[column])
            return value.isEmpty ? nil : value
        }
        var accounts: [Service: String] = [:]
        for (service, column) in self.accounts {
            if let value = optional(column) { accounts[service] = value }
        }
        return Entity(id: id, name: name, handle: optional(handle), detail: optional(detail), url: optional(url),
                      insert: optional(insert), email: optional(email), accounts: accounts)
    }
}

/// Splits CSV bytes into records of fields, counting lines as it goes.
private struct CSVReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset: Int
    /// The line of the byte at `offset`.
    var line = 1

    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    /// Reads the next record that is not blank into `fields` (replacing what was there);
    /// false at the end of the file. `labels` name the columns in messages.
    mutating func readRecord(into fields: inout [CSVField], labels: [String]) throws -> Bool {
        fields.removeAll(keepingCapacity: true)
        while true {
            skipBlanks()
            guard offset < bytes.count else { return false }
            if isLineEnd(bytes[offset]) {
                skipLineEnd()
                continue
            }
            break
        }
        let recordStart = offset
        while true {
            fields.append(try readField(recordStart: recordStart, column: fields.count, labels: labels))
            if offset < bytes.count, bytes[offset] == Self.comma {
                offset += 1
                continue
            }
            skipLineEnd()
            return true
        }
    }

    /// Reads one field, leaving `offset` at the comma, line end or end of file after it.
    private mutating func readField(recordStart: Int, column: Int, labels: [String]) throws -> CSVField {
        skipBlanks()
        let fieldLine = line
        guard offset < bytes.count, bytes[offset] == Self.quote else {
            let start = offset
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == Self.comma || isLineEnd(byte) { break }
                offset += 1
            }
            var end = offset
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            return CSVField(start: start, end: end, hasDoubledQuotes: false, line: fieldLine, recordStart: recordStart)
        }

        offset += 1
        let start = offset
        var doubled = false
        while true {
            guard offset < bytes.count else {
                throw CSVError(line: fieldLine, message: "the quoted \(Self.label(column, labels)) is never closed (a '\"' is missing)")
            }
            let byte = bytes[offset]
            if byte == Self.quote {
                if offset + 1 < bytes.count, bytes[offset + 1] == Self.quote {
                    doubled = true
                    offset += 2
                    continue
                }
                break
            }
            if byte == Self.lineFeed || (byte == Self.carriageReturn && (offset + 1 >= bytes.count || bytes[offset + 1] != Self.lineFeed)) {
                line += 1
            }
            offset += 1
        }
        let end = offset
        offset += 1
        skipBlanks()
        if offset < bytes.count, bytes[offset] != Self.comma, !isLineEnd(bytes[offset]) {
            throw CSVError(
                line: line,
                message: "\(Self.label(column, labels)): unexpected \(describe(at: offset)) after the closing quote "
                    + "(a quote inside a quoted field is written \"\")"
            )
        }
        return CSVField(start: start, end: end, hasDoubledQuotes: doubled, line: fieldLine, recordStart: recordStart)
    }

    /// The text of a field, with `""` collapsed to `"`.
    func string(_ field: CSVField) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[field.start ..< field.end])
        guard field.hasDoubledQuotes else { return String(decoding: slice, as: UTF8.self) }
        var text: [UInt8] = []
        text.reserveCapacity(slice.count)
        var index = 0
        while index < slice.count {
            text.append(slice[index])
            // Within a quoted field every quote is the first of a pair.
            index += slice[index] == Self.quote ? 2 : 1
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// How messages name field `index` of a row: by its column's header name.
    private static func label(_ index: Int, _ labels: [String]) -> String {
        if index < labels.count, !labels[index].isEmpty { return "\"\(labels[index])\" field" }
        return "field \(index + 1)"
    }

    private func isLineEnd(_ byte: UInt8) -> Bool {
        byte == Self.lineFeed || byte == Self.carriageReturn
    }

    private mutating func skipBlanks() {
        while offset < bytes.count, bytes[offset] == 0x20 || bytes[offset] == 0x09 { offset += 1 }
    }

    /// Steps over one LF, CRLF or CR, if there is one.
    private mutating func skipLineEnd() {
        guard offset < bytes.count else { return }
        if bytes[offset] == Self.carriageReturn {
            offset += 1
            if offset < bytes.count, bytes[offset] == Self.lineFeed { offset += 1 }
            line += 1
        } else if bytes[offset] == Self.lineFeed {
            offset += 1
            line += 1
        }
    }

    /// A short quotation of the text at `position` for a message.
    private func describe(at position: Int) -> String {
        var end = position
        while end < bytes.count, end - position < 12, !isLineEnd(bytes[end]), bytes[end] != Self.comma { end += 1 }
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'\(String(decoding: UnsafeBufferPointer(rebasing: bytes[position ..< end]), as: UTF8.self))'"
    }
}
