"""`rootlaw simulate --plot FILE.png`: the summary as a picture for people.

Left, each faction's win rate with its 95% Wilson interval as error bars; right, the
mean VP at each round's end, one line per faction (over all games: an ended game keeps
its final VP, so the lines end at the mean final VP), over the share of games still
playing.  Each faction is drawn in its own ``color`` (the one ``rootlaw render`` uses).

Random games have a long, legal tail (a frozen table where one faction alone can still
score: thousands of rounds), so the VP panel shows the rounds up to the one by which
``SHOWN_ENDED`` of the games had ended, and says on the plot how many games ran longer
and how long the longest was.  Drawn with matplotlib's object API (no pyplot, no
global state) and written atomically.  matplotlib comes with ``rootlaw[plot]``.
"""

from __future__ import annotations

import io
from pathlib import Path

from rootlaw.generator.build import write_atomic

SHOWN_ENDED = 0.95  # the VP panel runs to the round by which this share of games ended
HEADROOM = 1.12  # the win-rate axis runs past 100% so a label over 100% stays inside


def faction_colours(bundle, factions: list[str]) -> dict[str, str]:
    """Each faction's colour as ``rootlaw render`` draws it (its ``color``, or one
    derived from its id)."""
    from .render import faction_colour

    specs = {f.id: f for f in bundle.factions}
    return {f: faction_colour(specs[f]) for f in factions}


def shown_rounds(playing: list[int], games: int) -> int:
    """The last round the VP panel shows: the first round after which at most
    1 - SHOWN_ENDED of the games were still playing (``playing[r]``: the games that
    were in round r+1)."""
    for r, n in enumerate(playing):
        if n <= (1 - SHOWN_ENDED) * games:
            return max(1, r)
    return len(playing)


def tail_note(playing: list[int], games: int, last: int) -> str:
    """What the VP panel leaves out past round ``last``, in words ('' when nothing)."""
    longer = playing[last] if last < len(playing) else 0
    if not longer:
        return ""
    return (f"{longer} of {games} games ({100 * longer / games:.1f}%) ran past round {last},\n"
            f"the longest to round {len(playing)} (not shown)")


def figure(data: dict, colours: dict[str, str] | None = None):
    """The figure for a ``simulate.summary`` (returned so tests can look inside).
    ``colours``: faction id -> colour (``faction_colours``); without it, matplotlib's
    default cycle."""
    from matplotlib.figure import Figure

    factions = data["factions"]
    results = data["results"]
    fig = Figure(figsize=(11, 5.2), dpi=100, layout="constrained")
    wins_ax, vp_ax = fig.subplots(1, 2, width_ratios=[1, 1.6])
    palette = [f"C{i}" for i in range(len(factions))]
    colours_ = [(colours or {}).get(f, palette[i]) for i, f in enumerate(factions)]

    rates = [results[f]["win_rate"] for f in factions]
    lows = [r - results[f]["win_rate_ci95"][0] for f, r in zip(factions, rates, strict=True)]
    highs = [results[f]["win_rate_ci95"][1] - r for f, r in zip(factions, rates, strict=True)]
    x = list(range(len(factions)))
    wins_ax.bar(x, rates, color=colours_, edgecolor="#2b2620", linewidth=0.8,
                label="win rate")
    wins_ax.errorbar(x, rates, yerr=[lows, highs], fmt="none", ecolor="black", capsize=6,
                     label="95% CI (Wilson)")
    for i, (r, top) in enumerate(zip(rates, highs, strict=True)):
        # Centred above the interval's upper cap: the axes leave room above 100%.
        wins_ax.annotate(f"{100 * r:.1f}%", (i, r + top), textcoords="offset points",
                         xytext=(0, 5), ha="center", va="bottom", fontsize=9, gid="rate")
    wins_ax.set_xticks(x, factions)
    wins_ax.set_ylim(0, HEADROOM)
    wins_ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    wins_ax.set_xlabel("faction")
    wins_ax.set_ylabel("win rate")
    wins_ax.set_title("Win rate (95% Wilson interval)")
    # Under the axes, where no bar or label can run into it.
    legend = wins_ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=2,
                            frameon=False)
    legend.legend_handles[0].set_facecolor("#bbbbbb")  # every bar has its own colour

    playing = data["playing_by_round"]
    games = data["games"]
    last = shown_rounds(playing, games)
    rounds = list(range(1, last + 1))
    for f, colour in zip(factions, colours_, strict=True):
        vp_ax.plot(rounds, results[f]["mean_vp_by_round"][:last], marker="o", markersize=3,
                   color=colour, label=f)
    vp_ax.axhline(30, color="grey", linestyle="--", linewidth=1, label="30 VP (victory)")
    vp_ax.set_xlabel("round")
    vp_ax.set_ylabel("mean VP at the round's end")
    vp_ax.set_title("Mean VP by round (an ended game keeps its final VP)")
    vp_ax.set_xlim(0.5, last + 0.5)
    vp_ax.set_ylim(0, 32)
    vp_ax.grid(True, alpha=0.3)
    # When the games end: the share still playing, on its own axis.
    share_ax = vp_ax.twinx()
    share_ax.fill_between(rounds, [n / games for n in playing[:last]], step="mid",
                          color="grey", alpha=0.15, label="games still playing")
    share_ax.set_ylim(0, 1.05)
    share_ax.set_ylabel("share of games still playing")
    handles, labels = vp_ax.get_legend_handles_labels()
    more, more_labels = share_ax.get_legend_handles_labels()
    vp_ax.legend(handles + more, labels + more_labels, loc="upper center",
                 bbox_to_anchor=(0.5, -0.14), ncols=3,
                 frameon=False)
    note = tail_note(playing, games, last)
    if note:
        # On the twin (the top axes), so the shaded share never covers it.
        share_ax.text(0.98, 0.03, note, transform=share_ax.transAxes, ha="right",
                      va="bottom", fontsize=8.5, gid="tail",
                      bbox={"boxstyle": "round", "facecolor": "white", "alpha": 0.85,
                            "edgecolor": "#bbbbbb"})

    stopped = data["outcomes"]["stopped"]
    fig.suptitle(f"rootlaw simulate: {' vs '.join(factions)}, {games} games from "
                 f"seed {data['seed']}" + (f", {stopped} stopped" if stopped else ""))
    return fig


def plot_summary(data: dict, path: Path, colours: dict[str, str] | None = None):
    """Draw the summary and write it as PNG atomically; returns the figure."""
    fig = figure(data, colours)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    write_atomic(path, buf.getvalue())
    return fig
