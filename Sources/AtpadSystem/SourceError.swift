/// Why a command or URL source could not answer, in one short line: the chooser shows
/// `description` as its error row (`directory command exited with status 3`,
/// `GET http://localhost:8080/people?q=jo: HTTP 500`).
public struct SourceError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The line shown to the person.
    public var message: String

    /// An error shown as `message`, made one line of visible text of at most 300 characters
    /// (it may quote a command's stderr or a server's answer).
    public init(_ message: String) {
        self.message = Self.oneLine(message)
    }

    public var description: String { message }

    /// Control characters (line breaks, escape sequences) as visible escapes, cut at 300
    /// characters: the text may come from a program or a server and ends up on the screen.
    package static func oneLine(_ text: String) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == 300 {
                result += "…"
                break
            }
            if scalar.properties.generalCategory == .control {
                result += scalar == "\n" ? "\\n" : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return result
    }

    /// A duration as people read it in a message: `5 s`, `0.3 s`, `1.25 s`.
    package static func seconds(_ duration: Duration) -> String {
        decimalSeconds(duration) + " s"
    }

    /// A duration in seconds, to the millisecond, without trailing zeros: `5`, `0.3`.
    package static func decimalSeconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
        var text = "\(milliseconds / 1000)"
        if milliseconds % 1000 != 0 {
            var digits = String(milliseconds % 1000 + 1000).dropFirst()  // three digits, zero-padded
            while digits.last == "0" { digits = digits.dropLast() }
            text += "." + digits
        }
        return text
    }
}
