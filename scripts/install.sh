#!/usr/bin/env bash
# Build lasthop and install it into this checkout's virtual environment .venv, made
# first with the python3 that comes first on PATH (3.11 or newer): Debian's own python3
# refuses `pip install` outside a virtual environment (PEP 668). With an argument, also
# those optional dependencies: `bash scripts/install.sh test` installs what the tests need.
#
# The README's first Quick-start command; scripts/test.sh runs it too. The first build
# compiles the Rust engine: a few minutes. Afterwards `.venv/bin/lasthop`, or `lasthop`
# once `. .venv/bin/activate` has run.
#
# The venv sees the interpreter's own site-packages (--system-site-packages): what is
# installed there already and new enough is used, not downloaded again.
set -euo pipefail
cd "$(dirname "$0")/.."

extras="${1:-}"
venv=.venv
python="${PYTHON:-python3}"

say() { echo "== $*"; }
fail() { echo "install.sh: $*" >&2; exit 1; }

# Rust: rustup installs cargo into ~/.cargo/bin, which a fresh shell may not have on PATH.
if ! command -v cargo >/dev/null && [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
fi
command -v cargo >/dev/null || fail "needs Rust's cargo (https://rustup.rs) to build the engine"

command -v "$python" >/dev/null || fail "needs $python (Python 3.11 or newer)"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || fail "needs Python 3.11 or newer; $python is $("$python" -V 2>&1)"

if ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
    say "creating the virtual environment $venv with $(command -v "$python") ($("$python" -V 2>&1))"
    rm -rf "$venv"
    if ! "$python" -m venv --system-site-packages "$venv" >/dev/null 2>&1; then
        # Debian keeps venv's ensurepip in a package of its own.
        rm -rf "$venv"
        version="$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
        say "installing python$version-venv (Debian package)"
        bash scripts/apt-install.sh "python$version-venv"
        "$python" -m venv --system-site-packages "$venv"
    fi
fi

say "building and installing lasthop${extras:+[$extras]} into $venv (the Rust build takes minutes the first time)"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -e ".${extras:+[$extras]}"

# The native `lasthop` command (crates/lasthop-cli, issue 31): run, scenarios, schema and
# --version without starting Python; every other command line goes to `python -m
# lasthop` beside it. It replaces the Python script pip wrote (lasthop._fast:main, which
# stays what `python -m lasthop` runs). The engine's crates are built already; this links
# one binary.
say "building the native lasthop command"
cargo build -q --release -p lasthop-cli
install -m 0755 target/release/lasthop "$venv/bin/lasthop"
