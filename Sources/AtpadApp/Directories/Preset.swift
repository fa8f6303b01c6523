import AtpadCore
import AtpadDirectory
import FoundationEssentials
import Glibc

/// The named source settings (`--preset NAME`, `preset = "NAME"`): each is
/// built on `command`/`url`, `items`, `map`, `exclude`, `headers`, `next` and `cache`, and
/// needs a tool or some environment variables, which docs/directories.md and the man page list.
enum Preset: String, CaseIterable, Sendable {
    case github, gitlab, slack, jira, ldap

    /// Why a preset cannot be set up: the tool or variable it lacks, in one line.
    struct Missing: Error, Equatable {
        let message: String
    }

    /// The settings of this preset for `trigger`, with what comes from the environment
    /// filled in: people for any trigger but `#`, where slack lists channels.
    func settings(for trigger: Unicode.Scalar, environment: [String: String]) throws(Missing) -> Config.TriggerSources? {
        switch (self, trigger) {
        case (.github, "@"): return try github(environment)
        case (.github, "#"): return try githubIssues(environment)
        case (.gitlab, "@"): return try gitlab(environment)
        case (.slack, "@"): return try slack(environment, list: "users.list?limit=200", items: "members")
        case (.slack, "#"): return try slack(environment, list: "conversations.list?limit=200&exclude_archived=true",
                                             items: "channels")
        case (.jira, _): return try jira(environment)
        case (.ldap, _): return try ldap(environment)
        case (.github, _): return try github(environment)
        case (.gitlab, _): return try gitlab(environment)
        case (.slack, _): return try slack(environment, list: "users.list?limit=200", items: "members")
        }
    }

    /// The triggers the preset serves.
    var triggers: [Unicode.Scalar] { self == .slack || self == .github ? ["@", "#"] : ["@"] }

    // MARK: - The presets

    /// The GraphQL query of the github preset: the repository's mentionable users.
    static let githubQuery = "query($owner: String!, $name: String!, $q: String!) { repository(owner: $owner, name: $name) "
        + "{ mentionableUsers(query: $q, first: 50) { nodes { login name databaseId } } } }"
    /// The owner's teams (`@org/team`), for an organisation whose teams the token can read.
    static let githubTeamsQuery = "query($owner: String!, $q: String!) { repositoryOwner(login: $owner) "
        + "{ ... on Organization { teams(query: $q, first: 20) { nodes { combinedSlug name } } } } }"
    /// The whole list of mentionable users, a page of 100 at a time (`gh api --paginate`
    /// follows `endCursor`), for the cache.
    static let githubListQuery = "query($owner: String!, $name: String!, $endCursor: String) { repository(owner: $owner, name: $name) "
        + "{ mentionableUsers(first: 100, after: $endCursor) { nodes { login name databaseId } pageInfo { hasNextPage endCursor } } } }"
    /// All the owner's teams, a page of 100 at a time.
    static let githubTeamsListQuery = "query($owner: String!, $endCursor: String) { repositoryOwner(login: $owner) "
        + "{ ... on Organization { teams(first: 100, after: $endCursor) { nodes { combinedSlug name } pageInfo { hasNextPage endCursor } } } } }"
    /// gh's jq for a user: the node, with GitHub's no-reply address as its email (what
    /// GitHub credits a `Co-authored-by:` trailer to).
    static let githubUserJQ = #".data.repository.mentionableUsers.nodes[] | . + {email: "\(.databaseId)+\(.login)@users.noreply.github.com"}"#
    /// gh's jq for a team: its slug as the login.
    static let githubTeamJQ = ".data.repositoryOwner.teams.nodes[]? | {login: .combinedSlug, name: .name}"
    /// How long the github and gitlab presets keep their list before refreshing it.
    static let listAge: Duration = .seconds(3600)
    /// The repository's issues and pull requests matching the query (GitHub's search).
    static let githubIssuesQuery = "query($q: String!) { search(query: $q, type: ISSUE, first: 30) "
        + "{ nodes { ... on Issue { number title } ... on PullRequest { number title } } } }"

    /// The repository: ATPAD_GITHUB_REPO, else the one of the current checkout (gh knows it).
    private static let githubRepository =
        "repo=${ATPAD_GITHUB_REPO:-$(gh repo view --json nameWithOwner --jq .nameWithOwner)} || exit 1\n"

    private func github(_ environment: [String: String]) throws(Missing) -> Config.TriggerSources {
        try requireTool("gh", "the GitHub CLI", environment)
        // One entity per line (gh's --jq): the people, then the teams. Teams are asked
        // apart, and their failure (a personal repository, a token without read:org) is
        // no failure of the answer: there are just no teams.
        // Per query (a list longer than the limit): the users matching it, then the teams.
        let command = Self.githubRepository + """
            gh api graphql -f owner="${repo%%/*}" -f name="${repo#*/}" -f q="$1" -f query="$ATPAD_GITHUB_QUERY" \
                --jq "$ATPAD_GITHUB_USER_JQ" || exit
            gh api graphql -f owner="${repo%%/*}" -f q="$1" -f query="$ATPAD_GITHUB_TEAMS" --jq "$ATPAD_GITHUB_TEAM_JQ" 2>/dev/null
            exit 0
            """
        // The whole list, every page, for the cache that answers keystrokes (docs/people.md).
        let list = Self.githubRepository + """
            gh api graphql --paginate -f owner="${repo%%/*}" -f name="${repo#*/}" -f query="$ATPAD_GITHUB_LIST" \
                --jq "$ATPAD_GITHUB_USER_JQ" || exit
            gh api graphql --paginate -f owner="${repo%%/*}" -f query="$ATPAD_GITHUB_TEAMS_LIST" --jq "$ATPAD_GITHUB_TEAM_JQ" 2>/dev/null
            exit 0
            """
        var sources = Config.TriggerSources(command: command)
        sources.listCommand = list
        sources.cache = Self.listAge
        sources.listLimit = SourceDefaults.listLimit
        sources.map = ["id": "login", "name": "name // login", "handle": "login", "url": "https://github.com/{login}"]
        sources.environment = ["ATPAD_GITHUB_QUERY": Self.githubQuery, "ATPAD_GITHUB_TEAMS": Self.githubTeamsQuery,
                               "ATPAD_GITHUB_LIST": Self.githubListQuery, "ATPAD_GITHUB_TEAMS_LIST": Self.githubTeamsListQuery,
                               "ATPAD_GITHUB_USER_JQ": Self.githubUserJQ, "ATPAD_GITHUB_TEAM_JQ": Self.githubTeamJQ]
        return sources
    }

    /// `#`: issues and pull requests as insert completions — picking one inserts `#123`.
    private func githubIssues(_ environment: [String: String]) throws(Missing) -> Config.TriggerSources {
        try requireTool("gh", "the GitHub CLI", environment)
        let command = Self.githubRepository + """
            exec gh api graphql -f q="repo:$repo $1" -f query="$ATPAD_GITHUB_ISSUES" --jq '.data.search.nodes[]'
            """
        var sources = Config.TriggerSources(command: command)
        sources.map = ["id": "number", "name": "#{number}", "detail": "title", "insert": "#{number}"]
        sources.environment = ["ATPAD_GITHUB_ISSUES": Self.githubIssuesQuery]
        return sources
    }

    private func gitlab(_ environment: [String: String]) throws(Missing) -> Config.TriggerSources {
        try requireTool("glab", "the GitLab CLI", environment)
        // The project: ATPAD_GITLAB_PROJECT (group/name), else the current checkout's (glab's :fullpath).
        let project = """
            project=:fullpath
            if [ -n "$ATPAD_GITLAB_PROJECT" ]; then project=$(printf '%s' "$ATPAD_GITLAB_PROJECT" | sed 's|/|%2F|g'); fi

            """
        // Per query (a list longer than the limit): the members matching it.
        let command = project + """
            exec glab api --method GET "projects/$project/members/all" -f query="$1" -f per_page=50
            """
        // The whole list for the cache: page after page until an empty one (or one past
        // what atpad reads, ATPAD_LIST_ITEMS), the pages' arrays joined into one.
        let list = project + """
            page=1 sep=
            printf '['
            while :; do
                body=$(glab api --method GET "projects/$project/members/all" -f per_page=100 -f page="$page") || exit
                body=$(printf '%s' "$body" | tr -d '\n')
                body=${body#*[}
                body=${body%]*}
                [ -z "$(printf '%s' "$body" | tr -d ' \t\r')" ] && break
                printf '%s%s' "$sep" "$body"
                sep=,
                [ "$((page * 100))" -ge "${ATPAD_LIST_ITEMS:-100000}" ] && break
                page=$((page + 1))
            done
            printf ']\n'
            """
        var sources = Config.TriggerSources(command: command)
        sources.listCommand = list
        sources.cache = Self.listAge
        sources.listLimit = SourceDefaults.listLimit
        sources.items = ""
        sources.map = ["id": "id", "name": "name // username", "handle": "username", "url": "web_url"]
        return sources
    }

    private func slack(_ environment: [String: String], list: String, items: String) throws(Missing) -> Config.TriggerSources {
        try requireVariables(["SLACK_TOKEN"], environment)
        let api = (environment["ATPAD_SLACK_API"].flatMap { $0.isEmpty ? nil : $0 } ?? "https://slack.com/api")
        var sources = Config.TriggerSources(url: api + "/" + list)
        sources.items = items
        sources.headers = ["Authorization": "Bearer ${SLACK_TOKEN}"]
        sources.next = "response_metadata.next_cursor"
        sources.cache = .seconds(3600)
        if items == "members" {
            sources.map = ["id": "id", "name": "profile.real_name // real_name // name", "handle": "name",
                           "detail": "profile.title", "email": "profile.email"]
            sources.exclude = ["deleted", "is_bot"]
        } else {
            sources.map = ["id": "id", "name": "name", "handle": "name", "detail": "purpose.value"]
            sources.exclude = ["is_archived"]
        }
        return sources
    }

    private func jira(_ environment: [String: String]) throws(Missing) -> Config.TriggerSources {
        try requireVariables(["JIRA_URL", "JIRA_USER", "JIRA_TOKEN"], environment)
        var base = environment["JIRA_URL"]!
        while base.hasSuffix("/") { base.removeLast() }
        var sources = Config.TriggerSources(url: base + "/rest/api/3/user/picker?query={query}&maxResults=50")
        sources.items = "users"
        sources.map = ["id": "accountId", "name": "displayName"]
        let credentials = Data("\(environment["JIRA_USER"]!):\(environment["JIRA_TOKEN"]!)".utf8).base64EncodedString()
        // Resolved here (Basic needs the pair encoded), so the header holds no ${NAME}.
        sources.headers = ["Authorization": "Basic " + credentials]
        return sources
    }

    /// The ldapsearch command of the ldap preset. The query is escaped for the filter
    /// (RFC 4515: `\ * ( )` and NUL), and the password, when there is one, goes through a
    /// pipe, never the command line (where `ps` would show it).
    static let ldapCommand = """
        q=$(printf '%s' "$1" | sed 's/\\\\/\\\\5c/g; s/\\*/\\\\2a/g; s/(/\\\\28/g; s/)/\\\\29/g')
        filter="(|(cn=*$q*)(displayName=*$q*)(uid=$q*)(mail=$q*))"
        set -- -x -LLL -o ldif-wrap=76 -z 50 -H "$LDAP_URI" -b "$LDAP_BASE"
        if [ -n "$LDAP_BIND_DN" ]; then
            printf '%s' "$LDAP_PASSWORD" | ldapsearch "$@" -D "$LDAP_BIND_DN" -y /dev/stdin "$filter" uid cn displayName mail title
        else
            ldapsearch "$@" "$filter" uid cn displayName mail title
        fi
        status=$?
        # 4: more entries than -z asked for; those printed are the answer.
        [ "$status" -eq 4 ] && exit 0
        exit "$status"
        """

    private func ldap(_ environment: [String: String]) throws(Missing) -> Config.TriggerSources {
        try requireTool("ldapsearch", "Debian's ldap-utils", environment)
        try requireVariables(["LDAP_URI", "LDAP_BASE"], environment)
        var sources = Config.TriggerSources(command: Self.ldapCommand)
        sources.answer = .ldif
        sources.map = ["id": "uid", "name": "displayName // cn", "handle": "uid", "detail": "title", "email": "mail"]
        return sources
    }

    // MARK: - What a preset needs

    private func requireVariables(_ names: [String], _ environment: [String: String]) throws(Missing) {
        let missing = names.filter { (environment[$0] ?? "").isEmpty }
        guard missing.isEmpty else {
            let list = missing.joined(separator: ", ")
            throw Missing(message: "the \(rawValue) preset needs \(list), which \(missing.count == 1 ? "is" : "are") not set")
        }
    }

    private func requireTool(_ tool: String, _ what: String, _ environment: [String: String]) throws(Missing) {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let found = path.split(separator: ":").contains { access("\($0)/\(tool)", X_OK) == 0 }
        guard found else {
            throw Missing(message: "the \(rawValue) preset needs \(tool) (\(what)), which is not on PATH")
        }
    }
}
