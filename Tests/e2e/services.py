"""A local HTTP server on 127.0.0.1 standing in for the services of
docs/directories.md, "Connect your directory" (Slack, Jira, Microsoft Graph, GitLab): each
test installs a route function that sees the whole request (method, target, headers, body)
and answers with the documented shape."""
import http.server
import json
import threading


class Request:
    def __init__(self, method, target, headers, body):
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body

    @property
    def path(self):
        return self.target.split("?", 1)[0]

    @property
    def json(self):
        return json.loads(self.body)


class Services:
    """The server: `routes[path] = function(Request) -> (status, body)` or
    `(status, body, headers)`; a body that is a dict or list is sent as JSON; the string
    "hang" sends nothing at all, and "drop" closes the connection without an answer."""

    def __init__(self):
        self.routes = {}
        self.requests = []
        self.stopping = threading.Event()
        services = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def handle_any(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                request = Request(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                services.requests.append(request)
                route = services.routes.get(request.path)
                headers = {}
                if route is None:
                    status, answer = 404, {"error": "no route " + request.path}
                else:
                    status, answer, *more = route(request)
                    headers = more[0] if more else {}
                if answer == "hang":
                    services.stopping.wait(30)
                    return
                if answer == "drop":
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                data = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = handle_any

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        # select() may say a connection is waiting that is gone by the time it is
        # accepted; a blocking accept() would then hold serve_forever, and stop(), forever.
        self.httpd.socket.setblocking(False)
        self.port = self.httpd.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()
