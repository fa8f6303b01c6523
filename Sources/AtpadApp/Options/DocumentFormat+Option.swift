import AtpadCore

extension DocumentFormat {
    /// The format named by the value of a command-line option; an unknown name is a usage
    /// error that names the option and lists the formats.
    init(option: String, name: String) throws {
        do {
            self = try DocumentFormat(name: name)
        } catch {
            throw UsageError("\(option): \(error.message)")
        }
    }
}
