#!/usr/bin/env bash
# Install Debian packages, as root or through sudo: `bash scripts/apt-install.sh PKG...`.
# For what lasthop's scripts need and a fresh machine may lack.
set -euo pipefail
as_root=""
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null; then
        echo "apt-install.sh: needs root for: apt-get install $*" >&2
        exit 1
    fi
    as_root="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$as_root apt-get update -q
$as_root apt-get install -y -q --no-install-recommends "$@"
