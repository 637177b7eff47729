"""A stand-in mail server for tests: accepts connections on 127.0.0.1 and never answers."""

import contextlib
import socket
import threading


@contextlib.contextmanager
def silent_smtp(settings):
    """Point SMTP mail at a server that accepts connections and never says a word, with a
    one-second ``EMAIL_TIMEOUT``; yields the list of connections it accepted."""
    server = socket.create_server(("127.0.0.1", 0))
    held, stop = [], threading.Event()

    def accept():
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.getsockname()[1]
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 1
    try:
        yield held
    finally:
        stop.set()
        thread.join()
        for connection in held:
            connection.close()
        server.close()
