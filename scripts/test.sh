#!/usr/bin/env bash
# Install what the tests need, then run every check and test of lasthop.
# This is the README's second Quick-start command and what .ci/run calls. Everything
# Python runs in the checkout's virtual environment .venv (scripts/install.sh makes it).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install.sh test
export VIRTUAL_ENV="$PWD/.venv"
export PATH="$VIRTUAL_ENV/bin:$HOME/.cargo/bin:$PATH"

# The pcap tests read captures with tshark, the report tests render in headless
# Chromium: both are Debian packages. Install them when missing (as root, or via sudo).
if ! command -v tshark >/dev/null || ! command -v chromium >/dev/null; then
    echo "== installing tshark and chromium (Debian packages)"
    bash scripts/apt-install.sh tshark chromium fonts-dejavu-core
fi

echo "== lint: rustfmt, clippy, ruff, mypy"
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
python3 -m ruff check python tests benchmarks
python3 -m ruff format --check python tests benchmarks
python3 -m mypy
# The stub of the compiled module must match what it exports.
python3 -m mypy.stubtest lasthop._core

echo "== Rust tests"
cargo test --workspace --exclude lasthop-py

echo "== Python tests"
# On every core: the tests that read the whole reproduction share one worker, which runs
# it once (xdist_group "reproduce"); the slowest tests are listed at the end.
python3 -m pytest -q -n auto --dist loadgroup --durations=15 tests
