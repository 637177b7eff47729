"""Run calls at the same moment, each in its own thread and database connection (race tests
on PostgreSQL)."""

import threading

from django.db import connection


def at_once(*calls) -> list:
    """Each call's result, or the exception it raised, in the order given."""
    barrier, results = threading.Barrier(len(calls)), [None] * len(calls)

    def run(i, call):
        barrier.wait()
        try:
            results[i] = call()
        except Exception as exc:  # noqa: BLE001 - the caller looks at what each one did
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
