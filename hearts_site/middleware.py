"""The one security header Django 5.2 does not send by itself, and the Server-Timing total."""

import re
import time

from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from django.conf import settings

QUEUE_KEY = "hearts.queue_ms"  # hearts_site.bridge.QUEUE_KEY, without importing the front
DURATION = re.compile(r"dur=([0-9.]+)")


class CrossOriginResourcePolicyMiddleware:
    """Send Cross-Origin-Resource-Policy, so that other sites cannot embed our responses.

    Placed above WhiteNoise in MIDDLEWARE, it covers the static files as well as the pages.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = getattr(settings, "CROSS_ORIGIN_RESOURCE_POLICY", "same-origin")

    def __call__(self, request):
        response = self.get_response(request)
        if self.policy:
            response.headers.setdefault("Cross-Origin-Resource-Policy", self.policy)
        return response


class ServerTimingMiddleware:
    """Complete a view's Server-Timing with ``framework`` and ``total``.

    ``total`` is the whole time in Django, measured here, at the top of MIDDLEWARE, plus the
    wait for a thread before it (``queue``, from hearts_site.bridge). The view's own parts are
    disjoint (see game.solo.views.Timing); ``framework`` is the rest of the time in Django (the
    middleware, the URL routing, signing the cookie), so the parts add up to the total.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        start = time.perf_counter()
        response = self.get_response(request)
        total = (time.perf_counter() - start) * 1000
        header = response.headers.get("Server-Timing")
        if header:
            parts = sum(float(found) for found in DURATION.findall(header))
            header += f", framework;dur={max(total - parts, 0.0):.1f}"
            queue = request.META.get(QUEUE_KEY)  # the wait for a thread (hearts_site.bridge)
            if queue is not None:
                header += f", queue;dur={queue:.1f}"
                total += queue
            response.headers["Server-Timing"] = f"{header}, total;dur={total:.1f}"
        return response


class CSPMiddleware(BaseCSPMiddleware):
    """django-csp's middleware, which builds the policy for every response, even one exempt
    from it: a response marked exempt (the quiet poll's 204) is passed by untouched."""

    def process_response(self, request, response):
        if getattr(response, "_csp_exempt", False):
            return response
        return super().process_response(request, response)
