"""`rootlaw simulate --plot FILE.png`: the summary as a picture for people.

Left, each faction's win rate with its 95% Wilson interval as error bars; right, the
mean VP at each round's end, one line per faction (over all games: an ended game keeps
its final VP, so the lines end at the mean final VP), over the share of games still
playing.  Drawn with matplotlib's object API (no pyplot, no global state) and written
atomically.  matplotlib comes with ``rootlaw[plot]``.
"""

from __future__ import annotations

import io
from pathlib import Path

from rootlaw.generator.build import write_atomic


def figure(data: dict):
    """The figure for a ``simulate.summary`` (returned so tests can look inside)."""
    from matplotlib.figure import Figure

    factions = data["factions"]
    results = data["results"]
    fig = Figure(figsize=(11, 4.8), dpi=100, layout="constrained")
    wins_ax, vp_ax = fig.subplots(1, 2, width_ratios=[1, 1.6])
    colours = [f"C{i}" for i in range(len(factions))]

    rates = [results[f]["win_rate"] for f in factions]
    lows = [r - results[f]["win_rate_ci95"][0] for f, r in zip(factions, rates, strict=True)]
    highs = [results[f]["win_rate_ci95"][1] - r for f, r in zip(factions, rates, strict=True)]
    x = list(range(len(factions)))
    wins_ax.bar(x, rates, color=colours, label="win rate")
    wins_ax.errorbar(x, rates, yerr=[lows, highs], fmt="none", ecolor="black", capsize=6,
                     label="95% CI (Wilson)")
    for i, r in enumerate(rates):
        wins_ax.annotate(f"{100 * r:.1f}%", (i, r), textcoords="offset points",
                         xytext=(10, 4), fontsize=9)
    wins_ax.set_xticks(x, factions)
    wins_ax.set_ylim(0, 1)
    wins_ax.set_xlabel("faction")
    wins_ax.set_ylabel("win rate")
    wins_ax.set_title("Win rate (95% Wilson interval)")
    wins_ax.legend(loc="upper right")

    playing = data["playing_by_round"]
    rounds = list(range(1, len(playing) + 1))
    for f, colour in zip(factions, colours, strict=True):
        vp_ax.plot(rounds, results[f]["mean_vp_by_round"], marker="o", markersize=3,
                   color=colour, label=f)
    vp_ax.axhline(30, color="grey", linestyle="--", linewidth=1, label="30 VP (victory)")
    vp_ax.set_xlabel("round")
    vp_ax.set_ylabel("mean VP at the round's end")
    vp_ax.set_title("Mean VP by round (an ended game keeps its final VP)")
    vp_ax.set_ylim(0, 32)
    vp_ax.grid(True, alpha=0.3)
    # When the games end: the share still playing, on its own axis.
    share_ax = vp_ax.twinx()
    share_ax.fill_between(rounds, [n / data["games"] for n in playing], step="mid",
                          color="grey", alpha=0.15, label="games still playing")
    share_ax.set_ylim(0, 1.05)
    share_ax.set_ylabel("share of games still playing")
    handles, labels = vp_ax.get_legend_handles_labels()
    more, more_labels = share_ax.get_legend_handles_labels()
    vp_ax.legend(handles + more, labels + more_labels, loc="center right")

    stopped = data["outcomes"]["stopped"]
    fig.suptitle(f"rootlaw simulate: {' vs '.join(factions)}, {data['games']} games from "
                 f"seed {data['seed']}" + (f", {stopped} stopped" if stopped else ""))
    return fig


def plot_summary(data: dict, path: Path):
    """Draw the summary and write it as PNG atomically; returns the figure."""
    fig = figure(data)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    write_atomic(path, buf.getvalue())
    return fig
