"""The HTTP side of ``bench/league.py``: gunicorn with 2 sync workers on
``bench/settings.py`` (the project's settings and DATABASES, DEBUG off, plus the floor views
of ``bench/league_urls.py``), and a small load generator: throughput (requests per second at
4 concurrent clients for a fixed time) and latency (median ms at one connection)."""

import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, database_url: str, secret_key: str):
        self.port = port = _free_port()
        # gunicorn's and Django's errors, shown when a request fails; closed by stop()
        self.log = tempfile.TemporaryFile()  # noqa: SIM115
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.settings",
               "DATABASE_URL": database_url, "DEBUG": "false", "LOG_LEVEL": "WARNING",
               "SECRET_KEY": secret_key,  # the in-process one: its sessions log the client in
               "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "false"}
        gunicorn = Path(sys.executable).with_name("gunicorn")
        self.process = subprocess.Popen(
            [str(gunicorn), "config.wsgi:application", "--workers", "2", "--worker-class",
             "sync", "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=self.log)
        try:
            self._wait()
        except BaseException:
            self.stop()  # no gunicorn left behind when it does not come up
            raise

    def database_settings(self) -> dict:
        """CONN_MAX_AGE and CONN_HEALTH_CHECKS as the gunicorn process has them."""
        return requests.get(self.url("/floor/settings/"), timeout=30).json()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _wait(self) -> None:
        for _ in range(300):
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.errors()}")  # before stop()
            try:
                requests.get(self.url("/floor/campaigns/"), timeout=30)
                return
            except requests.RequestException:
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not answer")

    def errors(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-4000:]

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def _session(cookies: dict) -> requests.Session:
    session = requests.Session()
    session.cookies.update(cookies)
    session.headers["Accept-Encoding"] = "gzip"
    return session


def check(server: Server, path: str, cookies: dict) -> None:
    response = _session(cookies).get(server.url(path), allow_redirects=False)
    if response.status_code != 200:
        raise RuntimeError(f"{path}: HTTP {response.status_code}; the server said:\n"
                           f"{server.errors()}")


def throughput(server: Server, path: str, cookies: dict, seconds: float,
               concurrency: int = 4) -> float:
    """Requests per second of ``concurrency`` clients asking in a loop for ``seconds``."""
    url, done, stop = server.url(path), [0] * concurrency, time.perf_counter() + seconds

    def client(i: int) -> None:
        session = _session(cookies)
        while time.perf_counter() < stop:
            session.get(url).raise_for_status()
            done[i] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(concurrency)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done) / (time.perf_counter() - start)


def latency(server: Server, path: str, cookies: dict, requests_: int) -> float:
    """Median ms of ``requests_`` requests one after the other at one connection."""
    session, url, times = _session(cookies), server.url(path), []
    session.get(url)
    for _ in range(requests_):
        start = time.perf_counter()
        session.get(url).raise_for_status()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def wire_bytes(server: Server, path: str, cookies: dict) -> tuple[int, str]:
    """Bytes of the body as sent to a client accepting gzip, and its Content-Encoding."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port)
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    conn.request("GET", path, headers={"Accept-Encoding": "gzip", "Cookie": cookie})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return len(body), response.getheader("Content-Encoding") or "identity"


def paired(server: Server, path: str, floor: str, cookies: dict, seconds: float,
           requests_: int, slices: int = 2) -> dict:
    """An endpoint and its floor measured alternately (``slices`` turns each, then latencies
    request by request), so a change in the machine's load touches both alike."""
    rps = {path: 0.0, floor: 0.0}
    for _ in range(slices):
        for url in (path, floor):
            rps[url] += throughput(server, url, cookies, seconds / slices) / slices
    times = {path: [], floor: []}
    sessions = {url: _session(cookies) for url in times}
    for url, session in sessions.items():
        session.get(server.url(url))
    for _ in range(requests_):
        for url, session in sessions.items():
            start = time.perf_counter()
            session.get(server.url(url)).raise_for_status()
            times[url].append(time.perf_counter() - start)
    return {"rps": rps[path], "floor_rps": rps[floor],
            "ms": statistics.median(times[path]) * 1000,
            "floor_ms": statistics.median(times[floor]) * 1000}
