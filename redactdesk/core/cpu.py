"""Which CPUs sum 8-bit products exactly: the knowledge, not the reading (callers pass the machine
name and the text of ``/proc/cpuinfo``; core does no I/O).

On x86 the 8-bit kernels of oneDNN (CTranslate2: Whisper) and of ONNX Runtime (the contextual
tagger) multiply unsigned activations by signed weights with instructions that add pairs of
products in saturating 16 bits, unless the CPU has VNNI (AVX512-VNNI, AVX-VNNI), which sums them in
32 bits. ARM's kernels widen every product. Unknown counts as inexact: the caller takes its slower,
exact way.
"""

from __future__ import annotations

EXACT_INT8_FLAGS = frozenset({"avx512_vnni", "avx_vnni", "avx512vnni", "avxvnni"})
ARM_MACHINES = frozenset({"arm64", "aarch64"})


def cpu_flags(cpuinfo: str) -> frozenset[str]:
    """The feature flags of a ``/proc/cpuinfo`` text."""
    return frozenset(f for line in cpuinfo.splitlines() if line.startswith("flags")
                     for f in line.split(":", 1)[-1].split())


def int8_products_exact(machine: str, cpuinfo: str | None) -> bool:
    """Does a CPU of ``machine`` (``platform.machine()``) with ``cpuinfo`` (None: unknown) sum 8-bit
    products without saturating? ARM: yes; x86: only with VNNI among its flags; anything unknown: no."""
    if machine.lower() in ARM_MACHINES:
        return True
    return cpuinfo is not None and bool(cpu_flags(cpuinfo) & EXACT_INT8_FLAGS)
