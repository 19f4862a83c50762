#!/usr/bin/env bash
# Install what the tests need, then run every check and test of lasthop.
# This is the README's second Quick-start command and what .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install -q --disable-pip-version-check -e '.[test]'

echo "== lint: rustfmt, clippy, ruff, mypy"
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
python3 -m ruff check python tests
python3 -m ruff format --check python tests
python3 -m mypy
# The stub of the compiled module must match what it exports.
python3 -m mypy.stubtest lasthop._core

echo "== Rust tests"
cargo test --workspace --exclude lasthop-py

echo "== Python tests"
python3 -m pytest -q tests
