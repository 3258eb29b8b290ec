"""The search core in two forms from one source: plain Python and numba's machine code.

``game.players.sim`` is written in the subset of Python that numba compiles. Imported as
usual it is plain Python, the form the tests read and the fallback plays with. ``core()`` loads
the same file a second time under the name ``game.players.sim_compiled``; there ``hot``
(``game.players.hot``) compiles
every function it marks, with numba's on-disk cache (``NUMBA_CACHE_DIR``) so that a restarted
worker loads the machine code instead of compiling it again. If numba is missing or fails, the
site plays with the Python form and says so once in the log and on ``/healthz?detail``.

Only the bit helpers differ between the two forms: Python's ``int.bit_length`` and
``int.bit_count`` are fast in CPython and do not exist in numba, which gets CPU instructions.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import sys
import tempfile
import threading
import time
from types import ModuleType

from game.engine import DECK, Game

from . import brain, sim, tree
from .brain import decide_play
from .hot import COMPILED_NAME, TREE_COMPILED_NAME
from .view import view_of

log = logging.getLogger(__name__)

DISABLE_ENV = "HEARTS_PYTHON_PLAYERS"  # set to 1 to play with the Python form on purpose

_state: dict[str, object] = {"core": None, "status": None, "detail": ""}
_loading = threading.Lock()  # two first moves at once load (and log) it once


def cache_dir() -> str:
    """Where numba keeps the machine code: ``NUMBA_CACHE_DIR`` if set, else the package's
    ``__pycache__`` if it is writable (a build step's ``collectstatic`` fills it there), else a
    folder in the temporary directory (a read-only slug): never no cache, which numba refuses."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return chosen
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.join(here, "__pycache__")
    if os.access(tree if os.path.isdir(tree) else here, os.W_OK):
        return ""
    return os.path.join(tempfile.gettempdir(), "hearts-numba-cache")


def warm_up(core: ModuleType) -> None:
    """Eight cards of a game decided by the search in ``core``, so that every hot function of it
    has run once: numba compiles it (or loads it from its cache) now, not during a move."""
    game = Game.new(1)
    for seat in range(4):
        game.pass_cards(seat, game.hand(seat)[:3])
    for _ in range(8):
        seat = game.turn
        game.play(seat, DECK[decide_play(view_of(game, seat), core)].code)


def _load() -> ModuleType:
    folder = cache_dir()
    if folder and "numba" not in sys.modules:
        os.environ["NUMBA_CACHE_DIR"] = folder  # numba reads it when first imported
    import numba

    if numba.config.DISABLE_JIT:
        raise RuntimeError("NUMBA_DISABLE_JIT is set: numba would run the Python form, slower")
    module = _second_copy(COMPILED_NAME, sim.__file__)
    try:
        module.TREE = _second_copy(TREE_COMPILED_NAME, tree.__file__)  # on the compiled sim
        _drop_stale_tree(module.TREE)
        warm_up(module)
    except BaseException:
        sys.modules.pop(COMPILED_NAME, None)
        sys.modules.pop(TREE_COMPILED_NAME, None)
        raise
    return module


def _drop_stale_tree(compiled_tree: ModuleType) -> None:
    """numba's cache checks a function's own file, not the files of what it calls: the compiled
    tree would keep the ``sim`` it was first built on. Its cached machine code is dropped (before
    anything of it is loaded) when ``sim.py`` is not the one it was built on."""
    cache = getattr(compiled_tree.advance, "_cache", None)
    folder = getattr(cache, "_cache_path", "")
    if not folder:
        return
    mark = os.path.join(folder, "tree.sim-source")
    with open(sim.__file__, "rb") as source:
        stamp = hashlib.sha256(source.read()).hexdigest()
    try:
        with open(mark) as built:
            if built.read() == stamp:
                return
    except OSError:
        pass
    try:
        for name in os.listdir(folder):
            if name.startswith("tree.") and name.endswith((".nbi", ".nbc")):
                os.remove(os.path.join(folder, name))
        with open(mark, "w") as built:
            built.write(stamp)
    except OSError:
        log.warning("computer players: a stale compiled tree could not be dropped from %s", folder)


def _second_copy(name: str, path: str) -> ModuleType:
    """The module at ``path`` loaded again under ``name``, where ``hot`` compiles."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def core() -> ModuleType:
    """The module the search runs: the compiled copy of ``sim`` if it loads, else ``sim``."""
    found = _state["core"]
    if found is not None:
        return found  # type: ignore[return-value]
    with _loading:
        if _state["core"] is None:
            _choose()
    return _state["core"]  # type: ignore[return-value]


def _choose() -> None:
    started = time.perf_counter()
    if os.environ.get(DISABLE_ENV) == "1":
        module, status = sim, "python"
        detail = f"players think in Python ({DISABLE_ENV}=1), {_smaller()}"
        log.warning("computer players: %s", detail)
    else:
        try:
            module = _load()
        except Exception as error:  # numba missing, or failing on this machine
            module, status = sim, "python"
            detail = (
                f"players think in Python, some 30 times slower, {_smaller()}: the compiled "
                f"search core did not load ({type(error).__name__}: {error})"
            )
            log.error("computer players: %s", detail)
        else:
            status = "compiled"
            seconds = time.perf_counter() - started
            detail = f"players think in compiled code (numba, ready in {seconds:.1f} s)"
            log.debug("computer players: %s", detail)  # stdout is for commands' output
    _state.update(core=module, status=status, detail=detail)


def _smaller() -> str:
    return (
        f"on a smaller budget ({brain.PYTHON_BUDGET:,} simulated cards a decision, "
        f"against {brain.CARD_BUDGET:,} compiled)"
    )


def status() -> tuple[str, str]:
    """("compiled" or "python", a sentence for people), loading the core if not yet done."""
    core()
    return str(_state["status"]), str(_state["detail"])


def loaded_status() -> str:
    """The players' form, "compiled" or "python, on a smaller budget (...)" ("not loaded yet"
    before), loading nothing."""
    if _state["status"] == "python":
        return f"python, {_smaller()}"
    return str(_state["status"] or "not loaded yet")
