"""``manage.py serve`` (``make run``): the development server (``runserver``, with the same
options) plus the in-process clock that advances deadlines every minute without a broker
(``league.clock``, R-RND-2). The clock starts when the server has bound its port, so only in
the process that serves: with the autoreloader that is its child, restarted with the code."""

from django.conf import settings
from django.core.management import get_commands, load_command_class

from league import clock

# Whichever ``runserver`` the installed apps provide (WhiteNoise's wraps Django's).
Runserver = type(load_command_class(get_commands()["runserver"], "runserver"))


class Command(Runserver):
    help = ("Serve Feldzug for development and, without a broker, run the periodic job "
            "(deadlines, automatic phases) every minute in the same process.")

    def on_bind(self, server_port):
        super().on_bind(server_port)
        host = "0.0.0.0" if self.addr == "0" else self.addr  # as runserver shows it
        host = f"[{host}]" if self._raw_ipv6 else host
        if clock.start() is not None:
            seconds = settings.CLOCK_SECONDS
            every = "every minute" if seconds == 60 else f"every {seconds:g} s"
            note = f"the clock advances deadlines {every}"
        else:
            note = "deadlines are advanced by celery beat (make beat)"
        self.stdout.write(f"Feldzug is running at {self.protocol}://{host}:{server_port}/ "
                          f"— {note}")
