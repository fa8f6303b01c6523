@testable import AtpadApp
import AtpadCore
import Testing

/// The config's `[post]` table: each key stands for the environment variable of the same
/// name; a set variable wins; `${NAME}` is filled from the environment.
@Suite struct PostConfigTests {
    func parse(_ text: String) throws(ConfigError) -> Config {
        try Config.parse(Array(text.utf8), file: "/c.toml", environment: [:])
    }

    @Test func keysStandForTheirVariables() throws {
        let config = try parse("""
            [post]
            slack_api = "http://127.0.0.1:9/api"
            jira_url = "https://acme.atlassian.net"
            jira_token = "${MY_TOKEN}"
            matrix_homeserver = "https://m.org"
            """)
        #expect(config.post == ["ATPAD_SLACK_API": "http://127.0.0.1:9/api", "JIRA_URL": "https://acme.atlassian.net",
                                "JIRA_TOKEN": "${MY_TOKEN}", "MATRIX_HOMESERVER": "https://m.org"])
    }

    @Test func theEnvironmentWinsAndFillsTemplates() {
        let config = ["JIRA_URL": "https://config", "JIRA_TOKEN": "${MY_TOKEN}", "JIRA_USER": "pre-${WHO}-post",
                      "SLACK_TOKEN": "${UNSET}"]
        let merged = PostPreparation.environment(["JIRA_URL": "https://env", "MY_TOKEN": "s3cret", "WHO": "ann", "PATH": "/bin"],
                                                 config: config)
        #expect(merged["JIRA_URL"] == "https://env")
        #expect(merged["JIRA_TOKEN"] == "s3cret")
        #expect(merged["JIRA_USER"] == "pre-ann-post")
        // An unset ${NAME} leaves the variable out: the post then names SLACK_TOKEN.
        #expect(merged["SLACK_TOKEN"] == nil)
        #expect(merged["PATH"] == "/bin")
        // An empty variable is as good as unset.
        #expect(PostPreparation.environment(["JIRA_URL": ""], config: ["JIRA_URL": "https://config"])["JIRA_URL"] == "https://config")
    }

    @Test func mistakesNameTheKeyAndLine() throws {
        let unknown = try #require(throws: ConfigError.self) { try parse("[post]\nslack_tokn = \"x\"\n") }
        #expect(unknown.description.hasPrefix("/c.toml:2: unknown key \"slack_tokn\""))
        let wrong = try #require(throws: ConfigError.self) { try parse("[post]\njira_url = 3\n") }
        #expect(wrong.description.hasPrefix("/c.toml:2: \"jira_url\""))
        #expect(wrong.description.contains("must be a text"))
        let notATable = try #require(throws: ConfigError.self) { try parse("post = 1\n") }
        #expect(notATable.description.contains("must be a table, such as [post]"))
    }
}
