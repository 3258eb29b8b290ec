from django.urls import include, path

from hearts_site.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("today/", include("game.today.urls")),
    path("", include("game.solo.urls")),
    path("", include("game.network.urls")),
]
