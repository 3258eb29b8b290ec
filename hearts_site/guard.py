"""Requests refused before anything reads their body: the site takes small UTF-8 forms only.

One rule, ``refusal()``, is applied twice: by the ASGI front (``hearts_site.bridge``), which then
never reads a refused body, and by ``RequestGuardMiddleware``, which answers the
refused request with our page, below the middleware that add the security headers and above
everything that touches ``request.POST`` (the CSRF check would raise Django's ``BadRequest``
for a charset again and again, ending in a bare 500).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.http import parse_header_parameters

log = logging.getLogger(__name__)

FORM = "application/x-www-form-urlencoded"
BOUNDARY = re.compile(r"[ -~]{0,200}[!-~]")  # as Django's MultiPartParser checks it
# A file part of a multipart form, found in the (small, in-memory) body before Django parses it.
FILE_PART = re.compile(rb"\r\ncontent-disposition:[^\r\n]*;\s*filename\*?=", re.IGNORECASE)
# Every form of the site is a few hundred bytes: a name of 20 characters, the CSRF token, a card.
MAX_BODY_BYTES = 8 * 1024
REASONS = {
    400: "This form could not be read: forms must be sent as UTF-8, in one piece.",
    411: "A request body must say its length.",
    413: "The request is too large. This site takes small forms only.",
}


def refusal(method: str, headers: Mapping[str, str]) -> tuple[int, str] | None:
    """The status and log reason for a request this site will not read, or None.

    ``headers`` maps lower-case names to values: Content-Type, Content-Length and
    Transfer-Encoding are all that is looked at.
    """
    content_type, params = parse_header_parameters(headers.get("content-type", ""))
    length = headers.get("content-length", "").strip()
    if headers.get("transfer-encoding"):
        return 411, "a body of unannounced length"
    if length:
        if not length.isdigit():
            return 400, f"content-length {length[:20]!r}"
        if int(length) > max_body_bytes():
            return 413, f"a body of {int(length)} bytes"
    if content_type.startswith("multipart/") and not BOUNDARY.fullmatch(params.get("boundary", "")):
        return 400, "multipart without a valid boundary"
    charset = params.get("charset")
    if content_type == FORM and charset is not None and charset.strip().lower() != "utf-8":
        return 400, f"form charset {charset[:20]!r}"
    return None


def max_body_bytes() -> int:
    return getattr(settings, "MAX_BODY_BYTES", MAX_BODY_BYTES)


def refused_response(request: HttpRequest, status: int) -> HttpResponse:
    html = render_to_string("refused.html", {"status": status, "reason": REASONS[status]})
    response = HttpResponse(html, status=status)
    response["Cache-Control"] = "no-store"
    response["Connection"] = "close"  # the unread body must not be taken for the next request
    # Logged once, with its reason, by the middleware: not again by django.request.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


class RequestGuardMiddleware:
    """Answer a refused request with our 4xx page, logged in one line, before any body is read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        headers = {
            "content-type": request.META.get("CONTENT_TYPE", ""),
            "content-length": request.META.get("CONTENT_LENGTH", ""),
            "transfer-encoding": request.META.get("HTTP_TRANSFER_ENCODING", ""),
        }
        refused = refusal(request.method or "", headers)
        if refused is None and uploads_a_file(request):
            refused = 413, "a file upload"
        if refused is None:
            return self.get_response(request)
        status, reason = refused
        log.warning("Refused %s %s with %d: %s", request.method, request.path[:200], status, reason)
        return refused_response(request, status)


def uploads_a_file(request: HttpRequest) -> bool:
    """Whether a multipart form (its length already checked) carries a file: the site takes none.

    Django's test client and a form with ``enctype="multipart/form-data"`` send small forms this
    way, which are read as any form; with no upload handlers (settings.FILE_UPLOAD_HANDLERS) a
    file part would only be discarded, so it is refused instead.
    """
    if not request.META.get("CONTENT_TYPE", "").lower().startswith("multipart/"):
        return False
    return bool(FILE_PART.search(b"\r\n" + request.body))
