"""The mark for the search core's hot functions, and the name of the compiled copy.

A leaf module: ``game.players.sim`` marks its functions with ``hot`` and
``game.players.jit`` loads ``sim`` a second time under ``COMPILED_NAME``; neither needs the
other to say what the mark means.
"""

from __future__ import annotations

COMPILED_NAME = "game.players.sim_compiled"
TREE_COMPILED_NAME = "game.players.tree_compiled"  # ``tree`` on the compiled ``sim``


def hot(func):
    """Compile ``func`` in the compiled copy of its module; leave it as it is elsewhere."""
    if func.__module__ not in (COMPILED_NAME, TREE_COMPILED_NAME):
        return func
    import numba  # only the compiled copy needs numba: the Python form runs without it

    return numba.njit(cache=True, nogil=True)(func)
