"""Small signed-off projects for release-export tests: synthetic audio, a few words, accepted spans.

``fake_substitute`` stands in for redactdesk.substitute (same call and result shape) so these
tests check the export, not the pseudonym generators.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from redactdesk.core.types import Conversation, Role, Span, SpanStatus, Word
from redactdesk.risk.signoff import sign_off
from redactdesk.store import Project

# (text, start, end, speaker)
WORDS = [
    ("hello", 0.10, 0.40, "agent"), ("who", 0.45, 0.60, "agent"), ("is", 0.62, 0.70, "agent"),
    ("calling?", 0.72, 1.00, "agent"),
    ("this", 1.20, 1.35, "customer"), ("is", 1.37, 1.45, "customer"), ("Marjorie", 1.50, 1.90, "customer"),
    ("Quillfeather,", 1.92, 2.40, "customer"), ("my", 2.50, 2.60, "customer"), ("number", 2.62, 2.90, "customer"),
    ("is", 2.92, 3.00, "customer"), ("0612", 3.05, 3.60, "customer"), ("449377", 3.62, 4.20, "customer"),
    ("thanks", 4.40, 4.70, "agent"), ("Marjorie", 4.75, 5.20, "agent"),
]
SPANS = [(6, 8, "PERSON", "p1"), (11, 13, "PHONE", None), (14, 15, "PERSON", "p1")]
ORIGINALS = ["Marjorie", "Quillfeather", "0612 449377", "0612449377"]
SURROGATES = {"PERSON": "Bernadette Oakley", "PHONE": "0655 210987"}
DURATION = 5.5


@dataclass
class Replacement:
    span_id: int
    category: str
    original: str
    surrogate: str


@dataclass
class SubstitutionResult:
    revised_words: list[Word]
    replacements: list[Replacement]
    map_rows: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def make_substitute(leave_original: str | None = None, surrogates: dict[str, str] | None = None,
                    map_rows: tuple[dict, ...] = ()):
    """A substitute_conversation stand-in; ``leave_original`` keeps that category's originals in place."""
    table = {**SURROGATES, **(surrogates or {})}

    def substitute(conv: Conversation, *, mode="pseudonym", secret, existing_map=None, language=None,
                   gazetteer_edits=None) -> SubstitutionResult:
        accepted = {s.start_word: s for s in conv.spans if s.status == SpanStatus.ACCEPTED}
        out: list[Word] = []
        reps: list[Replacement] = []
        i = 0
        while i < len(conv.words):
            s = accepted.get(i)
            if s is None:
                out.append(conv.words[i])
                i += 1
                continue
            original = conv.span_text(s)
            surrogate = original if s.category == leave_original else table[s.category]
            if s.category == "PERSON" and s.end_word - s.start_word == 1 and surrogate != original:
                surrogate = surrogate.split()[0]
            toks = surrogate.split()
            t0, t1 = conv.span_times(s)
            step = (t1 - t0) / len(toks)
            first = conv.words[s.start_word]
            out += [Word(t, t0 + k * step, t0 + (k + 1) * step, None, first.speaker, first.channel, False)
                    for k, t in enumerate(toks)]
            reps.append(Replacement(s.id, s.category, original, surrogate))
            i = s.end_word
        return SubstitutionResult(out, reps, map_rows=[dict(r) for r in map_rows])

    return substitute


def make_audio(path: Path, seconds: float = DURATION, rate: int = 16000) -> Path:
    rng = np.random.default_rng(0)
    t = np.arange(int(seconds * rate)) / rate
    x = 0.3 * np.sin(2 * np.pi * 220 * t) + 0.05 * rng.standard_normal(t.size)
    sf.write(str(path), x.astype("float32"), rate, subtype="PCM_16")
    return path


def build_project(tmp_path: Path, *, signed: bool = True, n_conversations: int = 2, reviewed: bool = True) -> Project:
    project = Project.create(tmp_path / "p.rdproj", actor="tester", role=Role.ANNOTATOR)
    for n in range(n_conversations):
        cid = f"call_{n + 1}"
        audio = make_audio(tmp_path / f"{cid}.wav")
        words = [Word(t, s, e, 0.9, spk) for t, s, e, spk in WORDS]
        conv = Conversation(id=cid, audio_path=str(audio), sample_rate=16000, channels=1, duration=DURATION,
                            words=words, meta={"speakers": {"agent": {"role": "agent", "gender": "f"},
                                                            "customer": {"role": "customer", "gender": "f"}},
                                               "span_values": ["Marjorie Quillfeather"]})
        conv.turns = conv.turns_from_speakers()
        conv.spans = [Span(a, b, c, status=SpanStatus.ACCEPTED, entity=e) for a, b, c, e in SPANS]
        project.add_conversation(conv)
        if reviewed:  # detection ran (nothing new) and a person finished the review: the release gate opens
            project.replace_suggestions(cid, [])
            project.mark_reviewed(cid)
    if signed:
        sign_off(project, "Rita Reviewer", comment="checked")
    return project


@pytest.fixture
def project(tmp_path):
    p = build_project(tmp_path)
    yield p
    p.close()


@pytest.fixture
def unsigned_project(tmp_path):
    p = build_project(tmp_path, signed=False)
    yield p
    p.close()


@pytest.fixture
def out_root(tmp_path) -> Path:
    d = tmp_path / "releases"
    d.mkdir()
    return d


def no_relisten(masked_path, conv, ranges, **kw):
    return {"leaks": [], "ranges_checked": len(ranges), "items_checked": len(conv.spans)}


@pytest.fixture
def kit():
    """Helpers for tests: fake stages, the planted originals, default export keywords."""

    class Kit:
        originals = ORIGINALS
        words = WORDS
        spans = SPANS
        substitute = staticmethod(make_substitute)
        build = staticmethod(build_project)

        @staticmethod
        def kwargs(**overrides):
            kw = {"substitute": make_substitute(), "relisten": no_relisten, "prosody": False}
            kw.update(overrides)
            return kw

    return Kit
