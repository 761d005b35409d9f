"""Audio probing, reading and streaming through soundfile."""

from __future__ import annotations

import hashlib
import struct

import numpy as np
import pytest
import soundfile as sf

from redactdesk.formats import ImportFailed, iter_blocks, probe_audio, read_audio, sha256_file


@pytest.mark.parametrize("ext,kw", [("wav", {"subtype": "PCM_16"}), ("flac", {}), ("ogg", {"subtype": "VORBIS"})])
@pytest.mark.parametrize("rate", [8000, 16000, 44100, 48000])
@pytest.mark.parametrize("channels", [1, 2])
def test_probe_generated_files(make_audio, ext, kw, rate, channels):
    path = make_audio(f"a.{ext}", seconds=0.5, rate=rate, channels=channels, **kw)
    info = probe_audio(path)
    assert info.sample_rate == rate
    assert info.channels == channels
    assert info.frames == int(0.5 * rate)
    assert info.duration == pytest.approx(0.5, abs=1e-6)
    assert info.format == ext.upper()
    assert info.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def _mp3_writable(tmp_path) -> bool:
    try:
        sf.write(str(tmp_path / "probe.mp3"), np.zeros(1600, "float32"), 16000)
        return True
    except (sf.LibsndfileError, TypeError, ValueError):
        return False


@pytest.mark.parametrize("rate,channels", [(16000, 1), (44100, 2)])
def test_probe_mp3(make_audio, tmp_path, rate, channels):
    if not _mp3_writable(tmp_path):
        pytest.skip("this libsndfile build cannot encode MP3, so no MP3 can be generated to probe")
    path = make_audio("a.mp3", seconds=1.0, rate=rate, channels=channels)
    info = probe_audio(path)
    assert (info.format, info.sample_rate, info.channels) == ("MP3", rate, channels)
    assert info.duration == pytest.approx(1.0, abs=0.1)  # MP3 encoder padding


def test_truncated_wav_is_reported(make_audio):
    path = make_audio("t.wav", seconds=1.0, rate=16000, subtype="PCM_16")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImportFailed) as ei:
        probe_audio(path)
    msg = str(ei.value)
    assert "truncated" in msg and "16000 frames" in msg and "t.wav" in msg


def test_streaming_wav_with_unknown_size_is_accepted(make_audio):
    path = make_audio("s.wav", seconds=0.25, rate=8000, subtype="PCM_16")
    data = bytearray(path.read_bytes())
    pos = data.index(b"data")
    data[pos + 4 : pos + 8] = struct.pack("<I", 0xFFFFFFFF)
    path.write_bytes(bytes(data))
    assert probe_audio(path).frames == 2000


def test_truncated_flac_is_reported(make_audio):
    rng = np.random.default_rng(1)
    path = make_audio("t.flac", seconds=2.0)
    sf.write(str(path), (rng.standard_normal(32000) * 0.1).astype("float32"), 16000)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImportFailed, match="truncated|corrupt"):
        probe_audio(path)


def test_missing_empty_and_garbage_files(tmp_path):
    with pytest.raises(ImportFailed, match="no such file"):
        probe_audio(tmp_path / "nope.wav")
    (tmp_path / "empty.wav").write_bytes(b"")
    with pytest.raises(ImportFailed, match="empty"):
        probe_audio(tmp_path / "empty.wav")
    (tmp_path / "text.wav").write_bytes(b"this is not audio at all " * 20)
    with pytest.raises(ImportFailed, match="not a readable audio file"):
        probe_audio(tmp_path / "text.wav")


def test_unsupported_rate_channels_and_format(make_audio):
    with pytest.raises(ImportFailed) as ei:
        probe_audio(make_audio("hi.wav", seconds=0.1, rate=96000, channels=3))
    assert "96000 Hz" in str(ei.value) and "3 channels" in str(ei.value)
    assert len(ei.value.problems) == 2
    with pytest.raises(ImportFailed, match="AIFF is not supported"):
        probe_audio(make_audio("a.aiff", seconds=0.1))


def test_read_audio_slices_and_shapes(make_audio):
    path = make_audio("st.wav", seconds=1.0, rate=8000, channels=2, subtype="FLOAT")
    full, rate = read_audio(path)
    assert rate == 8000 and full.shape == (8000, 2) and full.dtype == np.float32
    part, _ = read_audio(path, start=0.25, end=0.5)
    assert part.shape == (2000, 2)
    np.testing.assert_array_equal(part, full[2000:4000])
    mono, _ = read_audio(make_audio("m.wav", seconds=0.5, rate=8000), always_2d=False)
    assert mono.ndim == 1 and len(mono) == 4000
    past, _ = read_audio(path, start=2.0)
    assert len(past) == 0


def test_iter_blocks_covers_the_file(make_audio):
    path = make_audio("b.flac", seconds=1.0, rate=16000)
    blocks = list(iter_blocks(path, 4096))
    assert all(b.dtype == np.float32 and b.ndim == 2 for b in blocks)
    assert sum(len(b) for b in blocks) == 16000
    assert [len(b) for b in blocks[:-1]] == [4096] * (len(blocks) - 1)


def test_sha256_streams(tmp_path):
    p = tmp_path / "x.bin"
    p.write_bytes(b"abc" * 1000)
    assert sha256_file(p) == hashlib.sha256(b"abc" * 1000).hexdigest()
