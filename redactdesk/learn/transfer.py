"""Knowledge transfer: the *source* model whose uncertainty picks the seed before any label exists.

A source model is any :class:`CrfModel` file. The bundled ones (``resources/models/source_en.rdcrf``
and ``source_es.rdcrf``) were trained on synthetic calls from :mod:`redactdesk.synth` with seeds no
demo or experiment uses (rebuild with ``python -m redactdesk.learn.transfer --build``). Another
project's model can be imported as the source with :func:`import_project_model`.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path

from redactdesk.learn.crf import CrfModel
from redactdesk.learn.errors import ModelError
from redactdesk.learn.features import FeatureConfig
from redactdesk.learn.training import TrainingSettings
from redactdesk.learn.utterances import Utterance, utterances_from_conversation

BUNDLED_NAMES = {"en": "source_en.rdcrf", "es": "source_es.rdcrf"}
SOURCE_SEEDS = range(900_000, 900_400)  # reserved for the bundled source model's training calls
MODEL_KIND = "crf"


def bundled_source_path(language: str = "en") -> Path:
    from redactdesk.resources import resource

    if language not in BUNDLED_NAMES:
        raise ModelError(f"no bundled source model for language {language!r} (have: {', '.join(BUNDLED_NAMES)})")
    return resource("models", BUNDLED_NAMES[language])


def load_source(spec: str | os.PathLike[str] = "bundled", language: str = "en") -> CrfModel:
    """``"bundled"`` (the model for ``language``), ``"bundled:es"``, or a path to a model file."""
    if str(spec).startswith("bundled"):
        _, _, lang = str(spec).partition(":")
        path = bundled_source_path(lang or language)
        if not path.is_file():
            raise ModelError(f"the bundled source model is missing ({path}); "
                             "rebuild it with python -m redactdesk.learn.transfer --build")
    else:
        path = Path(spec)
    model = CrfModel.load(path)
    model.info.setdefault("name", path.name)
    return model


def import_project_model(project: object, model_id: int | None = None) -> CrfModel:
    """A model stored in another project (an open ``Project`` or a path): the newest unless ``model_id``."""
    from redactdesk.store import Project

    own = not isinstance(project, Project)
    proj = Project.open(project) if own else project  # type: ignore[arg-type]
    try:
        if model_id is None:
            rows = [r for r in proj.models() if r["kind"] == MODEL_KIND]
            if not rows:
                raise ModelError(f"{proj.path.name} holds no trained model to import")
            model_id = int(rows[-1]["id"])
        blob = proj.model_blob(model_id)
        if not blob:
            raise ModelError(f"model {model_id} in {proj.path.name} has no stored weights")
        model = CrfModel.from_bytes(blob)
        model.info["name"] = f"{proj.path.name}#{model_id}"
        return model
    finally:
        if own:
            proj.close()


def synthetic_utterances(seeds: Sequence[int], language: str = "en") -> list[Utterance]:
    from redactdesk.synth import generate_corpus

    return [u for c in generate_corpus(seeds, language) for u in utterances_from_conversation(c, gold_spans=True)]


def build_source(out: str | os.PathLike[str] | None = None, seeds: Sequence[int] = SOURCE_SEEDS,
                 language: str = "en", config: FeatureConfig | None = None) -> Path:
    """Train the source model on synthetic calls and write it (default: the bundled path)."""
    utts = synthetic_utterances(seeds, language)
    model = TrainingSettings(max_iterations=100).new_model(
        CrfModel(config or FeatureConfig()).extractor).fit(utts)
    path = Path(out) if out else bundled_source_path(language)
    path.parent.mkdir(parents=True, exist_ok=True)
    model.info["name"] = path.name
    model.save(path, {"trained_on": f"redactdesk.synth {language} seeds {seeds[0]}..{seeds[-1]}",
                      "utterances": len(utts)})
    return path


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m redactdesk.learn.transfer",
                                description="Build the bundled source model from synthetic calls.")
    p.add_argument("--build", action="store_true", required=True)
    p.add_argument("--out", default=None)
    p.add_argument("--calls", type=int, default=len(SOURCE_SEEDS))
    p.add_argument("--language", choices=sorted(BUNDLED_NAMES), action="append", default=None)
    args = p.parse_args(argv)
    seeds = range(SOURCE_SEEDS[0], SOURCE_SEEDS[0] + args.calls)
    for language in args.language or sorted(BUNDLED_NAMES):
        path = build_source(args.out if args.language and len(args.language) == 1 else None, seeds, language)
        print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
