"""The github and gitlab presets (docs/directories.md, "Presets"; docs/people.md) through
stand-in `gh` and `glab` commands first on PATH — those CLIs cannot reach their services
here. Each stand-in checks the exact arguments it is called with and answers with the
documented GraphQL or REST shape. Also: a missing tool is one clear line, and a saved
`gh api` answer loads as a directory file."""
import json
import os
import sys

import pytest


GITHUB_QUERY = ("query($owner: String!, $name: String!, $q: String!) { repository(owner: $owner, name: $name) "
                "{ mentionableUsers(query: $q, first: 50) { nodes { login name databaseId } } } }")
TEAMS_QUERY = ("query($owner: String!, $q: String!) { repositoryOwner(login: $owner) "
               "{ ... on Organization { teams(query: $q, first: 20) { nodes { combinedSlug name } } } } }")
LIST_QUERY = ("query($owner: String!, $name: String!, $endCursor: String) { repository(owner: $owner, name: $name) "
              "{ mentionableUsers(first: 100, after: $endCursor) { nodes { login name databaseId } "
              "pageInfo { hasNextPage endCursor } } } }")
TEAMS_LIST_QUERY = ("query($owner: String!, $endCursor: String) { repositoryOwner(login: $owner) "
                    "{ ... on Organization { teams(first: 100, after: $endCursor) { nodes { combinedSlug name } "
                    "pageInfo { hasNextPage endCursor } } } } }")
ISSUES_QUERY = ("query($q: String!) { search(query: $q, type: ISSUE, first: 30) "
                "{ nodes { ... on Issue { number title } ... on PullRequest { number title } } } }")
# A whole `gh api graphql` answer, as `gh api … > people.json` saves it.
GRAPHQL_ANSWER = {"data": {"repository": {"mentionableUsers": {"nodes": [
    {"login": "octocat", "name": "The Octocat"},
    {"login": "octo-dev", "name": None},
]}}}}
USERS_JQ = ('.data.repository.mentionableUsers.nodes[] | . + '
            '{email: "\\(.databaseId)+\\(.login)@users.noreply.github.com"}')
TEAMS_JQ = ".data.repositoryOwner.teams.nodes[]? | {login: .combinedSlug, name: .name}"


def user_line(login, name, database_id):
    """One line of what `gh api graphql --jq USERS_JQ` prints for a user."""
    return json.dumps({"login": login, "name": name, "databaseId": database_id,
                       "email": f"{database_id}+{login}@users.noreply.github.com"}, separators=(",", ":")) + "\n"


# What `gh api graphql --jq '…'` prints: one compact JSON object per line.
USERS_LINES = user_line("octocat", "The Octocat", 583231) + user_line("octo-dev", None, 99)
TEAMS_LINES = '{"login":"octo/core","name":"Core team"}\n'
ISSUES_LINES = '{"number":12,"title":"Crash on save"}\n{"number":40,"title":"Save as: tab completion"}\n'


def users_call(owner, name, q):
    return ["api", "graphql", "-f", f"owner={owner}", "-f", f"name={name}", "-f", f"q={q}",
            "-f", "query=" + GITHUB_QUERY, "--jq", USERS_JQ]


def teams_call(owner, q):
    return ["api", "graphql", "-f", f"owner={owner}", "-f", f"q={q}", "-f", "query=" + TEAMS_QUERY, "--jq", TEAMS_JQ]


def users_list_call(owner, name):
    return ["api", "graphql", "--paginate", "-f", f"owner={owner}", "-f", f"name={name}", "-f", "query=" + LIST_QUERY,
            "--jq", USERS_JQ]


def teams_list_call(owner):
    return ["api", "graphql", "--paginate", "-f", f"owner={owner}", "-f", "query=" + TEAMS_LIST_QUERY, "--jq", TEAMS_JQ]


GITLAB_MEMBERS = [
    {"id": 1, "username": "jdoe", "name": "John Doe", "state": "active", "access_level": 30,
     "web_url": "https://gitlab.example.com/jdoe"},
    {"id": 17, "username": "jo.ann", "name": "", "state": "active", "access_level": 40,
     "web_url": "https://gitlab.example.com/jo.ann"},
]


def stand_in(folder, name, expected_calls):
    """Writes an executable `name` that answers each expected argument list with its
    output, and fails loudly on any other."""
    script = folder / name
    script.write_text(f"""#!{sys.executable}
import json, sys
calls = {json.dumps(expected_calls)}
args = sys.argv[1:]
with open({json.dumps(str(folder / (name + ".log")))}, "a") as log:
    log.write(json.dumps(args) + "\\n")
for expected, output in calls:
    if args == expected:
        sys.stdout.write(output)
        sys.exit(0)
sys.stderr.write("unexpected arguments: " + json.dumps(args) + "\\n")
sys.exit(9)
""")
    script.chmod(0o755)


def calls(folder, name):
    log = folder / (name + ".log")
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


@pytest.fixture
def bin_dir(tmp_path):
    folder = tmp_path / "bin"
    folder.mkdir()
    return folder


def path_with(folder):
    return {"PATH": f"{folder}:{os.environ['PATH']}"}


def many_users(count, start=0):
    return "".join(user_line(f"user{i}", f"Person {i}", 1000 + i) for i in range(start, start + count))


def test_github_preset_fetches_every_page_once_then_answers_each_query_locally(atpad, bin_dir, tmp_path):
    # gh --paginate follows the pages itself and prints every page's users, 250 here.
    lines = USERS_LINES + many_users(248, start=2)
    users, teams = users_list_call("octo", "hello-world"), teams_list_call("octo")
    stand_in(bin_dir, "gh", [[users, lines], [teams, TEAMS_LINES]])
    env = path_with(bin_dir) | {"ATPAD_GITHUB_REPO": "octo/hello-world"}
    out = atpad("search", "--preset", "github", "oct", "--json", env=env, check_exit=0).stdout
    results = json.loads(out)["results"]
    # Ranked locally (docs/directories.md, "Ranking and frecency"): each handle starts with
    # the query; the shorter name first.
    assert [(r["id"], r["name"], r["handle"]) for r in results] == [
        ("octo-dev", "octo-dev", "octo-dev"), ("octo/core", "Core team", "octo/core"), ("octocat", "The Octocat", "octocat")]
    assert calls(bin_dir, "gh") == [users, teams]
    # The last page's people are there, and the next queries ask gh nothing.
    out = atpad("search", "--preset", "github", "person 249", env=env, check_exit=0).stdout
    assert out.splitlines()[0] == "user249\tPerson 249\tuser249"
    atpad("search", "--preset", "github", "per", env=env, check_exit=0)
    assert calls(bin_dir, "gh") == [users, teams]
    # The cached list keeps GitHub's no-reply address for co-author trailers, owner-only.
    [cached] = (tmp_path / "xdg-cache" / "atpad" / "lists").glob("list-*.json")
    assert oct(cached.stat().st_mode & 0o777) == "0o600"
    entries = {e["id"]: e for e in json.loads(cached.read_text())}
    assert entries["octocat"]["email"] == "583231+octocat@users.noreply.github.com"
    assert "email" not in entries["octo/core"]


def test_github_preset_without_readable_teams_still_lists_people(atpad, bin_dir):
    # The teams call fails (a personal repository, or a token without read:org).
    users = users_list_call("octo", "x")
    stand_in(bin_dir, "gh", [[users, USERS_LINES]])
    env = path_with(bin_dir) | {"ATPAD_GITHUB_REPO": "octo/x"}
    out = atpad("search", "--preset", "github", "oct", env=env, check_exit=0).stdout
    assert out.splitlines() == ["octo-dev\tocto-dev\tocto-dev", "octocat\tThe Octocat\toctocat"]
    assert calls(bin_dir, "gh") == [users, teams_list_call("octo")]


def test_github_preset_takes_the_repository_of_the_checkout(atpad, bin_dir):
    view = ["repo", "view", "--json", "nameWithOwner", "--jq", ".nameWithOwner"]
    users = users_list_call("acme", "widgets")
    stand_in(bin_dir, "gh", [[view, "acme/widgets\n"], [users, USERS_LINES], [teams_list_call("acme"), ""]])
    env = path_with(bin_dir) | {"ATPAD_GITHUB_REPO": ""}
    out = atpad("search", "--preset", "github", "the oct", env=env, check_exit=0).stdout
    assert out.splitlines()[0] == "octocat\tThe Octocat\toctocat"
    assert calls(bin_dir, "gh")[:2] == [view, users]


def test_github_preset_failure_of_gh_is_an_answer_error(atpad, bin_dir):
    stand_in(bin_dir, "gh", [])
    env = path_with(bin_dir) | {"ATPAD_GITHUB_REPO": "octo/x"}
    proc = atpad("search", "--preset", "github", "oct", env=env)
    assert proc.returncode == 1
    assert "exited with status 9: unexpected arguments" in proc.stderr


def test_a_list_longer_than_the_limit_falls_back_to_a_call_per_query(atpad, bin_dir, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[triggers."@"]\npreset = "github"\nlist_limit = 100\n')
    users, per_query, teams = users_list_call("octo", "big"), users_call("octo", "big", "oct"), teams_call("octo", "oct")
    stand_in(bin_dir, "gh", [[users, many_users(150)], [per_query, USERS_LINES], [teams, TEAMS_LINES]])
    env = path_with(bin_dir) | {"ATPAD_GITHUB_REPO": "octo/big"}
    proc = atpad("search", "--config", str(cfg), "oct", env=env, check_exit=0)
    # gh's order is kept (a command is the backend), and the fallback is said once.
    assert proc.stdout.splitlines() == ["octocat\tThe Octocat\toctocat", "octo-dev\tocto-dev\tocto-dev",
                                        "octo/core\tCore team\tocto/core"]
    assert "the list has more than 100 people: asking the source at each keystroke instead" in proc.stderr
    assert calls(bin_dir, "gh") == [users, per_query, teams]
    # The next start remembers it: no list fetch, straight to the query.
    atpad("search", "--config", str(cfg), "oct", env=env, check_exit=0)
    assert calls(bin_dir, "gh") == [users, per_query, teams, per_query, teams]


def test_list_limit_must_be_a_positive_integer(atpad, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[triggers."@"]\npreset = "github"\nlist_limit = 0\n')
    proc = atpad("search", "--config", str(cfg), "oct")
    assert proc.returncode == 2
    assert "list_limit" in proc.stderr and "must be an integer of 1 or more" in proc.stderr


def test_github_preset_lists_issues_and_pull_requests_under_hash(atpad, bin_dir, tmp_path):
    issues = ["api", "graphql", "-f", "q=repo:octo/hello-world save", "-f", "query=" + ISSUES_QUERY,
              "--jq", ".data.search.nodes[]"]
    stand_in(bin_dir, "gh", [[issues, ISSUES_LINES]])
    env = path_with(bin_dir) | {"ATPAD_GITHUB_REPO": "octo/hello-world"}
    out = atpad("search", "--preset", "github", "--trigger-char", "#", "save", "--json", env=env, check_exit=0).stdout
    results = json.loads(out)["results"]
    # Insert completions: picking one inserts `#12`; the title is the detail.
    assert [(r["id"], r["name"], r.get("detail"), r.get("insert")) for r in results] == [
        ("12", "#12", "Crash on save", "#12"), ("40", "#40", "Save as: tab completion", "#40")]
    assert calls(bin_dir, "gh") == [issues]


def members_page(project, page):
    return ["api", "--method", "GET", f"projects/{project}/members/all", "-f", "per_page=100", "-f", f"page={page}"]


def test_gitlab_preset_fetches_member_pages_until_an_empty_one(atpad, bin_dir):
    more = [{"id": 100 + i, "username": f"member{i}", "name": f"Member {i}", "web_url": f"https://gitlab.example.com/m{i}"}
            for i in range(150)]
    pages = [[members_page(":fullpath", 1), json.dumps(GITLAB_MEMBERS, indent=2) + "\n"],
             [members_page(":fullpath", 2), json.dumps(more[:100])],
             [members_page(":fullpath", 3), json.dumps(more[100:])],
             [members_page(":fullpath", 4), "[]\n"]]
    stand_in(bin_dir, "glab", pages)
    out = atpad("search", "--preset", "gitlab", "jo", env=path_with(bin_dir), check_exit=0).stdout
    # Ranked locally now; an empty name falls back to the username.
    assert out.splitlines() == ["17\tjo.ann\tjo.ann", "1\tJohn Doe\tjdoe"]
    # Every page's people are kept (152), not the 50 a query keeps.
    out = atpad("search", "--preset", "gitlab", "member 149", env=path_with(bin_dir), check_exit=0).stdout
    assert out.splitlines() == ["249\tMember 149\tmember149"]
    assert calls(bin_dir, "glab") == [p[0] for p in pages]


def test_gitlab_preset_with_a_named_project(atpad, bin_dir):
    project = "group%2Fsub%2Fproj"
    stand_in(bin_dir, "glab", [[members_page(project, 1), json.dumps(GITLAB_MEMBERS)], [members_page(project, 2), "[]"]])
    env = path_with(bin_dir) | {"ATPAD_GITLAB_PROJECT": "group/sub/proj"}
    out = atpad("search", "--preset", "gitlab", "", env=env, check_exit=0).stdout
    assert out.splitlines() == ["1\tJohn Doe\tjdoe", "17\tjo.ann\tjo.ann"]


def test_gitlab_preset_a_failing_page_fails_the_list_and_says_why(atpad, bin_dir):
    stand_in(bin_dir, "glab", [[members_page(":fullpath", 1), json.dumps(GITLAB_MEMBERS)]])
    proc = atpad("search", "--preset", "gitlab", "jo", env=path_with(bin_dir))
    assert proc.returncode == 1
    assert "exited with status 9: unexpected arguments" in proc.stderr
    assert calls(bin_dir, "glab") == [members_page(":fullpath", 1), members_page(":fullpath", 2)]


def test_gitlab_preset_per_query_beyond_the_limit(atpad, bin_dir, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[triggers."@"]\npreset = "gitlab"\nlist_limit = 150\n')
    query = ["api", "--method", "GET", "projects/:fullpath/members/all", "-f", "query=jo", "-f", "per_page=50"]
    def page(n):
        return json.dumps([{"id": 1000 + n * 100 + i, "username": f"m{n}-{i}", "name": f"Member {i}"} for i in range(100)])
    # 151 people tell a list longer than 150: two pages are enough, the third is never asked.
    stand_in(bin_dir, "glab", [[members_page(":fullpath", 1), page(1)],
                               [members_page(":fullpath", 2), page(2)], [query, json.dumps(GITLAB_MEMBERS)]])
    out = atpad("search", "--config", str(cfg), "jo", env=path_with(bin_dir), check_exit=0).stdout
    assert out.splitlines() == ["1\tJohn Doe\tjdoe", "17\tjo.ann\tjo.ann"]
    assert calls(bin_dir, "glab") == [members_page(":fullpath", 1), members_page(":fullpath", 2), query]


@pytest.mark.parametrize("preset,tool", [("github", "gh"), ("gitlab", "glab"), ("ldap", "ldapsearch")])
def test_a_missing_tool_is_one_clear_line(atpad, tmp_path, preset, tool):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    env = {"PATH": str(empty), "LDAP_URI": "ldap://127.0.0.1:1", "LDAP_BASE": "dc=x"}
    proc = atpad("search", "--preset", preset, "jo", env=env)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and f"the {preset} preset needs {tool} (" in lines[0] and "not on PATH" in lines[0], lines


def test_a_missing_tool_is_an_error_row_and_editing_goes_on(sessions, tmp_path):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    path = tmp_path / "c.txt"
    s = sessions([str(path), "--preset", "github"], env={"PATH": str(empty)})
    s.type("hi @oc")
    s.wait_for("the github preset needs gh (the GitHub CLI), which is no")
    s.keys("Escape")
    # The chooser closed before the next key: an Escape read together with the space
    # after it is Alt-Space, as in any terminal program.
    s.wait_for(lambda screen: "the github preset needs gh" not in screen, what="the chooser to close")
    s.type(" bye")
    s.keys("C-s")
    s.wait_for("Saved")
    assert path.read_text() == "hi @oc bye"


def test_an_editor_with_a_cached_list_answers_from_it(sessions, tmp_path):
    runs = tmp_path / "runs"
    command = f"echo run >> {runs}; printf '%s\\n' '{{\"members\": [{{\"id\": \"u1\", \"name\": \"Cora Cached\"}}, {{\"x\": 1}}]}}'"
    cfg = tmp_path / "c.toml"
    cfg.write_text(f"[triggers.\"@\"]\ncommand = {json.dumps(command)}\nitems = \"members\"\ncache = \"1h\"\n")
    s = sessions([str(tmp_path / "c.txt"), "--config", str(cfg)])
    s.type("hi @cor")
    s.wait_for("Cora Cached")
    s.wait_for("1 item without id or name skipped")
    s.type("a")
    s.wait_for(lambda sc: "Cora Cached" in sc and "cora" in sc, what="the second keystroke")
    assert runs.read_text() == "run\n"


def test_a_saved_gh_answer_loads_as_a_directory_file_with_items_and_map(atpad, tmp_path):
    saved = tmp_path / "people.json"
    answer = json.loads(json.dumps(GRAPHQL_ANSWER))
    answer["data"]["repository"]["mentionableUsers"]["nodes"].append({"name": "No Login"})
    saved.write_text(json.dumps(answer))
    proc = atpad("search", "octo", "-d", str(saved), "--items", "data.repository.mentionableUsers.nodes",
                 "--map", "id=login,name=name//login,handle=login", check_exit=0)
    assert proc.stdout.splitlines() == ["octo-dev\tocto-dev\tocto-dev", "octocat\tThe Octocat\toctocat"]
    assert "atpad: 1 item without id or name skipped" in proc.stderr


def test_map_on_the_command_line_for_a_command(atpad):
    command = "printf '%s\\n' '{\"login\": \"mona\", \"profile\": {\"full\": \"Mona Lisa\", \"team\": \"Art\"}, \"bot\": false}' " \
              "'{\"login\": \"robo\", \"profile\": {\"full\": \"Robo\"}, \"bot\": true}'"
    out = atpad("search", "mo", "--json", "--directory-command", command,
                "--map", "id=login,name=profile.full,detail={profile.team}, team", check_exit=0).stdout
    results = json.loads(out)["results"]
    assert [r["id"] for r in results] == ["mona", "robo"]


def test_exclude_in_the_config_for_a_command(atpad, tmp_path):
    command = "printf '%s\\n' '{\"id\": 1, \"name\": \"Mona\"}' '{\"id\": 2, \"name\": \"Moe\", \"bot\": true}'"
    cfg = tmp_path / "c.toml"
    cfg.write_text(f"[triggers.\"@\"]\ncommand = {json.dumps(command)}\nexclude = [\"bot\"]\n")
    out = atpad("search", "mo", "--config", str(cfg), check_exit=0).stdout
    assert out == "1\tMona\t\n"


def test_unknown_map_field_and_unknown_preset_are_usage_errors(atpad):
    proc = atpad("search", "x", "--directory-command", "true", "--map", "id=a,nick=b")
    assert proc.returncode == 2 and 'unknown field "nick"' in proc.stderr
    proc = atpad("search", "x", "--preset", "teams")
    assert proc.returncode == 2 and "unknown preset" in proc.stderr
    proc = atpad("search", "x", "--items", "members")
    assert proc.returncode == 2 and "--items and --map apply to" in proc.stderr
