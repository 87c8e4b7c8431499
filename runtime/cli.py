"""The `rootlaw` command line: play, info, validate, schema, build, bench, replay, render."""

from __future__ import annotations

import argparse
import json
import platform
import sys
from importlib import metadata
from pathlib import Path

from rootlaw.spec import SpecError, resolve

from .errors import RootlawError


def _version() -> str:
    try:
        return metadata.version("rootlaw")
    except metadata.PackageNotFoundError:
        return "0+source"


def _bundle(args):
    return resolve(getattr(args, "pack", None) or [], map_id=getattr(args, "map", None),
                   deck_id=getattr(args, "deck", None))


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


def cmd_play(args) -> int:
    from .log import play_game

    bundle = _bundle(args)
    factions = _factions(args) or [f.id for f in bundle.factions]
    games = max(1, args.games)
    if args.log and games > 1:
        raise RootlawError("--log takes one game; use --games 1", code="VALUE-INVALID")
    progress = None
    if (args.quiet or args.json) and games > 1 and args.progress:
        from tqdm import tqdm
        progress = tqdm(total=games, unit="game", file=sys.stderr)
    stats = _Stats(factions)
    for i in range(games):
        seed = args.seed + i
        out = None if args.quiet or args.json else sys.stdout
        g = play_game(bundle, factions, seed, out=out, log_path=args.log, pure=args.pure,
                      max_decisions=args.max_decisions)
        if i == 0 and games >= 50 and not g.compiled and not args.pure:
            print("rootlaw: this bundle runs on the pure-Python core; `rootlaw build` with "
                  "the same --pack/--map options compiles it (tens of times faster)",
                  file=sys.stderr)
        w = g.winner_faction
        stats.add(g)
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
        if args.save:
            g.save(args.save)
    if progress is not None:
        progress.close()
    if args.json:
        summary = {"bundle": bundle.hash, "factions": factions,
                   "seeds": [args.seed, args.seed + games - 1], **stats.summary()}
        print(json.dumps(summary, indent=2))
    elif games > 1:
        tally = sorted((f, n) for f, n in stats.wins.items() if n)
        if stats.no_winner:
            tally.insert(0, ("none", stats.no_winner))
        print("wins: " + ", ".join(f"{f}={n}" for f, n in tally))
    return 0


# ---------------------------------------------------------------------- info


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
    print(f"bundle: {bundle.hash}")
    print(f"packs: {', '.join(bundle.packs)}")
    print(f"map: {bundle.map.id}")
    print(f"deck: {bundle.deck.id} ({c['N']} cards)")
    print(f"factions: {', '.join(f.id for f in bundle.factions)}")
    print(f"action space: {c['NACTIONS']}")
    print(f"observation vector: {Game(seed=1, bundle=bundle).info.observation_size} int64")
    print(f"state size: {c['STATE_SIZE']} int64")
    print(f"cache: {cache_dir()}")
    return 0


# ---------------------------------------------------------------------- validate


def cmd_validate(args) -> int:
    from rootlaw.spec import load_file, load_pack

    failed = 0
    for raw in args.paths:
        p = Path(raw)
        try:
            if p.is_dir() or p.name == "pack.json":
                pack, docs = load_pack(p)
                b = resolve([p])
                print(f"ok: {p} (pack {pack.id}: {len(docs)} files; bundle {b.hash})")
            else:
                doc = load_file(p)
                print(f"ok: {p} ({doc.kind} {doc.id})")
        except SpecError as e:
            failed += 1
            for d in e.diagnostics:
                print(str(d))
    return 1 if failed else 0


# ---------------------------------------------------------------------- schema


def cmd_schema(args) -> int:
    from rootlaw.spec.schema import SCHEMA_PATH, schema_text

    text = schema_text()
    if args.check:
        current = SCHEMA_PATH.read_text(encoding="utf-8") if SCHEMA_PATH.exists() else ""
        if current != text:
            print(f"{SCHEMA_PATH}: SCHEMA-STALE: the committed JSON Schema is out of date; "
                  f"run `rootlaw schema --out spec/schema/rootlaw.schema.json`")
            return 1
        print(f"ok: {SCHEMA_PATH} is up to date")
        return 0
    if args.out:
        from rootlaw.generator.build import write_atomic
        write_atomic(Path(args.out), text)
        print(f"wrote {args.out}")
        return 0
    sys.stdout.write(text)
    return 0


# ---------------------------------------------------------------------- catalogue


def cmd_catalogue(args) -> int:
    from rootlaw.spec.catalogue import catalogue_markdown

    text = catalogue_markdown()
    if args.out:
        from rootlaw.generator.build import write_atomic
        write_atomic(Path(args.out), text)
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return 0


# ---------------------------------------------------------------------- build


def cmd_build(args) -> int:
    from rootlaw.generator.build import compile_core, render_to_cache

    bundle = _bundle(args)
    src = render_to_cache(bundle)
    print(f"rendered: {src}")
    if args.source_only:
        return 0
    try:
        so = compile_core(bundle, quiet=not args.verbose)
    except Exception as e:  # noqa: BLE001 -- any compiler failure is reported, not raised
        raise RootlawError(f"compiling failed: {e}", code="BUILD-FAILED") from None
    print(f"compiled: {so}")
    return 0


# ---------------------------------------------------------------------- bench


def cmd_bench(args) -> int:
    from .bench import run_bench

    bundle = _bundle(args)
    factions = _factions(args) or [f.id for f in bundle.factions]
    result = run_bench(bundle, factions, games=args.games,
                       seed=args.seed, min_seconds=args.min_seconds)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for path in ("compiled", "pure"):
            r = result.get(path)
            if r:
                print(f"{path}: {r['decisions_per_s']:.0f} decisions/s, "
                      f"{r['games_per_s']:.2f} games/s ({r['decisions']} decisions)")
        if result.get("speedup"):
            print(f"speedup: {result['speedup']:.1f}x")
    return 0


# ---------------------------------------------------------------------- replay


def cmd_replay(args) -> int:
    from .log import replay_log

    bundle = _bundle(args)
    g = replay_log(Path(args.log), bundle)
    print(f"ok: {args.log} replays to the same end: winner: {g.winner_faction} "
          f"({len(g.history)} decisions)")
    if args.html:
        from rootlaw.generator.build import write_atomic

        from .viewer import page, replay_data
        text = page(replay_data(g))
        write_atomic(Path(args.html), text)
        print(f"wrote {args.html} ({len(text.encode()) // 1024} KiB, "
              f"{len(g.history) + 1} positions)")
    return 0


# ---------------------------------------------------------------------- render


def cmd_render(args) -> int:
    from rootlaw.generator.build import write_atomic

    from .render import render_svg
    from .viewer import position

    g = position(_bundle(args), save=Path(args.save) if args.save else None,
                 log=Path(args.log) if args.log else None, at=args.at)
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
                       scenario_paths=paths, progress=progress)
    if progress is not None:
        progress.close()
    print(f"check: bundle {bundle.hash} (packs {', '.join(bundle.packs) or 'base'}; "
          f"map {bundle.map.id}; factions {', '.join(f.id for f in bundle.factions)})")
    print(f"games: {rep.games} played from seed {args.seed}, {rep.winners} won, "
          f"{rep.stopped} stopped, {rep.decisions} decisions, invariants checked after each")
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


def cmd_scenario(args) -> int:
    from .scenario import run_file, scenarios_markdown

    if args.docs:
        text = scenarios_markdown()
        if args.out:
            from rootlaw.generator.build import write_atomic
            write_atomic(Path(args.out), text)
            print(f"wrote {args.out}")
        else:
            sys.stdout.write(text)
        return 0
    files = []
    for raw in args.paths:
        p = Path(raw)
        files += sorted(p.rglob("*.json")) if p.is_dir() else [p]
    failed = 0
    for f in files:
        problems = run_file(f, bundle=_bundle(args))
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

    p = sub.add_parser("play", help="play games with random agents")
    p.add_argument("--factions", default="", help="comma-separated faction ids "
                   "(default: every faction of the bundle)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--quiet", action="store_true", help="one summary line per game")
    p.add_argument("--progress", action="store_true",
                   help="progress bar with --quiet or --json")
    p.add_argument("--json", action="store_true",
                   help="print one JSON summary of all games (wins, win rates, mean VP and "
                        "turns, first-player win rate) instead of per-game lines")
    p.add_argument("--log", metavar="FILE", help="write a JSON-lines game log")
    p.add_argument("--max-decisions", type=int, default=1_000_000, metavar="N",
                   help="stop a game that has not ended after N decisions (no winner)")
    p.add_argument("--save", metavar="FILE", help="save the final game as JSON")
    p.add_argument("--pure", action="store_true", default=None,
                   help="force the pure-Python core")
    packs(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("info", help="what is installed and which core runs")
    packs(p)
    p.set_defaults(func=cmd_info)

    p = sub.add_parser("validate", help="validate content files or packs")
    p.add_argument("paths", nargs="+")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("schema", help="export the JSON Schema of content files")
    p.add_argument("--out", metavar="FILE")
    p.add_argument("--check", action="store_true", help="fail when the committed file is stale")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("catalogue", help="print the primitive catalogue (markdown)")
    p.add_argument("--out", metavar="FILE")
    p.set_defaults(func=cmd_catalogue)

    p = sub.add_parser("build", help="render and compile the core for a bundle")
    p.add_argument("--source-only", action="store_true", help="render without compiling")
    p.add_argument("--verbose", action="store_true")
    packs(p)
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("bench", help="compiled vs pure speed on the same seeded games")
    p.add_argument("--factions", default="", help="default: every faction of the bundle")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--min-seconds", type=float, default=1.0,
                   help="repeat the compiled games until this much time has passed")
    p.add_argument("--json", action="store_true")
    packs(p)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("replay", help="replay a JSON-lines game log and check it")
    p.add_argument("log")
    p.add_argument("--html", metavar="FILE", help="also write a self-contained HTML "
                   "viewer that steps through the game")
    packs(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("render", help="draw a saved game, or a position of a game log, "
                       "as SVG")
    p.add_argument("save", nargs="?", help="a saved game (rootlaw play --save FILE)")
    p.add_argument("--log", metavar="FILE", help="a JSON-lines game log instead of a save")
    p.add_argument("--at", type=int, metavar="N",
                   help="the position after N decisions (default: the last)")
    p.add_argument("--seat", type=int, metavar="S",
                   help="draw what seat S sees, its hand too (default: public facts only)")
    p.add_argument("-o", "--out", metavar="FILE", help="SVG file (default: print it)")
    packs(p)
    p.set_defaults(func=cmd_render)
    p = sub.add_parser("check", help="conformance: random games with invariants after "
                       "every decision, compiled/pure agreement, the packs' scenarios")
    p.add_argument("--factions", default="")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--agreement", type=int, default=3, metavar="N",
                   help="games compared on both cores (needs a compiled core)")
    p.add_argument("--max-decisions", type=int, default=20_000, metavar="N")
    p.add_argument("--scenarios", nargs="*", metavar="PATH",
                   help="scenario files or folders (default: each pack's scenarios/)")
    p.add_argument("--progress", action="store_true")
    packs(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("perft", help="count decision sequences from a position "
                       "(tests/perft/*.perft keeps such counts)")
    p.add_argument("--factions", default="")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--after", type=int, default=0,
                   help="random decisions (RandomAgent(seed)) played first")
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--divide", action="store_true", help="the count below each first decision")
    packs(p)
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("scenario", help="run rules scenario files (JSON)")
    p.add_argument("paths", nargs="*", help="scenario files, or folders of them")
    p.add_argument("--docs", action="store_true",
                   help="print the scenario format's reference (markdown) instead")
    p.add_argument("--out", metavar="FILE", help="with --docs: write it to FILE")
    packs(p)
    p.set_defaults(func=cmd_scenario)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
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
