"""Learning-curve plot (matplotlib, no display needed): one panel per seed strategy."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from redactdesk.learn.simulate import SimulationResult


def plot_curves(result: SimulationResult, path: str | Path) -> Path:
    """Mean F1 per query strategy with a +-1 sd band, and the full-data / 95% / 99% levels."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    seeds = list(dict.fromkeys(c.seed_strategy for c in result.curves))
    fig, axes = plt.subplots(1, len(seeds), figsize=(6.2 * len(seeds) + 1, 5.6), dpi=110, sharey=True,
                             squeeze=False)
    full = result.full.f1
    strategies = list(dict.fromkeys(c.strategy for c in result.curves))
    colours = {s: f"C{i % 10}" for i, s in enumerate(strategies)}
    lo = min(float((c.f1 - c.f1_sd).min()) for c in result.curves)
    s = result.settings
    for ax, seed in zip(axes[0], seeds, strict=True):
        for c in (c for c in result.curves if c.seed_strategy == seed):
            style = {"linewidth": 2.4, "zorder": 3} if c.strategy == "random" else {"linewidth": 1.5}
            ax.plot(c.n_labeled, c.f1, marker="o", markersize=2.5, color=colours[c.strategy], label=c.strategy,
                    **style)
            ax.fill_between(c.n_labeled, c.f1 - c.f1_sd, c.f1 + c.f1_sd, color=colours[c.strategy], alpha=0.15)
        ax.axhline(full, color="black", linewidth=1, label=f"full pool ({result.pool_size:,}) F1 {full:.3f}")
        for lv, style in ((0.99, "--"), (0.95, ":")):
            ax.axhline(lv * full, color="grey", linestyle=style, linewidth=1, label=f"{int(lv * 100)}% of full-data F1")
        ax.axvline(0.15 * result.pool_size, color="tab:red", linewidth=0.8, alpha=0.5, label="15% of the pool")
        ax.set_title(f"seed: {seed} ({s.get('seed_size')} utterances)")
        ax.set_xlabel("labelled utterances")
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right", fontsize=8)
    axes[0][0].set_ylabel("token F1 over categories (test set)")
    axes[0][0].set_ylim(max(0.0, min(lo, 0.9 * full) - 0.02), min(1.0, full + 0.03) + 0.005)
    fig.suptitle(f"Active learning on {result.pool_size:,} utterances: batch {s.get('batch')}, "
                 f"{s.get('mode')} entropy, mean ± sd over {s.get('repeats')} runs")
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out
