"""A real Matrix homeserver for the end-to-end tests: Synapse, run by the tests themselves.

scripts/setup --tests installs it (pip's matrix-synapse, into the venv .build-synapse/venv;
ATPAD_SYNAPSE_PYTHON names another python that imports `synapse`). `Synapse(folder)`
writes a config into `folder` — server_name "localhost", SQLite, one HTTP listener on
127.0.0.1 at a free port, no federation, registration closed but for the shared-secret
admin API, rate limits out of the way — starts `python -m synapse.app.homeserver -c …`
(which generates the missing signing key first), and waits until `/_matrix/client/versions` answers.

(Not named synapse.py: `python -m synapse…` run from this folder would import it.)
"""
import hashlib
import hmac
import json
import os
import secrets
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV_PYTHON = ROOT / ".build-synapse" / "venv" / "bin" / "python"

# No limit a test can reach: Synapse's defaults (a few messages a second, 3 logins...)
# would throttle a run that posts, joins and registers in quick succession.
UNLIMITED = {"per_second": 10000, "burst_count": 100000}
RATE_LIMITS = {
    "rc_message": UNLIMITED,
    "rc_registration": UNLIMITED,
    "rc_registration_token_validity": UNLIMITED,
    "rc_login": {"address": UNLIMITED, "account": UNLIMITED, "failed_attempts": UNLIMITED},
    "rc_joins": {"local": UNLIMITED, "remote": UNLIMITED},
    "rc_joins_per_room": UNLIMITED,
    "rc_invites": {"per_room": UNLIMITED, "per_user": UNLIMITED, "per_issuer": UNLIMITED},
    "rc_room_creation": UNLIMITED,
    "rc_third_party_invite": UNLIMITED,
    "rc_media_create": UNLIMITED,
    "rc_admin_redaction": UNLIMITED,
    "rc_key_requests": UNLIMITED,
    "rc_presence": {"per_user": UNLIMITED},
    "rc_profile": UNLIMITED,
    "rc_user_directory": UNLIMITED,
    "rc_reports": UNLIMITED,
    "rc_delayed_event_mgmt": UNLIMITED,
}


class SynapseError(Exception):
    """Synapse could not be found, started or asked: the message says what and how to fix it."""


def synapse_python():
    """The python that runs Synapse, checked to import it."""
    python = os.environ.get("ATPAD_SYNAPSE_PYTHON") or str(VENV_PYTHON)
    if not os.path.exists(python):
        raise SynapseError(f"Synapse is not installed: {python} is missing; run scripts/setup --tests "
                           f"(it pip-installs matrix-synapse into {VENV_PYTHON.parent.parent})")
    check = subprocess.run([python, "-c", "import synapse.app.homeserver"], capture_output=True, text=True,
                           timeout=120, cwd="/")
    if check.returncode != 0:
        raise SynapseError(f"{python} cannot import synapse (run scripts/setup --tests):\n{check.stderr.strip()}")
    return python


def _end_with_parent():
    """In the child, before Synapse starts: SIGTERM when the tests' process ends, even
    without its teardown (conftest.py's watchdog ends a hung run with os._exit)."""
    import ctypes
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Synapse:
    def __init__(self, folder, python=None):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.python = python or synapse_python()
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.server_name = "localhost"
        self.shared_secret = secrets.token_hex(24)
        self.log = self.folder / "homeserver.log"
        self.output = self.folder / "homeserver.out"
        self.config = self.folder / "homeserver.yaml"
        self.process = None
        # Requests to 127.0.0.1 never go through a machine's proxy.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        self._write_config()

    def _write_config(self):
        # JSON is YAML: both files are written with json.dumps.
        log_config = self.folder / "log.yaml"
        log_config.write_text(json.dumps({
            "version": 1,
            "formatters": {"precise": {"format": "%(asctime)s - %(name)s - %(lineno)d - %(levelname)s - %(request)s - %(message)s"}},
            "handlers": {"file": {"class": "logging.FileHandler", "formatter": "precise",
                                  "filename": str(self.log), "encoding": "utf8"}},
            "root": {"level": "INFO", "handlers": ["file"]},
            "disable_existing_loggers": False,
        }))
        config = {
            "server_name": self.server_name,
            "pid_file": str(self.folder / "homeserver.pid"),
            "listeners": [{"port": self.port, "bind_addresses": ["127.0.0.1"], "type": "http", "tls": False,
                           "x_forwarded": False, "resources": [{"names": ["client"], "compress": False}]}],
            "database": {"name": "sqlite3", "args": {"database": str(self.folder / "homeserver.db")}},
            "log_config": str(log_config),
            "media_store_path": str(self.folder / "media_store"),
            # Missing, so Synapse generates it before it starts (its default: generate
            # the missing files, then run; the flag for it is refused by the second parse).
            "signing_key_path": str(self.folder / "localhost.signing.key"),
            "registration_shared_secret": self.shared_secret,
            "enable_registration": False,
            "macaroon_secret_key": secrets.token_hex(24),
            "form_secret": secrets.token_hex(24),
            "report_stats": False,
            "enable_metrics": False,
            # No federation: no federation listener, no server allowed, no key servers.
            "federation_domain_whitelist": [],
            "trusted_key_servers": [],
            "suppress_key_server_warning": True,
            "url_preview_enabled": False,
            "presence": {"enabled": False},
            **RATE_LIMITS,
        }
        self.config.write_text(json.dumps(config, indent=1))

    def start(self, timeout=120.0, attempts=3):
        """Starts Synapse and waits until it answers; raises SynapseError with its last words.
        The free port may be taken between free_port() and Synapse's bind: then another."""
        for attempt in range(attempts):
            try:
                return self._start(timeout)
            except SynapseError:
                if attempt + 1 == attempts or "CannotListenError" not in self.last_words():
                    raise
                self.port = free_port()
                self.base = f"http://127.0.0.1:{self.port}"
                self._write_config()

    def _start(self, timeout):
        with open(self.output, "wb") as out:
            self.process = subprocess.Popen(
                [self.python, "-m", "synapse.app.homeserver", "-c", str(self.config)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, cwd=str(self.folder),
                preexec_fn=_end_with_parent)
        started = time.monotonic()
        deadline = started + timeout
        while True:
            if self.process.poll() is not None:
                raise SynapseError(f"Synapse exited with status {self.process.returncode} while starting\n{self.last_words()}")
            try:
                status, _ = self.request("GET", "/_matrix/client/versions", timeout=5)
                if status == 200:
                    self.startup_seconds = time.monotonic() - started
                    return
            except OSError:
                pass
            if time.monotonic() >= deadline:
                self.stop()
                raise SynapseError(f"Synapse did not answer /_matrix/client/versions within {timeout:.0f} s\n{self.last_words()}")
            time.sleep(0.1)

    def stop(self):
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)

    def last_words(self, lines=40):
        words = []
        for path in (self.output, self.log):
            if path.exists():
                tail = path.read_text(errors="replace").splitlines()[-lines:]
                words.append(f"--- {path.name} (last {len(tail)} lines):\n" + "\n".join(tail))
        return "\n".join(words) or "(no output)"

    # The client-server API.
    def request(self, method, path, token=None, body=None, timeout=30):
        """One request; returns (status, parsed JSON answer)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", "Bearer " + token)
        try:
            with self._opener.open(request, timeout=timeout) as answer:
                status, raw = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return status, json.loads(raw or b"null")
        except ValueError:
            return status, raw.decode(errors="replace")

    def call(self, method, path, token=None, body=None, expect=200):
        """A request that must succeed: returns the answer's JSON."""
        status, answer = self.request(method, path, token=token, body=body)
        if status != expect:
            raise SynapseError(f"{method} {path}: HTTP {status} {answer}")
        return answer

    def register(self, user, password=None, displayname=None):
        """Registers `user` through the shared-secret admin API; returns (user id, access token)."""
        password = password or secrets.token_hex(12)
        nonce = self.call("GET", "/_synapse/admin/v1/register")["nonce"]
        mac = hmac.new(self.shared_secret.encode(), digestmod=hashlib.sha1)
        mac.update(b"\0".join([nonce.encode(), user.encode(), password.encode(), b"notadmin"]))
        body = {"nonce": nonce, "username": user, "password": password, "admin": False, "mac": mac.hexdigest()}
        if displayname:
            body["displayname"] = displayname
        answer = self.call("POST", "/_synapse/admin/v1/register", body=body)
        return answer["user_id"], answer["access_token"]


def quoted(segment):
    """A path segment: room ids (`!…`) and event ids (`$…`) percent-encoded whole."""
    return urllib.parse.quote(segment, safe="")
