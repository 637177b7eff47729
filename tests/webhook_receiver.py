"""A local HTTP receiver for the webhook tests: a threading ``http.server``
on 127.0.0.1 that records every POST and answers from a script of (status, headers)."""

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes

    @property
    def json(self) -> dict:
        return json.loads(self.body)


@dataclass
class Receiver:
    server: ThreadingHTTPServer
    received: list[Received] = field(default_factory=list)
    script: list[tuple[int, dict]] = field(default_factory=list)  # answers, then 204s
    hold: threading.Event | None = None  # when set: each request waits for it
    arrived: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}{path}"

    def at(self, path: str) -> list[Received]:
        return [r for r in self.received if r.path == path]


def start_receiver() -> Receiver:
    receiver: Receiver

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            receiver.received.append(Received(self.path, dict(self.headers), body))
            receiver.arrived.set()
            if receiver.hold is not None:
                receiver.hold.wait(10)
            status, headers = receiver.script.pop(0) if receiver.script else (204, {})
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver = Receiver(server)
    # shutdown() waits for the loop's next poll: 0.5 s per test at the default
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                     daemon=True).start()
    return receiver
