#!/usr/bin/env bash
# The Python package in CI: a venv (target/py-venv), maturin + NumPy + pytest, the package
# installed with the README's command (`pip install ./python`), then its pytest suite (NumPy
# and torch, cpu backend). The wheel is built in cargo's dev profile so that it reuses what
# `cargo test` built (MATURIN_PEP517_ARGS); a user's `pip install ./python` builds release.
# Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian ships venv/ensurepip in separate packages.
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq python3-venv python3-pip >/dev/null
fi
VENV=target/py-venv
rm -rf "$VENV"
python3 -m venv "$VENV"
# The build backend (maturin) runs from the venv: put it on PATH.
export PATH="$PWD/$VENV/bin:$PATH"
"$VENV/bin/pip" install -q --upgrade pip
"$VENV/bin/pip" install -q "maturin>=1.5,<2" numpy pytest
# torch for the torch importer's tests (python/tests/test_torch_import.py, about 15 s; skipped
# without torch). PyPI's Linux wheel brings its CUDA libraries: about 5.4 GB and 2 min 12 s to
# install on this machine without a pip cache (the cpu backend needs none of CUDA).
"$VENV/bin/pip" install -q torch
MATURIN_PEP517_ARGS="--profile dev" "$VENV/bin/pip" install -q --no-build-isolation ./python
# From the repository root, so that python/fuser (the sources) does not shadow the install.
"$VENV/bin/pytest" -q python/tests
