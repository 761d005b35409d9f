"""The CTranslate2 compute type Whisper runs in on this CPU: 8-bit where the CPU multiplies 8-bit
numbers exactly, 32-bit floats where it does not.

CTranslate2's 8-bit products on an x86 CPU without VNNI (AVX2 only: many AMD EPYC and older Intel
machines) go through oneDNN's u8s8 kernels, which add pairs of products in 16 bits and saturate.
There Whisper base dropped whole stretches of a demo call — the address, the card number and its
expiry of ``call_en_1008`` — that it heard in 32-bit floats (WER 0.475 in int8 against 0.414 in
float32, 10.0 s against 15.4 s for 76 s of stereo audio). What was not transcribed was neither
suggested nor reviewed. So such CPUs read in float32; CPUs with VNNI (AVX512-VNNI, AVX-VNNI) and
ARM ones (ruy's kernels sum in 32 bits) keep the faster int8. ``REDACTDESK_WHISPER_COMPUTE`` sets
the type (``int8``, ``int8_float32``, ``float32``) whatever the CPU.
"""

from __future__ import annotations

import functools
import os
import platform
from pathlib import Path

from redactdesk.core.cpu import int8_products_exact

ENV = "REDACTDESK_WHISPER_COMPUTE"
TYPES = ("int8", "int8_float32", "float32")


def int8_is_exact(machine: str | None = None, cpuinfo: str | None = None) -> bool:
    """Does this CPU sum 8-bit products without saturating? ARM: yes; x86: only with VNNI in the
    flags of ``/proc/cpuinfo``; unknown (no such file, another system): no — the slower, exact type
    (:func:`redactdesk.core.cpu.int8_products_exact`)."""
    machine = machine or platform.machine()
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            cpuinfo = None
    return int8_products_exact(machine, cpuinfo)


@functools.lru_cache(maxsize=1)
def whisper_compute_type() -> str:
    """``REDACTDESK_WHISPER_COMPUTE`` when set to one of :data:`TYPES`, else int8 where
    :func:`int8_is_exact`, float32 elsewhere."""
    chosen = os.environ.get(ENV, "").strip().lower()
    if chosen in TYPES:
        return chosen
    return "int8" if int8_is_exact() else "float32"
