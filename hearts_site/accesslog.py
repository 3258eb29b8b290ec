"""gunicorn's access log, told what became of a request whose client went away before its answer.

gunicorn's ``asgi`` worker starts each request's access-log status at 500 and changes it only
when it accepts the application's ``http.response.start``. Once the client has gone (an htmx
request aborted by a newer one, a closed tab), its ``send()`` drops the answer without a word,
and when the request's task is cancelled (``asgi_disconnect_grace_period`` after the
disconnect) nothing is sent at all: either way the access log says ``500 0`` for a request
that went well, and no error is logged anywhere, as nothing failed.

The front (hearts_site.bridge) records in ``ANSWER``, a context variable of the request's own
task (the one gunicorn writes the access-log line from), the status it handed to the server,
or ``CLIENT_CLOSED`` when the task was cancelled after the client had gone. ``AccessLogger``
(gunicorn.conf.py's ``logger_class``) then logs ``499`` (nginx's "client closed request") for
a request whose answer the server never took, or the application's own status when that was a
server error, which stays in sight. Nothing here imports Django: gunicorn's master loads it.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from gunicorn.glogging import Logger

CLIENT_CLOSED = 499
ANSWER: ContextVar[int | None] = ContextVar("hearts_answer", default=None)


class Gone:
    """The response gunicorn reports, with the status the access log should show instead."""

    def __init__(self, response: Any, status: int) -> None:
        self.status = status
        self.sent = response.sent
        self.headers = response.headers


def logged_status(reported: int, answered: int | None) -> int:
    """The status to log for a request gunicorn reports as ``reported`` whose front recorded
    ``answered`` (None: nothing recorded, gunicorn's word stands)."""
    if answered is None or reported == answered:
        return reported
    return answered if answered >= 500 else CLIENT_CLOSED


class AccessLogger(Logger):
    def access(self, resp: Any, req: Any, environ: dict, request_time: Any) -> None:
        status = logged_status(resp.status, ANSWER.get())
        super().access(
            resp if status == resp.status else Gone(resp, status), req, environ, request_time
        )
