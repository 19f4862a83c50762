#!/usr/bin/env bash
# Install what the tests need, then run every check and test of lasthop.
# This is the README's second Quick-start command and what .ci/run calls. Everything
# Python runs in the checkout's virtual environment .venv (scripts/install.sh makes it).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each phase says when it starts (seconds since this script began): CI's budget is 20 min.
#
# The Rust checks build in target/debug while the install builds the release engine in
# target/release (cargo locks each profile's directory on its own): the release build's
# link-time optimisation runs on one core for minutes, and clippy and the test build
# use the other. Their output is shown when they end; the script stops on either's failure.
if ! command -v cargo >/dev/null && [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
fi
rust_log="$(mktemp)"
trap 'rm -f "$rust_log"' EXIT
echo "== Rust lint and test build, beside the install: clippy, cargo test --no-run (at ${SECONDS} s)"
(
    cargo clippy --workspace --all-targets -- -D warnings
    cargo test --workspace --exclude lasthop-py --no-run
) >"$rust_log" 2>&1 &
rust_build=$!
if ! bash scripts/install.sh test; then
    kill "$rust_build" 2>/dev/null || true
    exit 1
fi
rust_ok=0
wait "$rust_build" || rust_ok=$?
echo "== Rust lint and test build done (at ${SECONDS} s)"
cat "$rust_log"
[ "$rust_ok" -eq 0 ] || { echo "clippy or the Rust test build failed" >&2; exit 1; }
export VIRTUAL_ENV="$PWD/.venv"
export PATH="$VIRTUAL_ENV/bin:$HOME/.cargo/bin:$PATH"

# The pcap tests read captures with tshark, the report tests render in headless
# Chromium: both are Debian packages. Install them when missing (as root, or via sudo).
if ! command -v tshark >/dev/null || ! command -v chromium >/dev/null; then
    echo "== installing tshark and chromium (Debian packages)"
    bash scripts/apt-install.sh tshark chromium fonts-dejavu-core
fi

echo "== lint: rustfmt, ruff, mypy (at ${SECONDS} s)"
cargo fmt --all --check
# The Rust tests (built above) run beside the Python lint and tests: their
# longest, the scenario fuzzer, keeps one core for a minute and more, and the
# Python tests leave the machine part idle while the reproduction's pool waits
# on its slowest runs. Their output is shown when they end.
rust_tests_log="$(mktemp)"
echo "== Rust tests, beside the Python lint and tests (at ${SECONDS} s)"
cargo test --workspace --exclude lasthop-py >"$rust_tests_log" 2>&1 &
rust_tests=$!
# A failed lint stops the script: the Rust tests with it.
trap 'kill "$rust_tests" 2>/dev/null || true; rm -f "$rust_log" "$rust_tests_log"' EXIT
python3 -m ruff check python tests benchmarks
python3 -m ruff format --check python tests benchmarks
python3 -m mypy
# The stub of the compiled module must match what it exports.
python3 -m mypy.stubtest lasthop._core

echo "== Python tests (at ${SECONDS} s)"
# On every core, a test file to a worker: tests/test_verdicts.py holds every test that
# reads the whole reproduction, so it runs once (xdist's loadgroup would say so with a
# marker, but with pytest 9 and xdist 3.8 it split the group and ran it twice). The
# slowest tests are listed at the end.
python_ok=0
python3 -m pytest -q -n auto --dist loadfile --durations=15 -m "not live" tests || python_ok=$?
rust_tests_ok=0
wait "$rust_tests" || rust_tests_ok=$?
echo "== Rust tests' output"
cat "$rust_tests_log"
[ "$rust_tests_ok" -eq 0 ] || { echo "the Rust tests failed" >&2; exit 1; }
[ "$python_ok" -eq 0 ] || { echo "the Python tests failed" >&2; exit 1; }

# Live runs (issue 33: namespaces, TUN devices, the kernel's TCP) are timing-sensitive:
# they run alone, with nothing else on the machine. Where they cannot run (not root, no
# /dev/net/tun), each skips with one line saying why.
echo "== live-mode tests, alone (at ${SECONDS} s)"
cargo test -q -p lasthop-live --test live -- --ignored --nocapture
python3 -m pytest -q -m live -rs tests
echo "== done in ${SECONDS} s"
