"""The one security header Django 5.2 does not send by itself."""

from django.conf import settings


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
