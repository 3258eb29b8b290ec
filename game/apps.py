from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"

    def ready(self) -> None:
        # The computer players' search core, compiled (or loaded from numba's cache) and run once
        # now, while the process starts: under gunicorn's preload_app that is in the master,
        # before any worker forks or takes a request, so no player's move pays for it. If it
        # cannot load, the players think in Python and the log and /healthz?detail say so.
        from game.players import jit

        jit.core()
