import AtpadCore
import FoundationEssentials
import Glibc

/// Why a TOML file of atpad's — the config, a theme — cannot be used, as one line naming
/// the file and, where there is one, the line and the key:
/// `config.toml:12: "implicit" must be an integer of 0 or more (found -1)`.
public struct TOMLFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file, as named on the command line or found in the default place.
    public var file: String
    /// The 1-based line of the problem, when known.
    public var line: Int?
    /// The 1-based column, for syntax errors.
    public var column: Int?
    /// The dotted key the problem is about (`triggers."@".url`), when there is one.
    public var key: String?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// The problem `TOMLReader` found in `file`.
    init(file: String, _ problem: TOMLFileProblem) {
        self.init(file: file, line: problem.line, column: problem.column, key: problem.key, message: problem.message)
    }

    /// `file:line:column: message`, with what is unknown left out; always one line.
    public var description: String {
        TOMLFileProblem.description(file: file, line: line, column: column, message: message)
    }
}

/// A config file's problem.
typealias ConfigError = TOMLFileError
/// A theme file's problem.
public typealias ThemeError = TOMLFileError
