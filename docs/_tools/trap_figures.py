"""Draw the pictures of docs/traps.md: ``python docs/_tools/trap_figures.py``.

Each figure is computed by accord from the same tables as the page's examples, and
written as SVG into docs/assets/traps/ (no timestamp and a fixed id salt, so
rerunning it with the same matplotlib rewrites the same files).
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "assets" / "traps"


def _heatmaps(ax_row: Sequence, tables: Sequence[tuple[str, list[list[int]]]],
              labels: Sequence[str]) -> None:
    import accord

    for ax, (title, counts) in zip(ax_row, tables):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", accord.DegenerateDataWarning)
            res = accord.cohen_kappa(accord.ContingencyTable(counts))
        ax.imshow(counts, cmap="Blues", vmin=0)
        for i, row in enumerate(counts):
            for j, n in enumerate(row):
                dark = n > 0.6 * max(map(max, counts))
                ax.text(j, i, str(n), ha="center", va="center",
                        color="white" if dark else "black", fontsize=11)
        ax.set_xticks(range(len(labels)), labels)
        ax.set_yticks(range(len(labels)), labels)
        ax.set_xlabel("rater 2")
        ax.set_ylabel("rater 1")
        kappa = "0/0" if res.estimate != res.estimate else f"{res.estimate:.2f}"
        ax.set_title(f"{title}\np_o = {res.observed:.2f}, p_e = {res.expected:.2f}, "
                     f"kappa = {kappa}", fontsize=10)


def main(out: Path = OUT) -> list[Path]:
    """Draw every figure into ``out``; return the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import accord

    plt.rcParams.update({"svg.hashsalt": "accord-docs", "font.size": 9})
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(fig: object, name: str) -> None:
        fig.tight_layout()  # type: ignore[attr-defined]
        fig.savefig(out / f"{name}.svg", metadata={"Date": None})  # type: ignore[attr-defined]
        plt.close(fig)  # type: ignore[arg-type]
        written.append(out / f"{name}.svg")

    pairs = {
        "prevalence": [("balanced categories", [[40, 9], [6, 45]]),
                       ("one category dominates", [[80, 10], [5, 5]])],
        "bias": [("similar marginals", [[45, 15], [25, 15]]),
                 ("different marginals", [[25, 35], [5, 35]])],
    }
    for name, tables in pairs.items():
        fig, axes = plt.subplots(1, 2, figsize=(7, 3.4))
        _heatmaps(axes, tables, ["yes", "no"])
        save(fig, name)

    fig, ax = plt.subplots(figsize=(3.6, 3.4))
    _heatmaps([ax], [("one category throughout", [[20, 0], [0, 0]])], ["ok", "other"])
    save(fig, "undefined")

    a = [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 2, 3]
    fig, axes = plt.subplots(1, 2, figsize=(7, 3.2), sharey=True)
    for ax, (title, other) in zip(axes, [("within one point", [2, 3, 4, 5, 4, 1, 2, 3, 4, 5, 1, 2]),
                                         ("far apart", [5, 5, 1, 1, 1, 1, 2, 3, 4, 5, 5, 5])]):
        plain = accord.cohen_kappa(a, other).estimate
        weighted = accord.cohen_kappa(a, other, weights="quadratic",
                                      categories=[1, 2, 3, 4, 5]).estimate
        ax.plot([1, 5], [1, 5], color="0.8", zorder=0)
        ax.scatter(a, other, s=60, alpha=0.5)
        ax.set_xlabel("rater 1")
        ax.set_title(f"{title}\nkappa {plain:.2f}, quadratic-weighted {weighted:.2f}",
                     fontsize=10)
    axes[0].set_ylabel("rater 2")
    save(fig, "ordinal")

    gold = ["spam", "ham"] * 5
    ana = ["ham", "ham", "ham", "ham", "spam", "ham", "ham", "ham", "spam", "ham"]
    figures = {"kappa, ana vs ben": accord.cohen_kappa(ana, list(ana)).estimate,
               "accuracy vs reference": accord.accuracy(gold, ana).estimate,
               "spam recall vs reference": accord.evaluate(gold, ana, positive="spam")
               .per_class["spam"].recall.estimate}
    fig, ax = plt.subplots(figsize=(6, 2.4))
    ax.barh(list(figures), list(figures.values()), color=["#3b6fb6", "#b6553b", "#b6553b"])
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    for y, v in enumerate(figures.values()):
        ax.text(v + 0.01, y, f"{v:.2f}", va="center")
    ax.set_title("ana and ben agree perfectly, yet miss 3 of 5 spam messages",
                 fontsize=10)
    save(fig, "accuracy")

    res = accord.cohen_kappa(accord.ContingencyTable([[20, 5], [4, 21]]))
    ci = res.confidence_interval(0.95)
    fig, ax = plt.subplots(figsize=(7, 2.6))
    for y, name in enumerate(["landis_koch", "fleiss", "altman"]):
        scale = accord.SCALES[name]
        edges = [b.lower for b in scale.bands] + [1.0]
        for k, (low, label) in enumerate((b.lower, b.label) for b in scale.bands):
            high = edges[k + 1]
            lo = max(low, -0.2)
            ax.barh(y, high - lo, left=lo, color=f"C{k}", alpha=0.35, edgecolor="white")
            ax.text((lo + high) / 2, y, label, ha="center", va="center", fontsize=7)
    ax.axvspan(ci.low, ci.high, color="black", alpha=0.12)
    ax.axvline(res.estimate, color="black")
    ax.set_yticks(range(3), ["Landis & Koch", "Fleiss", "Altman"])
    ax.set_xlim(-0.2, 1)
    ax.invert_yaxis()
    ax.set_title(f"kappa {res.estimate:.2f} (line) and its 95% interval "
                 f"{ci.low:.2f}-{ci.high:.2f} (shaded) on three published scales",
                 fontsize=10)
    save(fig, "bands")
    return written


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    for path in main():
        print(f"wrote {path.relative_to(ROOT)}")
