"""Whisper's compute type follows the CPU: 8-bit only where the CPU sums 8-bit products exactly."""

from __future__ import annotations

import pytest

from redactdesk.asr import compute

AMD_AVX2 = "processor\t: 0\nflags\t\t: fpu vme sse sse2 ssse3 sse4_1 sse4_2 avx avx2 fma bmi2\n"
INTEL_VNNI = "processor\t: 0\nflags\t\t: fpu sse4_2 avx avx2 avx512f avx512bw avx512_vnni\n"


def test_an_x86_cpu_without_vnni_reads_in_floats():
    assert not compute.int8_is_exact("x86_64", AMD_AVX2)


def test_a_cpu_with_vnni_or_an_arm_cpu_keeps_eight_bits():
    assert compute.int8_is_exact("x86_64", INTEL_VNNI)
    assert compute.int8_is_exact("aarch64", "")


def test_an_unknown_cpu_gets_the_exact_type(monkeypatch, tmp_path):
    monkeypatch.setattr(compute, "Path", lambda *_: tmp_path / "no-cpuinfo")
    assert not compute.int8_is_exact("x86_64")


@pytest.mark.parametrize("value, want", [("float32", "float32"), ("INT8", "int8"), ("int8_float32", "int8_float32")])
def test_the_environment_chooses_the_type_whatever_the_cpu(monkeypatch, value, want):
    monkeypatch.setenv(compute.ENV, value)
    compute.whisper_compute_type.cache_clear()
    try:
        assert compute.whisper_compute_type() == want
    finally:
        compute.whisper_compute_type.cache_clear()


def test_an_unknown_type_in_the_environment_falls_back_to_the_cpus(monkeypatch):
    monkeypatch.setenv(compute.ENV, "int4")
    monkeypatch.setattr(compute, "int8_is_exact", lambda: False)
    compute.whisper_compute_type.cache_clear()
    try:
        assert compute.whisper_compute_type() == "float32"
    finally:
        compute.whisper_compute_type.cache_clear()


def test_the_backend_loads_whisper_in_the_chosen_type(monkeypatch, tmp_path):
    from redactdesk.asr import faster_whisper_backend as fwb

    seen = {}

    class Recorder:
        def __init__(self, path, **kwargs):
            seen.update(kwargs)

    monkeypatch.setattr(fwb, "_model_class", lambda: Recorder)
    monkeypatch.setattr(fwb, "whisper_compute_type", lambda: "float32")
    monkeypatch.setattr(fwb, "_MODELS", {})
    fwb.load_whisper(tmp_path, threads=1)
    assert seen["compute_type"] == "float32"
