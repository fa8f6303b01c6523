import AtpadCore
import FoundationEssentials
import Glibc

/// Why a config file cannot be used, as one line naming the file and, where there is
/// one, the line and the key:
/// `config.toml:12: "implicit" must be an integer of 0 or more (found -1)`.
struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The config file, as named on the command line or found in the default place.
    var file: String
    /// The 1-based line of the problem, when known.
    var line: Int?
    /// The dotted key the problem is about (`triggers."@".url`), when there is one.
    var key: String?
    var message: String

    init(file: String, line: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `file:line: message`, the line left out when unknown; always one line.
    var description: String {
        let place = file + (line.map { ":\($0)" } ?? "")
        let text = message.replacingEvery("\r", with: " ").replacingEvery("\n", with: " ")
        return place.isEmpty ? text : "\(place): \(text)"
    }
}
