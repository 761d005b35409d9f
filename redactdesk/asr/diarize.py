"""Who spoke when in a mono recording: speaker embeddings of short stretches of speech, clustered.

Stereo call recordings need no diarizer (one party per channel, :mod:`redactdesk.asr.speakers`).
A mono recording's words are cut into pieces at pauses (at most :data:`MAX_PIECE` s each), every
piece long enough to judge (:data:`MIN_PIECE` s) gets a speaker embedding — Resemblyzer's GE2E
voice encoder, whose trained weights ship inside its PyPI package, so nothing is fetched at run
time — and the embeddings are clustered (Ward linkage, scikit-learn). With no number of speakers
given, a two-way split whose centroids are as alike as one voice's (cosine ≥ :data:`SAME_VOICE`)
means one speaker, else the number with the best silhouette among 2..:data:`MAX_SPEAKERS` is taken.
That guess is weak (measured on the demo voices: one voice's halves 0.79-0.94, two voices
0.73-0.94), so call recordings are diarized with the number of parties given — two by default in
a project (setting ``asr.speakers``). Pieces too short to
judge take the speaker of the nearest judged piece. Speakers are named ``SPEAKER_00``,
``SPEAKER_01``, ... in order of first appearance; turns then follow the speakers
(:func:`redactdesk.asr.speakers.build_turns`).

Measured by ``benchmarks/bench_diarize.py`` on the demo calls mixed down to mono. Where the
encoder is not installed (``pip install 'redactdesk[diarize]'``), :func:`diarizer_available` says
so and transcription keeps one speaker with turns split at pauses, and says that in its notes.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from redactdesk.asr.base import check_cancel
from redactdesk.core.progress import CancelFn
from redactdesk.core.types import Word

RATE = 16_000
PAUSE = 0.25  # s: a silence this long between words may separate two speakers
MAX_PIECE = 2.0  # s: pieces are cut at the next word boundary after this long
MIN_PIECE = 0.5  # s: shorter pieces are not embedded (too little voice to judge)
MAX_SPEAKERS = 4
SAME_VOICE = 0.9  # cosine of the two halves' centroids at or above which they are one voice
SPEAKER_NAME = "SPEAKER_{:02d}"

AudioReader = Callable[[int, int], np.ndarray]  # [a, b) samples at 16 kHz

_ENCODER: Any = None
_ENCODER_LOCK = threading.Lock()


@dataclass
class DiarizationReport:
    """What the diarizer did (numbers only: it never holds words)."""

    speakers: int = 1
    pieces: int = 0
    embedded: int = 0
    silhouette: float | None = None
    seconds: float = 0.0
    method: str = "resemblyzer GE2E embeddings + Ward clustering"

    def note(self) -> str:
        sil = f", silhouette {self.silhouette:.2f}" if self.silhouette is not None else ""
        return (f"speakers found by the diarizer: {self.speakers} ({self.method}; {self.embedded} of "
                f"{self.pieces} pieces judged{sil})")


def diarizer_available() -> tuple[bool, str]:
    """(True, "") when the speaker encoder can be imported, else (False, what to install)."""
    try:
        import resemblyzer  # noqa: F401
    except Exception as exc:  # ImportError, or a broken dependency of the package
        return False, (f"no speaker diarizer installed ({type(exc).__name__}): mono recordings get one speaker; "
                       "install it with pip install 'redactdesk[diarize]'")
    return True, ""


def _encoder() -> Any:
    global _ENCODER
    with _ENCODER_LOCK:
        if _ENCODER is None:
            from resemblyzer import VoiceEncoder

            _ENCODER = VoiceEncoder("cpu", verbose=False)
        return _ENCODER


def pieces(words: Sequence[Word], *, pause: float = PAUSE, max_len: float = MAX_PIECE) -> list[tuple[int, int]]:
    """[a, b) word ranges: a new piece after a pause of ``pause`` s or once a piece lasts ``max_len`` s."""
    out: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(words) + 1):
        if i == len(words) or words[i].start - words[i - 1].end >= pause \
                or words[i - 1].end - words[start].start >= max_len:
            out.append((start, i))
            start = i
    return out


def cluster(embeddings: np.ndarray, num_speakers: int | None = None, *,
            max_speakers: int = MAX_SPEAKERS) -> tuple[np.ndarray, float | None]:
    """Labels 0..k-1 per embedding and the silhouette of the split (None for one cluster)."""
    from sklearn.cluster import AgglomerativeClustering
    from sklearn.metrics import silhouette_score

    n = len(embeddings)
    if n == 0:
        return np.zeros(0, dtype=int), None
    x = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-9)
    if num_speakers is not None:
        k = max(1, min(num_speakers, n))
        if k == 1:
            return np.zeros(n, dtype=int), None
        labels = AgglomerativeClustering(n_clusters=k, linkage="ward").fit_predict(x)
        return labels, float(silhouette_score(x, labels, metric="cosine")) if k < n else None
    if n < 3:
        return np.zeros(n, dtype=int), None
    halves = AgglomerativeClustering(n_clusters=2, linkage="ward").fit_predict(x)
    centroids = [x[halves == k].mean(axis=0) for k in (0, 1)]
    centroids = [c / max(float(np.linalg.norm(c)), 1e-9) for c in centroids]
    if float(centroids[0] @ centroids[1]) >= SAME_VOICE:
        return np.zeros(n, dtype=int), None
    best: tuple[float, np.ndarray] | None = None
    for k in range(2, min(max_speakers, n - 1) + 1):
        labels = halves if k == 2 else AgglomerativeClustering(n_clusters=k, linkage="ward").fit_predict(x)
        score = float(silhouette_score(x, labels, metric="cosine"))
        if best is None or score > best[0]:
            best = (score, labels)
    assert best is not None
    return best[1], best[0]


def diarize_words(
    read: AudioReader | np.ndarray,
    words: Sequence[Word],
    *,
    num_speakers: int | None = None,
    cancel: CancelFn | None = None,
) -> tuple[list[Word], DiarizationReport]:
    """Copies of ``words`` with ``speaker`` set by the diarizer (see the module docstring).

    ``read`` gives the recording at 16 kHz (a reader ``(a, b) -> samples`` or the whole array).
    Raises ImportError when the encoder is not installed (check :func:`diarizer_available`).
    """
    t0 = time.perf_counter()
    reader: AudioReader = (lambda a, b: read[a:b]) if isinstance(read, np.ndarray) else read  # type: ignore[index]
    out = [dataclasses.replace(w) for w in words]
    report = DiarizationReport()
    ranges = pieces(out)
    report.pieces = len(ranges)
    judged = [(a, b) for a, b in ranges if out[b - 1].end - out[a].start >= MIN_PIECE]
    if len(judged) < 2:  # nothing to compare
        for w in out:
            w.speaker = SPEAKER_NAME.format(0)
        report.embedded = len(judged)
        report.seconds = time.perf_counter() - t0
        return out, report
    encoder = _encoder()
    embeddings = []
    for a, b in judged:
        check_cancel(cancel)
        x = np.asarray(reader(int(out[a].start * RATE), int(np.ceil(out[b - 1].end * RATE))), dtype=np.float32)
        peak = float(np.max(np.abs(x))) if len(x) else 0.0
        if peak > 0:
            x = x / peak * 0.5
        embeddings.append(encoder.embed_utterance(x))
    labels, report.silhouette = cluster(np.asarray(embeddings), num_speakers)
    report.embedded = len(judged)
    centre = np.array([(out[a].start + out[b - 1].end) / 2 for a, b in judged])
    names: dict[int, str] = {}
    for a, b in ranges:
        mid = (out[a].start + out[b - 1].end) / 2
        label = int(labels[int(np.argmin(np.abs(centre - mid)))])
        name = names.setdefault(label, SPEAKER_NAME.format(len(names)))
        for w in out[a:b]:
            w.speaker = name
    report.speakers = len(names)
    report.seconds = time.perf_counter() - t0
    return out, report
