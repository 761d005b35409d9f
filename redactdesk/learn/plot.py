"""Learning-curve plot (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from redactdesk.learn.simulate import SimulationResult


def plot_curves(result: SimulationResult, path: str | Path) -> Path:
    """Mean F1 per strategy pair with a +-1 sd band, and the full-data / 95% / 99% levels."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5.5), dpi=110)
    full = result.full.f1
    many_seeds = len({c.seed_strategy for c in result.curves}) > 1
    for c in result.curves:
        label = c.name if many_seeds else c.strategy
        (line,) = ax.plot(c.n_labeled, c.f1, marker="o", markersize=3, linewidth=1.6, label=label)
        ax.fill_between(c.n_labeled, c.f1 - c.f1_sd, c.f1 + c.f1_sd, color=line.get_color(), alpha=0.18)
    ax.axhline(full, color="black", linewidth=1, label=f"full pool ({result.pool_size:,} utterances) F1 {full:.3f}")
    for lv, style in ((0.99, "--"), (0.95, ":")):
        ax.axhline(lv * full, color="grey", linestyle=style, linewidth=1, label=f"{int(lv * 100)}% of full-data F1")
    ax.axvline(0.15 * result.pool_size, color="tab:red", linewidth=0.8, alpha=0.5, label="15% of the pool")
    ax.set_xlabel("labelled utterances")
    ax.set_ylabel("token F1 (categories), test set")
    s = result.settings
    ax.set_title(f"Active learning: seed {s.get('seed_size')}, batch {s.get('batch')}, "
                 f"mean ± sd over {s.get('repeats')} runs")
    lo = min(float((c.f1 - c.f1_sd).min()) for c in result.curves)
    ax.set_ylim(max(0.0, min(lo, 0.9 * full) - 0.02), min(1.0, full + 0.03) + 0.005)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out
