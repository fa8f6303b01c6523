import AtpadCore
import Glibc

/// A directory file that cannot be used, described in one line: the file, the line and
/// what is wrong (`people.json:12: entry 4 has no "name"`).
public struct DirectoryError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file as it was named.
    public var path: String
    /// The 1-based line of the problem, when there is one (not for an unreadable file).
    public var line: Int?
    /// What is wrong, without the location.
    public var message: String

    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String {
        // One line of visible text, always: the app prints this as the first line on
        // stderr, so control characters from the file are shown as escapes.
        var oneLine = ""
        for scalar in message.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                oneLine += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                oneLine.unicodeScalars.append(scalar)
            }
        }
        if let line { return "\(path):\(line): \(oneLine)" }
        return "\(path): \(oneLine)"
    }
}
