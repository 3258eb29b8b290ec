"""The platform's health check, and the load test's trivial view."""

from django.http import HttpResponse
from django.views.decorators.http import require_safe

from game.players import jit


@require_safe
def healthz(request):
    """Answer "ok" without touching the session, so no cookie is ever set here.

    The request still passes through the whole middleware stack: the answer says the process
    is up and Django works, and it is the baseline a move's cost is compared with. With
    ``?detail`` a second line says how the computer players think: "compiled", or "python"
    when the compiled search core could not load (the log has the reason).
    """
    body = "ok"
    if "detail" in request.GET:
        body += f"\nplayers: {jit.loaded_status()}"
    response = HttpResponse(body, content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response
