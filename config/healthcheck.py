"""The web container's health check (docker-compose.yml runs ``python config/healthcheck.py``):
GET /healthz from inside the container. Standard library only, no Django, so it stays cheap.

Django answers 400 to a Host header that ALLOWED_HOSTS does not list, and asking
``http://127.0.0.1:8000`` sends ``Host: 127.0.0.1:8000``, which the README's
``ALLOWED_HOSTS=localhost`` does not allow. So the check asks with the first host the container's
ALLOWED_HOSTS allows (``.example.org`` as ``example.org``, ``*`` as ``localhost``), and says that
the request came over HTTPS (config.production's proxy header), so that SECURE_SSL_REDIRECT does
not answer it with a redirect."""

import os
import sys
import urllib.request

URL = "http://127.0.0.1:8000/healthz"
TIMEOUT = 4  # seconds; below the compose file's health check timeout


def host_header(allowed_hosts: str) -> str:
    """A Host header that ``allowed_hosts`` (the comma separated setting) allows."""
    for entry in allowed_hosts.split(","):
        entry = entry.strip()
        if entry and entry != "*":
            return entry.lstrip(".")
    return "localhost"


def main(url: str = URL) -> int:
    """0 when /healthz answers 200, else 1 (the reason on stderr)."""
    host = host_header(os.environ.get("ALLOWED_HOSTS", ""))
    request = urllib.request.Request(url, headers={"Host": host, "X-Forwarded-Proto": "https"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return 0 if response.status == 200 else 1
    except OSError as error:  # urllib.error.URLError and HTTPError (503, 400) included
        print(f"healthz as {host}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
