"""A small project for GUI tests: sample calls when bundled, else a synthetic call; some spans suggested."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from redactdesk.core.types import Conversation, ConversationStatus, Span, SpanStatus, Turn, Word

os.environ.setdefault("REDACTDESK_NO_PEAK_CACHE", "1")
# The active-learning panel scores the pool in a background job as soon as a window opens; other
# panels' tests do not need that CPU, so only its own tests (tests/gui/test_al_panel.py) run it.
# (The hang once seen here was Qt objects freed by the garbage collector on the job's thread:
# fixed in gui/jobs.py, tested in test_al_panel.py.)
os.environ.setdefault("REDACTDESK_AL_AUTOSTART", "0")

SCRIPT = [
    ("agent", "thank you for calling northwind bank my name is sarah how can I help"),
    ("customer", "hi my name is john smith and I lost my card"),
    ("agent", "sorry to hear that can I have your date of birth please"),
    ("customer", "it is the fourth of july nineteen eighty"),
    ("agent", "and the phone number on the account"),
    ("customer", "five five five one two three four"),
    ("agent", "thank you john I have blocked the card ending four one one one"),
    ("customer", "great thanks my email is john at example dot com"),
]
# (first word text, number of words, category) in order of appearance
PII = [("sarah", 1, "PERSON"), ("john", 2, "PERSON"), ("fourth", 5, "DATE_OF_BIRTH"),
       ("five", 7, "PHONE"), ("john", 1, "PERSON"), ("four", 4, "CREDIT_CARD"), ("john", 5, "EMAIL")]


def synthetic_conversation(folder: Path, cid: str = "call_synth_001") -> Conversation:
    """A two-speaker call with speech-like audio (voiced bursts per word) and seven PII spans."""
    rate = 16000
    rng = np.random.default_rng(7)
    words: list[Word] = []
    turns: list[Turn] = []
    t = 0.4
    for speaker, text in SCRIPT:
        first = len(words)
        for token in text.split():
            dur = 0.12 + 0.045 * len(token)
            words.append(Word(token, round(t, 3), round(t + dur, 3), confidence=float(rng.uniform(0.4, 1.0)),
                              speaker=speaker))
            t += dur + 0.08
        turns.append(Turn(speaker, first, len(words)))
        t += 0.5
    words[12].aligned = False  # one word with estimated times
    duration = t + 0.4
    audio = np.zeros(int(duration * rate), dtype=np.float32)
    for w in words:
        a, b = int(w.start * rate), int(w.end * rate)
        n = b - a
        tt = np.arange(n) / rate
        f0 = 120 if w.speaker == "customer" else 210
        voice = sum(np.sin(2 * np.pi * f0 * k * tt) / k for k in range(1, 6))
        env = np.hanning(n) * rng.uniform(0.3, 0.8)
        audio[a:b] += (voice * env * 0.4 + rng.normal(0, 0.02, n) * env).astype(np.float32)
    audio += rng.normal(0, 0.003, len(audio)).astype(np.float32)
    path = folder / f"{cid}.flac"
    sf.write(path, audio, rate)
    spans: list[Span] = []
    texts = [w.text for w in words]
    pos = 0
    for first, n, cat in PII:
        i = texts.index(first, pos)
        spans.append(Span(i, i + n, cat, SpanStatus.SUGGESTED, score=round(0.55 + 0.05 * len(spans), 2),
                          sources=("test",), reason=f"synthetic {cat.lower()}"))
        pos = i + n
    return Conversation(id=cid, audio_path=str(path), sample_rate=rate, channels=1, duration=duration,
                        language="en", status=ConversationStatus.DETECTED, words=words, turns=turns,
                        spans=spans, meta={"speakers": {"agent": {"role": "agent"}, "customer": {"role": "customer"}}})


def sample_conversations(limit: int = 2) -> list[Conversation]:
    """Bundled sample calls (their reference spans turned into suggestions), when present."""
    from redactdesk.resources import resources_dir

    folder = resources_dir() / "samples"
    out = []
    for p in sorted(folder.glob("*.json"))[: limit * 3]:
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if data.get("format") != "redactdesk-conversation" or not data.get("spans"):
            continue
        words = [Word.from_dict(w) for w in data["words"]]
        turns = [Turn.from_dict(t) for t in data.get("turns", [])]
        spans = []
        for d in data["spans"]:
            d = {**d, "status": "suggested", "id": None, "score": d.get("score", 0.8) or 0.8}
            spans.append(Span.from_dict(d))
        audio = (p.parent / data["audio"]) if data.get("audio") else None
        conv = Conversation(id=data["id"], audio_path=str(audio) if audio and audio.exists() else None,
                            sample_rate=data.get("sample_rate"), channels=data.get("channels"),
                            duration=data.get("duration"), language=data.get("language", "en"),
                            status=ConversationStatus.DETECTED, words=words,
                            turns=turns or Conversation("x", words=words).turns_from_speakers(),
                            spans=spans, meta=data.get("meta", {}))
        out.append(conv)
        if len(out) >= limit:
            break
    return out


@pytest.fixture
def synthetic_call():
    """:func:`synthetic_conversation` for test modules (conftest is not importable under importlib mode)."""
    return synthetic_conversation


@pytest.fixture(autouse=True)
def _reviewer_keys(tmp_path_factory, monkeypatch):
    """Sign-offs create reviewers' signing keys: keep them in a throw-away folder, never the user's."""
    monkeypatch.setenv("REDACTDESK_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


@pytest.fixture(autouse=True)
def _destroy_what_the_test_left(qapp):
    """Destroy the windows and dialogs a test left open or only closed, and collect the garbage now:
    at the end of the test, on the GUI thread, with no Qt event being dispatched. Left to themselves,
    closed windows and what hangs off them (pyqtgraph's menus, a few hundred widgets over the GUI
    tests) were freed by whichever allocation crossed the collector's threshold, often while pytest-qt
    dispatched a later test's events: the state in which Qt and PySide were seen to crash or hang
    elsewhere (and CI's run of stop 47 stopped without a word at such a boundary). ``close()`` only
    hides a window and ``processEvents()`` does not deliver ``deleteLater``: the deletions are sent
    explicitly. Only windows and dialogs are deleted by hand; menus and popups go with their owners."""
    import gc

    import shiboken6
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QDialog, QMainWindow

    def windows() -> dict[int, object]:
        return {shiboken6.getCppPointer(w)[0]: w for w in qapp.topLevelWidgets()
                if w.parent() is None and isinstance(w, QMainWindow | QDialog)}

    before = set(windows())
    yield
    for key, window in windows().items():
        if key in before or not shiboken6.isValid(window):
            continue
        jobs = getattr(getattr(window, "ctx", None), "jobs", None)
        if jobs is not None:  # a window left with work running: end it before its thread pool goes
            jobs.cancel_all()
            jobs.wait(30000)
        window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def project_path(tmp_path) -> Path:
    """A project file with the synthetic call (first) and up to one bundled sample call."""
    from redactdesk.store import Project

    path = tmp_path / "test.rdproj"
    convs = [synthetic_conversation(tmp_path)]
    try:
        convs += sample_conversations(1)
    except FileNotFoundError:
        pass
    with Project.create(path, actor="tester") as project:
        for conv in convs:
            project.add_conversation(conv)
    return path


@pytest.fixture
def settings(tmp_path):
    """Isolated user settings (an ini file in tmp_path)."""
    from PySide6.QtCore import QSettings

    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot, project_path, settings):
    """The main window on the test project, shown, on the synthetic call, transcript focused."""
    from redactdesk.gui.app import build_main_window
    from redactdesk.store import Project

    project = Project.open(project_path, actor="tester")
    win = build_main_window(project, role="annotator", settings=settings)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.choose_conversation("call_synth_001")
    win.activateWindow()
    win.transcript.setFocus()
    qtbot.waitUntil(lambda: win.transcript.hasFocus())
    yield win
    win.close()
    win.deleteLater()
    qtbot.wait(1)
    project.close()
