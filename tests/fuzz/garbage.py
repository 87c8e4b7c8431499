"""Garbage fuzzing: inputs that are barely or not at all what they claim to be.

Five kinds of input, each from real files: content documents (the base map, deck and
factions), pack manifests, scenario files (the suite's and the examples'), saves and
logs (of base-game and pack games, format 2).  Each garbage input is one of:

- ``bytes``: random bytes; ``damage``: a real file with spans deleted, random bytes or
  tokens inserted (``[`` five thousand times, ``NaN``, ``1e999``, a lone ``\\u``, ...);
- ``values``: the parsed file with values replaced by values of other types (huge and
  negative integers, floats, nulls, strings with lone surrogates, lists, objects);
- ``near``: the parsed file with values of the right type but wrong (numbers at their
  edges, names swapped for other names seen under the same key, list items dropped,
  repeated or inserted, keys deleted): a scenario's negative piece counts and over-full
  clearings, a save's out-of-range actions, a log's other faction;
- ``deep``: nesting 100,000 levels deep, inside a real file or alone;
- ``huge``: a 200,000-item list in a real position, a file just under and over the
  cap, and (``--huge``) files of 50 MB;
- ``encoding``: UTF-16 and UTF-32 (with and without a byte-order mark), Latin-1, a UTF-8
  byte-order mark, NUL bytes, CRLF;
- ``tiny``: an empty file, whitespace, ``null``, ``[]``, ``{}``, a string, a number.

Every reader must give a result or a coded error (a RootlawError: SpecError,
SaveError, LogError ...) within 2 s, every finding of validate's report a code and a
location, and no message in pydantic's words (issue 12: in the author's instead):
``validate`` (the file, and the pack holding it; a scenario file),
``Game.load``, ``replay_log``, the scenario runner, and the render path
(``viewer.position`` + ``render_svg``); a sample goes through the ``rootlaw`` CLI in a
subprocess (``validate``, ``replay``, ``scenario``, ``render``), which must exit without
a traceback.

    python -m tests.fuzz.garbage --count 3000 --seed 1 --out /tmp/fuzz-garbage
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import random
import shutil
import sys
from pathlib import Path

from . import common as C
from .mutate import nodes

KINDS = ("content", "manifest", "scenario", "save", "log")


# ---------------------------------------------------------------------- the real files


class Seeds:
    """Real files of each kind, as text (made once per campaign)."""

    def __init__(self, work: Path) -> None:
        from rootlaw.runtime import Game
        from rootlaw.runtime.log import play_game
        from rootlaw.spec import BASE_PACK, resolve

        self.work = work
        work.mkdir(parents=True, exist_ok=True)
        self.content = {s.name: json.dumps(s.data, indent=1) for s in C.sources()
                        if s.pack is None}
        self.manifest = {"base": (BASE_PACK / "pack.json").read_text(encoding="utf-8")}
        for p in sorted(C.EXAMPLES.glob("*/pack.json")):
            self.manifest[p.parent.name] = p.read_text(encoding="utf-8")
        files = sorted((C.ROOT / "tests" / "scenarios").rglob("*.json")) + \
            sorted(C.EXAMPLES.glob("*/scenarios/*.json"))
        self.scenario = {f.name: f.read_text(encoding="utf-8") for f in files[::7]}
        self.save, self.log = {}, {}
        packs = [None, C.EXAMPLES / "four-actions"]
        for i, pack in enumerate(packs):
            b = resolve([pack] if pack else [])
            factions = [f.id for f in b.factions][: 2 + i]
            g = Game(factions, 3 + i, bundle=b, pure=True)
            for _ in range(150):
                if g.is_over:
                    break
                g.apply(g.legal_actions()[len(g.history) % len(g.legal_actions())])
            self.save[f"save{i}"] = g.to_json()
            log = work / f"seed-log{i}.jsonl"
            play_game(b, factions, 5 + i, log_path=str(log), max_decisions=120)
            self.log[f"log{i}"] = log.read_text(encoding="utf-8")

    def of(self, kind: str) -> dict[str, str]:
        return getattr(self, kind)


# ---------------------------------------------------------------------- garbage makers

TOKENS = [b"[" * 5000, b'{"a":' * 200, b"NaN", b"-Infinity", b"1e999", b'"', b"\\u",
          b"\\ud800", b"\x00", b"\xff\xfe", b",", b"}", b"]", b'"count": 25, "count": 20',
          b"9" * 5000, b"\r\n", b"\xc3", b"true", b"null"]


def rand_value(rng: random.Random, depth: int = 0) -> object:
    r = rng.random()
    if r < 0.15:
        return rng.choice([0, -1, 1, 2**31, 2**63, 2**64, -(2**70), 10**30, 10**400])
    if r < 0.25:
        return rng.choice([0.5, -0.0, 1e308, 3.0, 1e-300])
    if r < 0.35:
        return rng.choice([True, False, None])
    if r < 0.55:
        return rng.choice(["", "x", "marquise", "keep", "sawmill", "bird", "fox", "any",
                           "../../etc/passwd", "a" * 100, "\u0000", "🦊", "\ud800",
                           "setup_home_token", "item", "faction", "map", "deck", "pack",
                           "base", "move 1->5 x1", "done", "/turn/daylight/1"])
    if r < 0.75 and depth < 4:
        return [rand_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if depth < 4:
        return {rng.choice(["id", "kind", "op", "count", "x", "type", "format", "bundle",
                            "packs", "factions", "seed", "actions", "state"]):
                rand_value(rng, depth + 1) for _ in range(rng.randrange(4))}
    return 1


def dumps(v: object) -> bytes:
    return json.dumps(v, indent=1).encode("utf-8", "surrogatepass")


def values(text: str, rng: random.Random, lines: bool) -> bytes:
    if lines:  # a JSON-lines log: one record changed
        recs = [json.loads(x) for x in text.splitlines() if x.strip()]
        j = rng.randrange(len(recs))
        recs[j] = json.loads(values(json.dumps(recs[j]), rng, False))
        return b"\n".join(json.dumps(r).encode("utf-8", "surrogatepass") for r in recs)
    doc = json.loads(text)
    paths = [p for p, _ in nodes(doc) if p]
    for _ in range(rng.randrange(1, 4)):
        if not paths:
            break
        path = rng.choice(paths)
        try:
            parent = doc
            for p in path[:-1]:
                parent = parent[p]
            parent[path[-1]] = rand_value(rng)
        except (KeyError, IndexError, TypeError):
            pass
    return dumps(doc)


def near(text: str, rng: random.Random, lines: bool, pools) -> bytes:
    """The file with values of the right type but wrong: numbers at their edges (0,
    negative, huge), names swapped for other names seen under the same key, list items
    dropped, repeated or inserted, keys deleted (mutate's generic mutations)."""
    from .mutate import g_delete, g_list, g_number, g_string

    if lines:
        recs = [json.loads(x) for x in text.splitlines() if x.strip()]
        j = rng.randrange(len(recs))
        recs[j] = json.loads(near(json.dumps(recs[j]), rng, False, pools))
        return b"\n".join(json.dumps(r).encode("utf-8", "surrogatepass") for r in recs)
    doc = json.loads(text)
    for _ in range(rng.randrange(1, 3)):
        fn = rng.choice([g_number, g_number, g_string, g_string, g_list, g_delete])
        with contextlib.suppress(TypeError, KeyError, IndexError, AttributeError):
            fn(doc, rng, pools)
    return dumps(doc)


def damage(text: str, rng: random.Random) -> bytes:
    b = bytearray(text.encode())
    for _ in range(rng.randrange(1, 6)):
        i = rng.randrange(len(b) + 1)
        r = rng.random()
        if r < 0.4:
            del b[i:i + rng.randrange(1, 20)]
        elif r < 0.7:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 5)))
        else:
            b[i:i] = rng.choice(TOKENS)
    return bytes(b)


def deep(text: str, rng: random.Random, lines: bool) -> bytes:
    n = rng.choice([65, 1000, 100_000])
    opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
    nest = opener * n + "1" + closer * (n if rng.random() < 0.8 else 0)
    r = rng.random()
    if r < 0.3:
        return nest.encode()
    if lines:
        recs = text.splitlines()
        recs[rng.randrange(len(recs))] = '{"type": "decision", "x": ' + nest + "}"
        return "\n".join(recs).encode()
    doc = json.loads(text)
    paths = [p for p, v in nodes(doc) if p]
    path = rng.choice(paths)
    marker = "\u0001MARK\u0001"
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = marker
    return json.dumps(doc).replace(json.dumps(marker), nest).encode()


def huge(text: str, rng: random.Random, lines: bool, cap: int, big: bool) -> bytes:
    r = rng.random()
    if big and r < 0.1:
        return b"[" + b"1," * (25 * 2**20) + b"1]"  # 50 MB
    if r < 0.3:  # just under or just over the cap (content and scenarios: 1 MiB)
        size = cap + rng.choice([-64, 1, 4096])
        body = text.encode()
        pad = b" " * max(0, size - len(body))
        return body[:-1] + pad + body[-1:] if body else pad
    if lines:
        recs = text.splitlines()
        dec = next((x for x in recs if '"decision"' in x), recs[-1])
        n = rng.choice([20_000, 200_000])
        return "\n".join([recs[0], *([dec] * n), recs[-1]]).encode()
    doc = json.loads(text)
    lists = [(p, v) for p, v in nodes(doc) if isinstance(v, list) and v]
    if not lists:
        return (("[" + "1," * 200_000) + "1]").encode()
    path, v = rng.choice(lists)
    v.extend([copy.deepcopy(v[0])] * rng.choice([20_000, 200_000]))
    return json.dumps(doc, separators=(",", ":")).encode()


def encoding(text: str, rng: random.Random) -> bytes:
    r = rng.choice(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1", "bom",
                    "nul", "crlf", "cp1252"])
    t = text.replace('"name": "', '"name": "Éé ')
    if r == "bom":
        return b"\xef\xbb\xbf" + t.encode()
    if r == "nul":
        b = bytearray(t.encode())
        b.insert(rng.randrange(len(b) + 1), 0)
        return bytes(b)
    if r == "crlf":
        return t.replace("\n", "\r\n").encode()
    return t.encode(r, "replace")


def tiny(rng: random.Random) -> bytes:
    return rng.choice([b"", b" ", b"\n\n", b"null", b"[]", b"{}", b'"x"', b"1", b"-0",
                       b"true", b"\xef\xbb\xbf", b"{" * 3, b'{"kind": "faction"}',
                       b'{"type": "header"}', b'{"format": 2}', b'{"kind": "pack"}'])


def garbage(kind: str, text: str, rng: random.Random, *, big: bool, pools=None
            ) -> tuple[str, bytes]:
    from rootlaw.spec.jsonio import CONTENT_MAX_BYTES, LOG_LINE_MAX_BYTES, SAVE_MAX_BYTES

    lines = kind == "log"
    cap = {"save": SAVE_MAX_BYTES, "log": LOG_LINE_MAX_BYTES}.get(kind, CONTENT_MAX_BYTES)
    how = rng.choice(["bytes", "damage", "damage", "values", "values", "near", "near",
                      "near", "deep", "huge", "encoding", "tiny"])
    if how == "near" and pools is not None:
        return how, near(text, rng, lines, pools)
    if how == "near":
        how = "values"
    if how == "bytes":
        return how, bytes(rng.randrange(256) for _ in range(rng.choice([1, 16, 4096])))
    if how == "damage":
        return how, damage(text, rng)
    if how == "values":
        return how, values(text, rng, lines)
    if how == "deep":
        return how, deep(text, rng, lines)
    if how == "huge":
        return how, huge(text, rng, lines, cap, big)
    if how == "encoding":
        return how, encoding(text, rng)
    return how, tiny(rng)


# ---------------------------------------------------------------------- readers


def readers(kind: str, f: Path, folder: Path) -> list[tuple[str, object]]:
    """(name, call) for each reader of an input of this kind."""
    from rootlaw.runtime import Game
    from rootlaw.runtime.log import replay_log
    from rootlaw.runtime.render import render_svg
    from rootlaw.runtime.scenario import run_file
    from rootlaw.runtime.viewer import position
    from rootlaw.spec.validate import validate

    def checked(report):
        for d in report.diagnostics:
            str(d)  # a finding must print
        report.exit_code()
        return report

    if kind in ("content", "manifest"):
        out = [("validate pack", lambda: checked(validate([folder])))]
        if kind == "content":
            out.append(("validate file", lambda: checked(validate([f]))))
        return out
    if kind == "scenario":
        return [("scenario", lambda: run_file(f, pure=True)),
                ("validate scenario", lambda: checked(validate([f])))]
    if kind == "save":
        return [("Game.load", lambda: Game.load(f, pure=True)),
                ("render save", lambda: render_svg(position(save=f)))]
    return [("replay", lambda: replay_log(f)),
            ("render log", lambda: render_svg(position(log=f, at=0)))]


CLI = {"content": ["validate"], "manifest": ["validate", "--strict"], "scenario": ["scenario"],
       "save": ["render"], "log": ["replay"]}


def place(kind: str, name: str, body: bytes, folder: Path, seeds: Seeds) -> Path:
    """Write the input where its readers find it: a content file in a pack that requires
    the base game, a manifest beside the base files it lists."""
    from rootlaw.spec import BASE_PACK

    folder.mkdir(parents=True, exist_ok=True)
    if kind == "content":
        (folder / name).write_bytes(body)
        (folder / "pack.json").write_text(json.dumps(
            {"kind": "pack", "id": "garbage", "name": "g", "requires": ["base"],
             "content": [name]}))
        return folder / name
    if kind == "manifest":
        src = BASE_PACK if name == "base" else C.EXAMPLES / name
        for x in src.iterdir():
            if x.is_file() and x.suffix == ".json":
                (folder / x.name).write_bytes(x.read_bytes())
        (folder / "pack.json").write_bytes(body)
        return folder / "pack.json"
    f = folder / (f"{name}.jsonl" if kind == "log" else f"{name}.json")
    f.write_bytes(body)
    return f


def campaign(count: int, seed: int, out: Path, *, big: bool = False,
             subprocess_every: int = 40) -> C.Tally:
    rng = random.Random(seed)
    from .mutate import Pools

    seeds = Seeds(out / "seeds")
    pools = {k: Pools([json.loads(t) for t in seeds.of(k).values()] if k != "log" else
                      [json.loads(x) for t in seeds.log.values() for x in t.splitlines()])
             for k in KINDS}
    tally = C.Tally()
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        name, text = rng.choice(sorted(seeds.of(kind).items()))
        how, body = garbage(kind, text, rng, big=big, pools=pools[kind])
        folder = out / f"g{i:05d}"
        if folder.exists():
            shutil.rmtree(folder)
        f = place(kind, name, body, folder, seeds)
        label = f"g{i:05d} {kind} {name} {how} ({len(body)} bytes)"
        tally.count(f"{kind} inputs")
        tally.count(f"{how} inputs")
        for what, call in readers(kind, f, folder):
            r = C.guarded(call)  # type: ignore[arg-type]
            tally.timed(what, r.seconds, label)
            if r.finding:
                tally.find(f"{label}: {what}: {r.finding}")
            elif r.error is not None:
                tally.count(f"{what}: coded error")
                miss = C.error_unlocated(r.error)
                if miss:
                    tally.find(f"{label}: {what}: {miss}")
                machine = C.machine_words([r.error])
                if machine:
                    tally.find(f"{label}: {what}: in pydantic's words: {machine[:3]}")
            else:
                tally.count(f"{what}: result")
                bad = C.unlocated(getattr(r.value, "diagnostics", []))
                if bad:  # validate's report: every finding has a code and a place
                    tally.find(f"{label}: {what}: findings without a code or a location: "
                               f"{bad[:3]}")
                said = getattr(r.value, "diagnostics", None)
                if said is None:  # the scenario runner: its problems as lines
                    said = [x for x in r.value if isinstance(x, str)] \
                        if isinstance(r.value, list) else []
                machine = C.machine_words(said)
                if machine:
                    tally.find(f"{label}: {what}: findings in pydantic's words: "
                               f"{machine[:3]}")
        if subprocess_every and i % subprocess_every == 0:
            args = [*CLI[kind], str(folder if kind == "manifest" else f)]
            rc, o, e, secs = C.cli(*args)
            tally.timed(f"rootlaw {CLI[kind][0]} (subprocess)", secs, label)
            finding = C.cli_finding(rc, o, e, secs)
            if finding:
                tally.find(f"{label}: rootlaw {' '.join(CLI[kind])}: {finding}")
        if len(body) > 2**20:
            shutil.rmtree(folder)  # keep the big ones out of /tmp
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--huge", action="store_true", help="some inputs of 50 MB")
    ap.add_argument("--subprocess-every", type=int, default=40)
    a = ap.parse_args(argv)
    tally = campaign(a.count, a.seed, a.out, big=a.huge, subprocess_every=a.subprocess_every)
    print(tally.summary())
    return 1 if tally.findings else 0


if __name__ == "__main__":
    sys.exit(main())
