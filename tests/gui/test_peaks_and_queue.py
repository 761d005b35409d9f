"""Qt-free parts of the app: the peak pyramid, audio reading in parts, the review queue, roles, panel registry."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf

from redactdesk.core.types import Span, SpanStatus
from redactdesk.gui import roles
from redactdesk.gui.audiosource import AudioSource, load_pyramid
from redactdesk.gui.peaks import PeakPyramid
from redactdesk.gui.review_queue import ReviewQueue


def test_pyramid_levels_hold_true_extremes():
    rng = np.random.default_rng(0)
    x = rng.normal(0, 0.2, (100_003, 2)).astype(np.float32)
    pyr = PeakPyramid.from_array(x, 16000, base=64, factor=4)
    assert pyr.frames == 100_003 and pyr.channels == 2
    for level in range(len(pyr.mins)):
        size = pyr.bin_size(level)
        n = pyr.mins[level].shape[1]
        assert n == -(-100_003 // size)
        for b in (0, n // 2, n - 1):
            chunk = x[b * size:(b + 1) * size]
            assert np.allclose(pyr.mins[level][:, b], chunk.min(axis=0))
            assert np.allclose(pyr.maxs[level][:, b], chunk.max(axis=0))
    assert pyr.mins[-1].shape[1] <= 256


def test_window_chooses_level_by_zoom_and_covers_the_range():
    x = np.sin(np.linspace(0, 2000, 16000 * 60)).astype(np.float32)[:, None]
    pyr = PeakPyramid.from_array(x, 16000)
    whole = pyr.window(0, 60, 1000)
    assert whole.kind == "peaks" and whole.y.shape[1] <= 2 * 2000
    assert whole.x[0] < 0.2 and whole.x[-1] > 59.8
    assert whole.y.max() == pytest.approx(1.0, abs=1e-3)
    calls = []

    def read(a, b):
        calls.append((a, b))
        return x[a:b]

    close = pyr.window(10.0, 10.05, 1000, read)  # 800 samples on 1000 px: raw samples
    assert close.kind == "samples" and calls
    assert close.x[0] <= 10.0 and close.x[-1] >= 10.05
    assert np.allclose(close.y[0], x[calls[0][0]:calls[0][1], 0])
    assert pyr.level_for(64) == 0 and pyr.level_for(63) is None and pyr.level_for(1e9) == len(pyr.mins) - 1


def test_pyramid_cache_round_trip_and_int16_reading_in_parts(tmp_path):
    rng = np.random.default_rng(1)
    x = (rng.normal(0, 0.1, (16000 * 5 + 7, 2))).clip(-1, 1).astype(np.float32)
    path = tmp_path / "a.wav"
    sf.write(path, x, 16000, subtype="PCM_16")
    src = AudioSource.open(path)
    one = src.build_pyramid(workers=1)
    two = src.build_pyramid(workers=2)
    for a, b in zip(one.mins + one.maxs, two.mins + two.maxs, strict=True):
        assert np.array_equal(a, b)
    stored = sf.read(path, dtype="float32", always_2d=True)[0]
    assert np.allclose(one.maxs[0][:, 0], stored[:64].max(axis=0), atol=1e-4)
    cache = tmp_path / "cache"
    first = load_pyramid(src, cache, sha256="abc")
    assert (cache / "abc.npz").exists()
    again = load_pyramid(src, cache, sha256="abc")
    assert again.frames == first.frames and np.array_equal(again.maxs[2], first.maxs[2])


def test_missing_audio_says_so(tmp_path):
    from redactdesk.gui.audiosource import AudioUnavailable

    with pytest.raises(AudioUnavailable, match="not found"):
        AudioSource.open(tmp_path / "gone.flac")


def _spans():
    out = []
    for i, (start, status) in enumerate([(2, "suggested"), (5, "accepted"), (8, "suggested"), (12, "suggested"),
                                         (20, "rejected"), (25, "suggested")]):
        out.append(Span(start, start + 1, "PERSON", SpanStatus(status), id=i + 1))
    return out


def test_queue_visits_open_suggestions_in_order_and_skipped_last():
    spans = _spans()
    q = ReviewQueue()
    by_id = {s.id: s for s in spans}
    assert q.next(spans, None).id == 1
    assert q.next(spans, by_id[1]).id == 3
    assert q.next(spans, by_id[2]).id == 3  # from a decided span: the next open one after it
    assert q.previous(spans, by_id[4]).id == 3
    q.skip(3)
    assert [s.id for s in q.order(spans)] == [1, 4, 6, 3]
    assert q.next(spans, by_id[6]).id == 3
    assert q.next(spans, by_id[3]).id == 1  # wraps to the start after the skipped ones
    by_id[3].status = SpanStatus.ACCEPTED
    assert 3 not in [s.id for s in q.order(spans)] and q.skipped == []
    for s in spans:
        s.status = SpanStatus.ACCEPTED
    assert q.next(spans, by_id[1]) is None and q.remaining(spans) == 0


def test_roles_decide_capabilities():
    assert roles.can("reviewer", "sign_off") and not roles.can("annotator", "sign_off")
    assert roles.can("linguist", "edit_pseudonyms") and not roles.can("annotator", "edit_pseudonyms")
    with pytest.raises(ValueError, match="choose one of"):
        roles.as_role("boss")


def test_panel_registry_filters_by_role():
    from redactdesk.gui import panels

    try:
        panels.register_panel("test_only", "Test", lambda ctx: None, roles=("reviewer",), area="bottom")
        assert "test_only" in [s.id for s in panels.panels_for_role("reviewer")]
        assert "test_only" not in [s.id for s in panels.panels_for_role("annotator")]
        with pytest.raises(ValueError, match="area"):
            panels.register_panel("bad", "Bad", lambda ctx: None, area="middle")
    finally:
        panels.unregister_panel("test_only")
    panels.discover()
    assert {"spans", "history"} <= {s.id for s in panels.registered_panels()}
