"""mask_file: format kept, sample-exact length, changes only inside ranges (plus fades), streaming, safety."""

import numpy as np
import pytest
import soundfile as sf

from redactdesk.audio import MaskCancelled, MaskError, MaskRange, mask_file, preview, preview_ab
from redactdesk.audio.engine import DEFAULT_FADE

RATE = 16000
FADE = int(round(DEFAULT_FADE * RATE))
RANGES = [MaskRange(0.30, 0.55, None, (1,), "PERSON"), MaskRange(1.2, 1.71, None, (2,), "PHONE")]


def ints(path):
    """Samples as stored: int32 for PCM (exact), float64 for float files."""
    dtype = "float64" if sf.info(str(path)).subtype in ("FLOAT", "DOUBLE") else "int32"
    return sf.read(str(path), dtype=dtype, always_2d=True)[0]


def outside_mask(frames, ranges, channels, fade=FADE):
    """Boolean (frames, channels): True where a sample must be untouched."""
    keep = np.ones((frames, channels), dtype=bool)
    for r in ranges:
        a, b = int(np.floor(r.start * RATE)), int(np.ceil(r.end * RATE))
        cols = list(range(channels)) if r.channel is None else [r.channel]
        keep[max(0, a - fade):b + fade, cols] = False
    return keep


LAYOUTS = [("in.wav", "WAV", "PCM_16"), ("in.wav", "WAV", "PCM_24"), ("in.flac", "FLAC", "PCM_16"),
           ("in.flac", "FLAC", "PCM_24"), ("in.wav", "WAV", "FLOAT")]


@pytest.mark.parametrize("name,fmt,subtype", LAYOUTS)
@pytest.mark.parametrize("channels", [1, 2])
@pytest.mark.parametrize("method", ["silence", "beep", "noise"])
def test_format_length_and_untouched_samples(make_audio, tmp_path, name, fmt, subtype, channels, method):
    src = make_audio(name, fmt, subtype, channels)
    dst = tmp_path / ("out" + src.suffix)
    report = mask_file(src, dst, RANGES, method)
    a, b = sf.info(str(src)), sf.info(str(dst))
    assert (b.samplerate, b.channels, b.format, b.subtype, b.frames) == \
        (a.samplerate, a.channels, a.format, a.subtype, a.frames)
    assert report.frames == a.frames and report.subtype == subtype and len(report.ranges) == 2
    x, y = ints(src), ints(dst)
    keep = outside_mask(len(x), RANGES, channels)
    assert np.array_equal(x[keep], y[keep])
    inside = slice(int(0.35 * RATE), int(0.5 * RATE))
    if method == "silence":
        assert not np.any(y[inside])
    else:
        assert np.any(y[inside]) and not np.array_equal(x[inside], y[inside])


def test_stereo_speaker_channel_only(make_audio, tmp_path):
    src = make_audio("st.wav", channels=2)
    ranges = [MaskRange(0.5, 1.0, 1, (1,), "PERSON")]
    mask_file(src, tmp_path / "o.wav", ranges, "silence")
    x, y = ints(src), ints(tmp_path / "o.wav")
    assert np.array_equal(x[:, 0], y[:, 0])
    assert not np.any(y[int(0.5 * RATE):int(1.0 * RATE), 1])
    assert np.array_equal(x[outside_mask(len(x), ranges, 2)], y[outside_mask(len(y), ranges, 2)])


@pytest.mark.parametrize("method", ["beep", "noise"])
def test_streaming_block_size_does_not_change_output(make_audio, tmp_path, method):
    src = make_audio(seconds=2.0)
    mask_file(src, tmp_path / "big.wav", RANGES, method, blocksize=1 << 16)
    mask_file(src, tmp_path / "small.wav", RANGES, method, blocksize=997)  # ranges straddle blocks
    assert np.array_equal(ints(tmp_path / "big.wav"), ints(tmp_path / "small.wav"))


def test_levels_and_edges(make_audio, tmp_path):
    src = make_audio(seconds=3.0)
    ranges = [MaskRange(0.5, 2.5, None, (1,), "X")]
    x = sf.read(str(src), always_2d=True)[0][:, 0]
    span_rms = np.sqrt(np.mean(x[8000:40000] ** 2))
    mask_file(src, tmp_path / "n.wav", ranges, "noise", {"color": "white"})
    n = sf.read(str(tmp_path / "n.wav"), always_2d=True)[0][:, 0]
    assert np.sqrt(np.mean(n[9000:39000] ** 2)) == pytest.approx(span_rms, rel=0.1)
    mask_file(src, tmp_path / "b.wav", ranges, "beep")
    b = sf.read(str(tmp_path / "b.wav"), always_2d=True)[0][:, 0]
    assert np.sqrt(np.mean(b[9000:39000] ** 2)) == pytest.approx(span_rms, rel=0.1)
    assert abs(b[8000]) < 0.05 * np.max(np.abs(b[8000:40000]))  # raised-cosine onset, no click


def test_preview_matches_the_written_file(make_audio, tmp_path):
    src = make_audio(channels=2)
    mask_file(src, tmp_path / "o.wav", RANGES, "noise", {"seed": 3})
    written = sf.read(str(tmp_path / "o.wav"), always_2d=True)[0]
    part = preview(src, RANGES, "noise", 1.0, 1.9, {"seed": 3})
    assert part.shape == (int(0.9 * RATE), 2) and part.dtype == np.float32
    assert np.allclose(part, written[RATE:RATE + len(part)], atol=2 / 32768)
    original, masked, rate = preview_ab(src, RANGES, "silence", 0.0, 1.0)
    assert rate == RATE and original.shape == masked.shape and not np.any(masked[int(0.31 * RATE):int(0.54 * RATE)])


def test_refuses_to_overwrite_the_original_and_unknown_things(make_audio, tmp_path):
    src = make_audio()
    with pytest.raises(MaskError, match="overwrite the original"):
        mask_file(src, src, RANGES, "silence")
    with pytest.raises(MaskError, match="unknown masking method"):
        mask_file(src, tmp_path / "o.wav", RANGES, "whisper")
    with pytest.raises(MaskError, match="no parameter"):
        mask_file(src, tmp_path / "o.wav", RANGES, "beep", {"volume": 3})
    with pytest.raises(MaskError, match="frequency"):
        mask_file(src, tmp_path / "o.wav", RANGES, "beep", {"frequency": "loud"})
    with pytest.raises(MaskError, match="no such audio"):
        mask_file(tmp_path / "missing.wav", tmp_path / "o.wav", RANGES, "silence")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.wav"]


def test_lossy_input_is_refused(tmp_path):
    src = tmp_path / "in.ogg"
    sf.write(str(src), np.zeros((RATE, 1)), RATE, format="OGG", subtype="VORBIS")
    with pytest.raises(MaskError, match="convert it to WAV or FLAC"):
        mask_file(src, tmp_path / "o.ogg", RANGES, "silence")


def test_cancel_leaves_nothing_and_progress_reaches_one(make_audio, tmp_path):
    src = make_audio(seconds=2.0)
    with pytest.raises(MaskCancelled):
        mask_file(src, tmp_path / "o.wav", RANGES, "silence", blocksize=4000, cancel=lambda: True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.wav"]
    seen = []
    mask_file(src, tmp_path / "o.wav", RANGES, "silence", progress=seen.append, blocksize=4000)
    assert seen[-1] == pytest.approx(1.0) and seen == sorted(seen)
