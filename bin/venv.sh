# Sourced by bin/serve and bin/test: make (or reuse) the project's virtual environment and
# install exactly what a lock file pins into it. Never the system Python: Debian 12 and
# Ubuntu 24.04 refuse that (PEP 668), and packages already there must not decide our versions.
#   usage: . bin/venv.sh LOCKFILE   ->  sets $PY to the environment's python
# VENV (default .venv) names the folder; .ci/run leaves it unset, and a fresh clone has none.

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
}

make_venv() {
    local lock=$1
    VENV=${VENV:-.venv}
    if [ ! -x "$VENV/bin/python" ]; then
        # Debian splits ensurepip into python3-venv: without it `python3 -m venv` fails.
        if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
            local version
            version=$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
            apt_install "python${version}-venv" || apt_install python3-venv
        fi
        rm -rf "$VENV"
        python3 -m venv "$VENV"
    fi
    PY="$VENV/bin/python"
    # --require-hashes: every package, dependencies included, is the exact file the lock names.
    "$PY" -m pip install --quiet --disable-pip-version-check --require-hashes -r "$lock"
}

make_venv "$1"
