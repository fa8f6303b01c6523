/// The environment variables a service is reached with (`SLACK_TOKEN`, `JIRA_URL`, …),
/// read the same way for posting and for fetching a conversation's people: a missing or
/// empty one, or a base address that is not http(s), is an error of kind `.usage` that
/// names it and says what it was needed for.
struct ServiceVariables {
    let environment: [String: String]
    /// What the variables are needed for, ending the error (`to post to slack`).
    let purpose: String
    /// Whether a missing variable stands as `${NAME}` instead of an error: `--dry-run`
    /// shows the request without needing the token.
    var placeholders = false

    /// The value of `name`.
    func value(_ name: String) throws(PostError) -> String {
        guard let value = environment[name], !value.isEmpty else {
            if placeholders { return "${\(name)}" }
            throw PostError(.usage, "\(name) is not set (needed \(purpose))")
        }
        return value
    }

    /// The http(s) address in `name`, without trailing slashes.
    func base(_ name: String) throws(PostError) -> String {
        var url = try value(name)
        if placeholders, url == "${\(name)}" { return url }
        while url.hasSuffix("/") { url.removeLast() }
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
            throw PostError(.usage, "\(name) must be an http:// or https:// address")
        }
        return url
    }
}
