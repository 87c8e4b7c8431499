"""The `rootlaw` command line: play, info, validate, schema, build, bench, replay, render."""

from __future__ import annotations

import argparse
import json
import platform
import sys
import warnings
from importlib import metadata
from pathlib import Path

from rootlaw.spec import SpecError, resolve

from .errors import FileError, RootlawError
from .stall import STALL_ROUNDS


def _version() -> str:
    try:
        return metadata.version("rootlaw")
    except metadata.PackageNotFoundError:
        return "0+source"


def _bundle(args):
    return resolve(getattr(args, "pack", None) or [], map_id=getattr(args, "map", None),
                   deck_id=getattr(args, "deck", None))


def _content(args) -> dict:
    """For a recorded game (a save or a log): where to look for its packs first, and the
    map and deck expected (runtime/content.py)."""
    return {"packs": getattr(args, "pack", None) or [], "map_id": getattr(args, "map", None),
            "deck_id": getattr(args, "deck", None)}


def _factions(args) -> list[str]:
    """The --factions list (empty: let the command choose)."""
    return [f.strip() for f in args.factions.split(",") if f.strip()]


# ---------------------------------------------------------------------- play


class _Stats:
    """What a balance check wants from many games: wins, VP, length, seat effects."""

    def __init__(self, factions: list[str]):
        self.factions = factions
        self.games = 0
        self.wins = dict.fromkeys(factions, 0)
        self.no_winner = 0
        self.vp = dict.fromkeys(factions, 0)
        self.turns = 0
        self.decisions = 0
        self.first_player_wins = 0

    def add(self, g) -> None:
        self.games += 1
        w = g.winner_faction
        if w is None:
            self.no_winner += 1
        else:
            self.wins[w] += 1
            if g.winner == g.state[g.S["FIRST"]]:
                self.first_player_wins += 1
        for f, v in zip(g.factions, g.scores, strict=True):
            self.vp[f] += v
        self.turns += g.turn
        self.decisions += len(g.history)

    def summary(self) -> dict:
        n = max(self.games, 1)
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": {f: round(w / n, 4) for f, w in self.wins.items()},
            "no_winner": self.no_winner,
            "first_player_win_rate": round(self.first_player_wins / n, 4),
            "mean_vp": {f: round(v / n, 2) for f, v in self.vp.items()},
            "mean_turns": round(self.turns / n, 2),
            "mean_decisions": round(self.decisions / n, 2),
        }


def save_path(save: str, seed: int, games: int) -> Path:
    """Where a game of a run is saved: the --save path for one game; for several, each
    game under its own name, the seed before the suffix (game.json -> game-7.json)."""
    p = Path(save)
    return p if games == 1 else p.with_name(f"{p.stem}-{seed}{p.suffix}")


def _check_output_folder(option: str, path: str | None) -> None:
    # Fail before the games are played, not after (a thousand games lost to a typo).
    if path and not Path(path).parent.is_dir():
        raise FileError(f"{option}: no folder {str(Path(path).parent)!r} to write into",
                        path=path, errno=2)


def _warn_reach(bundle, factions: list[str]) -> None:
    """Law 5.2: a table below the viable reach sum is warned about, never refused."""
    from .reach import reach_warning

    note = reach_warning(bundle, factions)
    if note:
        print(f"rootlaw: warning: {note}", file=sys.stderr)


def cmd_play(args) -> int:
    from .log import play_game

    bundle = _bundle(args)
    factions = _factions(args) or [f.id for f in bundle.factions]
    _warn_reach(bundle, factions)
    games = args.games
    if args.log and games > 1:
        raise RootlawError("--log takes one game; use --games 1", code="VALUE-INVALID")
    _check_output_folder("--log", args.log)
    _check_output_folder("--save", args.save)
    progress = None
    if (args.quiet or args.json) and games > 1 and args.progress:
        from tqdm import tqdm
        progress = tqdm(total=games, unit="game", file=sys.stderr)
    specs = _agent_specs(args, len(factions))
    stats = _Stats(factions)
    interrupted = False
    try:
        for i in range(games):
            seed = args.seed + i
            out = None if args.quiet or args.json else sys.stdout
            g = play_game(bundle, factions, seed, out=out, log_path=args.log, pure=args.pure,
                          max_decisions=args.max_decisions,
                          view=_view_seat(args.view, None, factions=factions),
                          agents=None if specs is None else table_agents(specs, seed))
            if i == 0 and games >= 50 and not g.compiled and not args.pure:
                print("rootlaw: this bundle runs on the pure-Python core; `rootlaw build` "
                      "with the same --pack/--map options compiles it (tens of times faster)",
                      file=sys.stderr)
            stats.add(g)
            _report_game(args, g, i, seed, progress)
            if args.save:
                g.save(save_path(args.save, seed, games))
    except KeyboardInterrupt:
        # Ctrl-C: the games finished so far still make a summary (exit 130, as shells do).
        interrupted = True
    if progress is not None:
        progress.close()
    if args.json:
        seeds = [args.seed, args.seed + stats.games - 1] if stats.games else []
        summary = {"bundle": bundle.hash, "factions": factions, "seeds": seeds,
                   **({"agents": [str(a) for a in specs]} if specs else {}),
                   **stats.summary()}
        if interrupted:
            summary["interrupted"] = True
        print(json.dumps(summary, indent=2))
    elif games > 1 or interrupted:
        tally = sorted((f, n) for f, n in stats.wins.items() if n)
        if stats.no_winner:
            tally.insert(0, ("none", stats.no_winner))
        print("wins: " + ", ".join(f"{f}={n}" for f, n in tally) +
              (f" (interrupted after {stats.games} games)" if interrupted else ""))
    return 130 if interrupted else 0


def _agent_specs(args, seats: int):
    """--agents as one spec per seat, or None for random agents alone (the games
    ``rootlaw play`` has always played: one random agent seeded with the game seed)."""
    from .agents import all_random, parse_agents

    if not getattr(args, "agents", None):
        return None
    specs = parse_agents(args.agents, seats)
    return None if all_random(specs) else specs


def table_agents(specs, seed: int) -> list:
    from .agents import table_agents as make

    return make(specs, seed)


def _report_game(args, g, i: int, seed: int, progress) -> None:
    w = g.winner_faction
    scores = " ".join(f"{f}={v}" for f, v in zip(g.factions, g.scores, strict=True))
    line = (f"winner: {w or 'none'} seed={seed} turns={g.turn} "
            f"decisions={len(g.history)} vp: {scores}")
    if w is None:
        line += f" (stopped after {args.max_decisions} decisions)"
    if args.json:
        if progress is not None:
            progress.update(1)
    elif args.quiet:
        if progress is not None:
            progress.write(f"game {i + 1}: {line}")
            progress.update(1)
        else:
            print(f"game {i + 1}: {line}")
    else:
        print(line)


# ---------------------------------------------------------------------- simulate


def cmd_simulate(args) -> int:
    from . import simulate as sim_mod

    bundle = _bundle(args)
    factions = _factions(args) or [f.id for f in bundle.factions]
    _warn_reach(bundle, factions)
    if args.plot:
        sim_mod.check_plot(Path(args.plot))  # fail before the games, not after them
    show = sys.stderr.isatty() if args.progress is None else args.progress

    def on_start(sim):
        for note in sim.notes:
            print(f"rootlaw: {note}", file=sys.stderr)
        if not args.json:
            print(sim_mod.cli_header(sim), flush=True)
        if not show:
            return None
        from tqdm import tqdm
        return tqdm(total=sim.games_requested, unit=" games", file=sys.stderr,
                    dynamic_ncols=True)

    if args.match or args.round_robin:
        return _cmd_strength(args, bundle, factions)
    specs = _agent_specs(args, len(factions))
    sim = sim_mod.simulate(bundle, factions, games=args.games, seed=args.seed, jobs=args.jobs,
                           ray=args.ray, max_decisions=args.max_decisions, pure=args.pure,
                           on_start=on_start,
                           agents=None if specs is None else [str(a) for a in specs])
    data = sim_mod.summary(sim)
    if sim.interrupted:
        print(f"rootlaw: interrupted: {sim.games} of {sim.games_requested} games finished "
              f"(seeds {sim_mod.seed_ranges(sim.played())}); the results below are theirs",
              file=sys.stderr)
    rate = sim.games / sim.seconds if sim.seconds > 0 else 0.0
    ray = "" if sim.ray_start_seconds is None else \
        f", of which {sim.ray_start_seconds:.2f} s to start or reach Ray"
    timing = (f"{sim.games} games in {sim.seconds:.2f} s ({rate:.0f} games/s{ray}); "
              f"{sim_mod.worker_report(sim)}")
    if args.json:  # the JSON holds results only, the same on every backend
        print(json.dumps(data, indent=2))
        print(f"rootlaw: {timing}", file=sys.stderr)
    else:
        print(sim_mod.format_text(data))
        print(f"\n{timing}")
    if args.plot and sim.games:
        from .simulate_plot import faction_colours, plot_summary
        plot_summary(data, Path(args.plot), faction_colours(bundle, sim.factions))
        print(f"wrote {args.plot}", file=sys.stderr)
    return 130 if sim.interrupted else 0


def _cmd_strength(args, bundle, factions: list[str]) -> int:
    """simulate --match A,B / --round-robin: tables of agents, each a simulate run."""
    from . import match as m

    if args.match and args.round_robin:
        raise RootlawError("--match and --round-robin are two modes: one at a time",
                           code="VALUE-INVALID")
    if args.plot:
        raise RootlawError("--plot draws one simulate run, not a match", code="VALUE-INVALID")

    def on_table(what: str) -> None:
        print(f"rootlaw: {what}", file=sys.stderr, flush=True)

    common = {"games": args.games, "seed": args.seed, "jobs": args.jobs, "ray": args.ray,
              "max_decisions": args.max_decisions, "pure": args.pure, "on_table": on_table}
    try:
        if args.match:
            pair = [x for x in args.match.split(",") if x.strip()]
            if len(pair) != 2:
                raise RootlawError("--match takes two agent specs, A,B (e.g. "
                                   "ismcts,random)", code="AGENT-INVALID")
            data = m.match(bundle, factions, pair[0], pair[1], **common)
            text = m.format_match(data)
        else:
            agent = args.agents or "ismcts"
            if "," in agent:
                raise RootlawError("--round-robin seats one agent spec in every seat",
                                   code="AGENT-INVALID")
            data = m.round_robin(bundle, factions, agent, baseline_games=args.baseline_games,
                                 **common)
            text = m.format_round_robin(data)
    except KeyboardInterrupt:
        print("rootlaw: interrupted", file=sys.stderr)
        return 130
    print(json.dumps(data, indent=2) if args.json else text)
    return 0


# ---------------------------------------------------------------------- info


def deck_line(bundle) -> str:
    """The deck and its cards by kind, copies counted: 'deck: ID, N cards (by kind)'."""
    kinds: dict[str, int] = {}
    for card in bundle.deck.cards:
        kinds[card.kind] = kinds.get(card.kind, 0) + card.count
    split = ", ".join(f"{n} {k}" for k, n in kinds.items())
    return f"deck: {bundle.deck.id}, {sum(kinds.values())} cards ({split})"


def faction_cards_line(bundle, in_game: int) -> str:
    """The factions' own cards (never shuffled into the deck) and the game's total, the
    count the core tracks."""
    own = [f"{f.id}: {c.count} {c.id}" for f in bundle.factions for c in f.cards]
    n = sum(c.count for f in bundle.factions for c in f.cards)
    detail = f" ({', '.join(own)})" if own else ""
    return f"faction cards: {n}{detail}; {in_game} cards in the game"


def cmd_info(args) -> int:
    from rootlaw.generator.build import cache_dir

    from .core import load_core, want_pure
    from .game import Game

    bundle = _bundle(args)
    core = load_core(bundle)
    c = core.layout["consts"]
    print(f"rootlaw: {_version()}")
    print(f"python: {platform.python_version()} ({platform.machine()})")
    print(f"core: {'compiled' if core.compiled else 'pure'}")
    print(f"core origin: {core.origin}{' (ROOTLAW_PURE set)' if want_pure() else ''}")
    if core.why_pure:
        print(f"why pure: {core.why_pure}")
    print(f"bundle: {bundle.hash}")
    print(f"packs: {', '.join(bundle.packs)}")
    print(f"map: {bundle.map.id}")
    print(deck_line(bundle))
    print(faction_cards_line(bundle, c["N"]))
    print(f"factions: {', '.join(f.id for f in bundle.factions)}")
    print(f"action space: {c['NACTIONS']}")
    print(f"observation vector: {Game(seed=1, bundle=bundle).info.observation_size} int64")
    print(f"state size: {c['STATE_SIZE']} int64")
    print(f"cache: {cache_dir()}")
    return 0


# ---------------------------------------------------------------------- validate


def cmd_validate(args) -> int:
    from rootlaw.spec.validate import format_github, format_json, format_text, validate

    if args.list_checks:
        from rootlaw.spec.semantics import checks_markdown

        return _write_or_print(checks_markdown(), args.out)
    if not args.paths and not args.pack:
        raise RootlawError("name content files or packs to validate (or --pack DIR)",
                           code="VALUE-INVALID")
    report = validate(args.paths, args.pack, play=args.play, play_seconds=args.play_seconds)
    if args.format == "json":
        print(format_json(report, args.strict))
    elif args.format == "github":
        print(format_github(report, args.strict))
    else:
        text = format_text(report, args.strict)
        if text:
            print(text)
    return report.exit_code(args.strict)


def _write_or_print(text: str, out: str | None) -> int:
    if out:
        from rootlaw.generator.build import write_atomic
        write_atomic(Path(out), text, parents=False)
        print(f"wrote {out}")
    else:
        sys.stdout.write(text)
    return 0


# ---------------------------------------------------------------------- schema


def cmd_schema(args) -> int:
    from rootlaw.spec import json_schema as content

    from . import scenario

    # (committed file, its text now, how to regenerate it alone)
    schemas = [(content.SCHEMA_PATH, content.schema_text(),
                "rootlaw schema --out spec/schema/rootlaw.schema.json"),
               (content.SCENARIO_SCHEMA_PATH, scenario.schema_text(),
                "rootlaw schema --scenario --out spec/schema/scenario.schema.json")]
    if args.check:
        stale = 0
        for path, text, fix in schemas:
            current = path.read_text(encoding="utf-8") if path.exists() else ""
            if current != text:
                stale += 1
                print(f"{path}: SCHEMA-STALE: the committed JSON Schema is out of date; "
                      f"run `rootlaw schema --write` (or `{fix}`)")
            else:
                print(f"ok: {path} is up to date")
        return 1 if stale else 0
    if args.write:
        from rootlaw.generator.build import write_atomic

        for path, text, _ in schemas:
            write_atomic(path, text, parents=False)
            print(f"wrote {path}")
        return 0
    text = schemas[1 if args.scenario else 0][1]
    if args.out:
        return _write_or_print(text, args.out)
    sys.stdout.write(text)
    return 0


# ---------------------------------------------------------------------- catalogue


def cmd_catalogue(args) -> int:
    from rootlaw.spec.catalogue import catalogue_markdown

    folder = Path(args.examples or "examples")
    examples = folder if any(folder.glob("*/pack.json")) else None
    if examples is None and args.examples:
        raise RootlawError(f"{args.examples}: no pack (*/pack.json) in this folder",
                           code="FILE-MISSING")
    return _write_or_print(catalogue_markdown(examples), args.out)


# ---------------------------------------------------------------------- build


def cmd_build(args) -> int:
    from rootlaw.generator.build import compile_core, compiled_path, render_to_cache

    from .core import compile_progress, forget_failed_build

    bundle = _bundle(args)
    src = render_to_cache(bundle)
    print(f"rendered: {src}")
    if args.source_only:
        return 0
    forget_failed_build(bundle)  # asked for: try again, and say why it fails
    try:
        if args.verbose or compiled_path(bundle) is not None:  # the compiler says, or no work
            so = compile_core(bundle, quiet=not args.verbose)
        else:
            with compile_progress(", ".join(bundle.packs) or "base") as done:
                so = done["path"] = compile_core(bundle)
    except Exception as e:  # noqa: BLE001 -- any compiler failure is reported, not raised
        raise RootlawError(f"compiling failed: {e}", code="BUILD-FAILED") from None
    print(f"compiled: {so}")
    return 0


# ---------------------------------------------------------------------- bench


def cmd_bench(args) -> int:
    from .bench import run_bench, text

    bundle = _bundle(args)
    workloads = [[f.strip() for f in w.split(",") if f.strip()] for w in args.factions or []]
    result = run_bench(bundle, [w for w in workloads if w] or None, games=args.games,
                       seed=args.seed,
                       min_seconds=args.min_seconds, rounds=args.rounds,
                       pettingzoo=not args.no_pettingzoo, agents=not args.no_agents,
                       against=args.against)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print("\n".join(text(result)))
    return 0


# ---------------------------------------------------------------------- replay


def _view_seat(view: str, g=None, *, factions: list[str] | None = None,
               allow_all: bool = True):
    """--view: 'all' (allow_all), 'public' (None) or a seated faction's seat."""
    if view == "all" and allow_all:
        return "all"
    if view == "public":
        return None
    seated = factions if factions is not None else g.factions
    if view not in seated:
        choices = ("all, " if allow_all else "") + "public, " + ", ".join(seated)
        raise RootlawError(f"--view {view!r}: one of {choices}", code="VALUE-INVALID")
    return seated.index(view)


def cmd_replay(args) -> int:
    from .log import replay_log

    # The log says what content it was played on: --pack only says where to look first.
    g = replay_log(Path(args.log), **_content(args))
    print(f"ok: {args.log} replays to the same end: winner: {g.winner_faction} "
          f"({len(g.history)} decisions)")
    if args.html:
        from rootlaw.generator.build import write_atomic

        from .viewer import page, replay_data
        text = page(replay_data(g, _view_seat(args.view, g, allow_all=False)))
        write_atomic(Path(args.html), text)
        print(f"wrote {args.html} ({len(text.encode()) // 1024} KiB, "
              f"{len(g.history) + 1} positions)")
    return 0


# ---------------------------------------------------------------------- render


def cmd_render(args) -> int:
    from rootlaw.generator.build import write_atomic

    from .render import render_svg
    from .viewer import position

    g = position(save=Path(args.save) if args.save else None,
                 log=Path(args.log) if args.log else None, at=args.at, **_content(args))
    svg = render_svg(g, seat=args.seat)
    if args.out:
        write_atomic(Path(args.out), svg)
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(svg)
    return 0


# ---------------------------------------------------------------------- check


def cmd_check(args) -> int:
    from .conformance import check_bundle

    bundle = _bundle(args)
    factions = _factions(args) or None
    if args.hidden:
        return _check_hidden(args, bundle, factions)
    if args.scenarios:
        paths = [Path(p) for p in args.scenarios]
    else:  # each pack's own scenarios/ folder, when it has one
        paths = [Path(p) / "scenarios" for p in (args.pack or [])
                 if (Path(p) / "scenarios").is_dir()]
    progress = None
    if args.progress:
        from tqdm import tqdm
        progress = tqdm(total=args.games, unit="game", file=sys.stderr)
    rep = check_bundle(bundle, factions=factions, seed=args.seed, games=args.games,
                       agreement=args.agreement, max_decisions=args.max_decisions,
                       stall_rounds=args.stall_rounds, scenario_paths=paths,
                       progress=progress)
    if progress is not None:
        progress.close()
    every = [f.id for f in bundle.factions]
    played = factions or every
    table = ", ".join(played) + (f" (of the bundle's {', '.join(every)})"
                                 if len(played) < len(every) else "")
    print(f"check: bundle {bundle.hash} (packs {', '.join(bundle.packs) or 'base'}; "
          f"map {bundle.map.id}); each game seats {table}, in this order")
    print(f"games: {rep.games} played from seed {args.seed}, {rep.winners} won, "
          f"{rep.stopped} stopped, {rep.stuck} stuck, {rep.decisions} decisions, invariants "
          f"checked after each of a game's first {args.max_decisions}")
    print(f"stalls: the longest {rep.longest_stall} rounds without progress (stuck at "
          f"{args.stall_rounds}); {rep.long} game{'' if rep.long == 1 else 's'} played on "
          "past the checked decisions")
    if rep.agreement_skipped:
        print(f"cores: skipped: {rep.agreement_skipped}")
    else:
        print(f"cores: {rep.agreement_games} games compared decision by decision")
    print(f"scenarios: {rep.scenarios} run")
    for line in rep.failures[:20]:
        print(f"FAIL {line}")
    if len(rep.failures) > 20:
        print(f"... and {len(rep.failures) - 20} more")
    n = len(rep.failures)
    print("ok" if rep.ok else f"FAILED: {n} problem{'' if n == 1 else 's'}")
    return 0 if rep.ok else 1


def _check_hidden(args, bundle, factions) -> int:
    """check --hidden: the twin check of runtime/hidden.py, for one table or every
    faction of the bundle."""
    from .hidden import check_hidden

    progress = None
    if args.progress:
        from tqdm import tqdm
        progress = tqdm(total=args.games, unit="game", file=sys.stderr)
    rep = check_hidden(bundle, factions, games=args.games, seed=args.seed,
                       positions=args.positions, horizon=args.horizon,
                       max_decisions=args.max_decisions,
                       progress=progress.update if progress is not None else None)
    if progress is not None:
        progress.close()
    table = ", ".join(factions or [f.id for f in bundle.factions])
    print(f"check --hidden: bundle {bundle.hash} ({table}); {rep.games} games from seed "
          f"{args.seed}, {args.positions} positions each")
    print(f"twins: {rep.pairs} pairs (a cards twin and a future twin per seat and "
          f"position), {rep.compared} decisions compared; ended by a card or die shown "
          f"{rep.revealed}, by a choice only one twin had {rep.parted}, at the horizon or "
          f"the end {rep.ran_out} ({rep.seconds:.1f} s)")
    for leak in rep.leaks[:20]:
        print(f"FAIL {leak}")
    if len(rep.leaks) > 20:
        print(f"... and {len(rep.leaks) - 20} more")
    n = len(rep.leaks)
    print("ok: no leak" if rep.ok else f"FAILED: {n} leak{'' if n == 1 else 's'}")
    return 0 if rep.ok else 1


# ---------------------------------------------------------------------- perft


def cmd_perft(args) -> int:
    from .perft import divide, perft, position

    bundle = _bundle(args)
    factions = _factions(args) or [f.id for f in bundle.factions]
    g = position(factions, args.seed, args.after, bundle=bundle)
    print(f"position: seed {args.seed} after {len(g.history)} decisions "
          f"({g.phase}, {g.decision}, {g.factions[g.to_play] if not g.is_over else 'over'})")
    if args.divide:
        for text, n in sorted(divide(g, args.depth).items()):
            print(f"  {text}: {n}")
    for d in range(1, args.depth + 1):
        print(f"perft {d} {perft(g, d)}")
    return 0


# ---------------------------------------------------------------------- scenario


def _own_pack(path: Path) -> Path | None:
    """The pack folder a scenario file lies in (a folder above it with a pack.json)."""
    for d in path.resolve().parents:
        if (d / "pack.json").is_file():
            return d
    return None


def cmd_scenario(args) -> int:
    from .scenario import run_file, scenarios_markdown

    if args.docs:
        return _write_or_print(scenarios_markdown(), args.out)
    files = []
    for raw in args.paths:
        p = Path(raw)
        files += sorted(p.rglob("*.json")) if p.is_dir() else [p]
    failed = 0
    bundles: dict = {}
    for f in files:
        # Without --pack, a scenario inside a pack's folder is the pack's (a pack's own
        # scenarios/ folder, as validate finds them).
        own = None if getattr(args, "pack", None) else _own_pack(f)
        if own not in bundles:
            bundles[own] = resolve([own], map_id=args.map, deck_id=args.deck) \
                if own is not None else _bundle(args)
        problems = run_file(f, bundle=bundles[own], pure=args.pure)
        if problems:
            failed += 1
            print(f"FAIL {f}")
            for line in problems:
                print(f"  {line}")
        else:
            print(f"ok   {f}")
    if not files:
        # A CI step that finds nothing to run must not pass silently.
        raise RootlawError(f"no scenario files (*.json) in {', '.join(args.paths)}",
                           code="SCENARIO-NONE")
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0


# ---------------------------------------------------------------------- main


def at_least(minimum: int, kind: type = int):
    """An argparse type: a number no smaller than minimum (a count, a limit, a depth)."""
    def parse(text: str):
        try:
            n = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not n >= minimum:  # also refuses nan
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {text}")
        return n
    return parse


def agents_option(p) -> None:
    p.add_argument("--agents", metavar="SPEC[,SPEC...]",
                   help="who plays each seat, in seat order (one spec: every seat): random "
                        "(default), first, heuristic, ismcts, with options as "
                        "name:key=value:... (ismcts:iterations=200); docs/agents.md")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="rootlaw", description="Root (Leder Games) as data, "
                                 "compiled: play, validate and build content.")
    ap.add_argument("--version", action="version", version=f"rootlaw {_version()}")
    sub = ap.add_subparsers(dest="command", required=True)

    def packs(p):
        p.add_argument("--pack", action="append", metavar="DIR",
                       help="add a content pack (repeatable)")
        p.add_argument("--map", metavar="ID", help="map id (default: the first loaded)")
        p.add_argument("--deck", metavar="ID", help="deck id (default: the first loaded)")

    p = sub.add_parser("play", help="play games (random agents unless --agents)")
    p.add_argument("--factions", default="", help="comma-separated faction ids "
                   "(default: every faction of the bundle)")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the first game (game i plays seed+i; default 0)")
    p.add_argument("--games", type=at_least(1), default=1, metavar="N",
                   help="how many games to play (default 1)")
    p.add_argument("--quiet", action="store_true", help="one summary line per game")
    p.add_argument("--progress", action="store_true",
                   help="progress bar with --quiet or --json")
    p.add_argument("--json", action="store_true",
                   help="print one JSON summary of all games (wins, win rates, mean VP and "
                        "turns, first-player win rate) instead of per-game lines; Ctrl-C "
                        "prints the summary of the games finished so far (exit 130)")
    p.add_argument("--log", metavar="FILE", help="write a JSON-lines game log (one game)")
    p.add_argument("--view", default="all", metavar="WHO",
                   help="whose view the readable log shows: 'all' (default: every card "
                        "named, the record of whoever runs the game), 'public' (the table) "
                        "or a faction id")
    p.add_argument("--max-decisions", type=at_least(1), default=1_000_000, metavar="N",
                   help="stop a game that has not ended after N decisions (no winner)")
    p.add_argument("--save", metavar="FILE",
                   help="save the final game as JSON; with --games N, each game under its "
                        "own name, the seed before the suffix (game.json -> game-7.json)")
    p.add_argument("--pure", action="store_true", default=None,
                   help="force the pure-Python core")
    agents_option(p)
    packs(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("simulate", help="many seeded random games on local processes or "
                       "Ray: win rates with 95%% CIs, how games were won, VP by round, length")
    p.add_argument("--factions", default="", help="comma-separated faction ids "
                   "(default: every faction of the bundle)")
    p.add_argument("--games", type=int, required=True, metavar="N", help="how many games")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="game i (from 0) uses seed S+i (default 0)")
    p.add_argument("--jobs", type=int, default=None, metavar="K",
                   help="worker processes (default: one per CPU; 1: this process)")
    p.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="play on Ray: alone, start a local instance; with an address, "
                        "connect to that cluster (pip install \"rootlaw[ray]\")")
    p.add_argument("--json", action="store_true", help="one JSON summary (docs/simulate.md)")
    p.add_argument("--plot", metavar="FILE.png", help="win rates with CI bars and mean VP "
                   "by round as a PNG (pip install \"rootlaw[plot]\")")
    p.add_argument("--max-decisions", type=int, default=1_000_000, metavar="M",
                   help="stop a game that has not ended after M decisions ('stopped')")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar with games/s and ETA on stderr (default: on a terminal)")
    p.add_argument("--pure", action="store_true", default=None,
                   help="force the pure-Python core")
    agents_option(p)
    p.add_argument("--match", metavar="A,B",
                   help="a seat-balanced match of two agent specs: --games games with A in "
                        "each seat in turn, B in the others; A's win rate with 95%% CIs")
    p.add_argument("--round-robin", action="store_true",
                   help="every table of two or more of --factions with the --agents spec "
                        "(default ismcts) in every seat, beside random agents' figures")
    p.add_argument("--baseline-games", type=int, default=10_000, metavar="N",
                   help="--round-robin: random games per table beside it (default 10000)")
    packs(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("info", help="what is installed and which core runs")
    packs(p)
    p.set_defaults(func=cmd_info)

    p = sub.add_parser("validate", help="validate content files or packs: the schema and "
                       "what makes content playable (exit 0 clean, 1 findings, 2 unusable "
                       "input)", description="Validate content files or packs. A pack gets "
                       "the bundle checks too (each of its maps and decks with the factions). "
                       "Codes: docs/validation.md.")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="a content file, or a pack (its folder or pack.json)")
    p.add_argument("--pack", action="append", metavar="DIR",
                   help="a pack the validated packs may require (repeatable); with no PATH, "
                        "validate the bundle of these packs")
    p.add_argument("--format", choices=("text", "json", "github"), default="text",
                   help="text (default): file:line: CODE at /pointer: message; json: one "
                        "object with every finding; github: workflow-command annotations")
    p.add_argument("--strict", action="store_true",
                   help="warnings fail too (exit 1)")
    p.add_argument("--play", type=at_least(0), default=3, metavar="N",
                   help="play N seeded random games on each map a pack brings (its default "
                        "map when it brings none) and find content on which no game ends "
                        "(PLAY-STALL); default 3, 0: none")
    p.add_argument("--play-seconds", type=at_least(0, float), default=10.0, metavar="S",
                   help="the time those games may take in all (default 10); games left "
                        "undecided are counted, not reported")
    p.add_argument("--list-checks", action="store_true",
                   help="print the table of codes and checks (markdown) instead")
    p.add_argument("--out", metavar="FILE", help="with --list-checks: write it to FILE")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("schema", help="export the JSON Schema of content files (or of "
                       "scenario files)")
    p.add_argument("--out", metavar="FILE", help="write the schema to FILE (default: stdout)")
    p.add_argument("--scenario", action="store_true",
                   help="the schema of scenario files instead of content files")
    p.add_argument("--check", action="store_true",
                   help="fail when a committed schema (content, scenario) is stale")
    p.add_argument("--write", action="store_true",
                   help="regenerate both committed schemas (spec/schema/)")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("catalogue", help="print the primitive catalogue (markdown)")
    p.add_argument("--out", metavar="FILE", help="write it to FILE (default: stdout)")
    p.add_argument("--examples", metavar="DIR",
                   help="count the uses in the packs of DIR too (default: ./examples when "
                        "it holds packs, as in a checkout)")
    p.set_defaults(func=cmd_catalogue)

    p = sub.add_parser("build", help="render and compile the core for a bundle")
    p.add_argument("--source-only", action="store_true", help="render without compiling")
    p.add_argument("--verbose", action="store_true", help="show the compiler's output")
    packs(p)
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("bench", help="speed on the same seeded games: playouts on the compiled "
                       "and pure cores, the Python API, the agents, the PettingZoo loop")
    p.add_argument("--factions", action="append", metavar="A,B[,C]",
                   help="a seating to measure (repeatable: one workload each; the first "
                   "is also used for the Python API figures); default: the bundle's first "
                   "two factions, and its first three when it has three")
    p.add_argument("--games", type=at_least(1), default=20, metavar="N",
                   help="games per core (default 20)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    p.add_argument("--min-seconds", type=at_least(0, float), default=1.0,
                   help="repeat the compiled playouts until this much CPU time has passed "
                        "(default 1; the best round is kept)")
    p.add_argument("--rounds", type=at_least(1), default=3, metavar="N",
                   help="every figure: the best of (at least) N rounds of CPU time "
                        "(default 3)")
    p.add_argument("--no-pettingzoo", action="store_true",
                   help="skip the environments' loops, PettingZoo and OpenSpiel (measured "
                        "when the rl extra is installed)")
    p.add_argument("--no-agents", action="store_true",
                   help="skip the agents (the heuristic's decisions/s, the search's "
                        "iterations/s)")
    p.add_argument("--against", metavar="CORE",
                   help="another build's compiled core of the same rules (its extension "
                        "file, or the cache folder `rootlaw build` printed): both cores' "
                        "playouts in alternating rounds, and their ratio")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    packs(p)
    p.set_defaults(func=cmd_bench)

    def recorded(p):
        p.add_argument("--pack", action="append", metavar="DIR",
                       help="a folder to look for the recorded packs in first (repeatable; "
                            "then the recorded folders, then ROOTLAW_PACK_PATH); format-1 "
                            "files: the packs they were played with")
        p.add_argument("--map", metavar="ID", help="the map expected (the recorded one; "
                       "format-1 files: the map they were played on)")
        p.add_argument("--deck", metavar="ID", help="the deck expected (as --map)")

    p = sub.add_parser("replay", help="replay a JSON-lines game log and check it (on the "
                       "content its header records)")
    p.add_argument("log", help="the log (written by play --log)")
    p.add_argument("--html", metavar="FILE", help="also write a self-contained HTML "
                   "viewer that steps through the game")
    p.add_argument("--view", default="public", metavar="WHO",
                   help="--html: whose view the page holds: 'public' (default: the table, "
                        "no face-down card named) or a faction id (its hand and what it "
                        "was shown too); a page holds one view")
    recorded(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("render", help="draw a saved game, or a position of a game log, "
                       "as SVG")
    p.add_argument("save", nargs="?", help="a saved game (rootlaw play --save FILE)")
    p.add_argument("--log", metavar="FILE", help="a JSON-lines game log instead of a save")
    p.add_argument("--at", type=at_least(0), metavar="N",
                   help="the position after N decisions (default: the last)")
    p.add_argument("--seat", type=at_least(0), metavar="S",
                   help="draw what seat S sees, its hand too (default: public facts only)")
    p.add_argument("-o", "--out", metavar="FILE", help="SVG file (default: print it)")
    recorded(p)
    p.set_defaults(func=cmd_render)
    p = sub.add_parser("check", help="conformance: random games with invariants after "
                       "every decision, compiled/pure agreement, the packs' scenarios")
    p.add_argument("--factions", default="", help="comma-separated faction ids "
                   "(default: every faction of the bundle)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    p.add_argument("--games", type=at_least(0), default=20, metavar="N",
                   help="random games to play (default 20; 0: scenarios and agreement only)")
    p.add_argument("--agreement", type=at_least(0), default=3, metavar="N",
                   help="games compared on both cores (needs a compiled core)")
    p.add_argument("--max-decisions", type=at_least(1), default=20_000, metavar="N",
                   help="check the invariants after each of a game's first N decisions "
                        "(default 20000); a game still on then plays on without them until "
                        "it ends, and fails only when stuck")
    p.add_argument("--stall-rounds", type=at_least(1), default=STALL_ROUNDS, metavar="R",
                   help="a game with no faction reaching a new VP for R rounds is stuck "
                        f"and fails (default {STALL_ROUNDS}: legal games have a long tail, "
                        "docs/simulate.md)")
    p.add_argument("--scenarios", nargs="*", metavar="PATH",
                   help="scenario files or folders (default: each pack's scenarios/)")
    p.add_argument("--progress", action="store_true", help="progress bar on stderr")
    p.add_argument("--hidden", action="store_true",
                   help="instead: the hidden-information check (twins that differ only in "
                        "what one seat cannot see, played on with the same choices; any "
                        "difference that seat sees before a card is shown is a leak; "
                        "docs/design.md, Hidden information)")
    p.add_argument("--positions", type=at_least(1), default=6, metavar="N",
                   help="--hidden: positions per game made into twins (default 6)")
    p.add_argument("--horizon", type=at_least(1), default=80, metavar="N",
                   help="--hidden: decisions each pair of twins is played on (default 80)")
    packs(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("perft", help="count decision sequences from a position "
                       "(tests/perft/*.perft keeps such counts)")
    p.add_argument("--factions", default="", help="comma-separated faction ids "
                   "(default: every faction of the bundle)")
    p.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    p.add_argument("--after", type=at_least(0), default=0, metavar="N",
                   help="random decisions (RandomAgent(seed)) played first")
    p.add_argument("--depth", type=at_least(1), default=3, metavar="N",
                   help="count sequences of up to N decisions (default 3)")
    p.add_argument("--divide", action="store_true", help="the count below each first decision")
    packs(p)
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("scenario", help="run rules scenario files (JSON)")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="scenario files, or folders searched for *.json")
    p.add_argument("--docs", action="store_true",
                   help="print the scenario format's reference (markdown) instead")
    p.add_argument("--out", metavar="FILE", help="with --docs: write it to FILE")
    p.add_argument("--pure", action="store_true", default=None,
                   help="force the pure-Python core (a pack's rules without a compiler, "
                        "or to compare the two cores)")
    packs(p)
    p.set_defaults(func=cmd_scenario)
    return ap


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    # rootlaw's own warnings are messages for the user, not code locations.
    text = str(message)
    if not text.startswith("rootlaw:"):
        text = warnings.formatwarning(message, category, filename, lineno, line).rstrip()
    print(text, file=file or sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from . import core

    core.NOTICES = True  # a command on the pure path without asking says so, once
    warnings.showwarning = _show_warning
    try:
        return args.func(args)
    except SpecError as e:
        for d in e.diagnostics:
            print(str(d), file=sys.stderr)
        return 1
    except RootlawError as e:
        print(f"rootlaw: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # output piped into `head` and the like
        return 0
    except OSError as e:  # files the user named: unreadable, unwritable, missing
        where = f"{e.filename}: " if e.filename else ""
        print(f"rootlaw: {where}IO-ERROR: {e.strerror or e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
