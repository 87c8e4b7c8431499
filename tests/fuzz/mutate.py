"""Mutation fuzzing of content: mutate real documents, validate, play what validates.

Each mutant starts from one document (``common.sources()``: the base map, deck and
factions, the example packs' maps, patches and manifests) and gets one to three
mutations. Some are generic, chosen by the JSON type of a random node: a number becomes
0, negative, huge or another value seen under the same key; a string becomes another id
seen under the same key (a valid swap), an id of another kind, or garbage; a key is
deleted; a value changes type; a list loses, repeats, reorders or gains an item (taken
from a list of the same name anywhere in the content: a step, a menu entry, an effect
op, an ability, a card, a clearing). Others know the content: a faction loses its
warrior or gains a second one, a track row changes length, a piece is renamed
consistently (legitimate content the engine has never seen), a faction is cloned under
new ids (a fourth faction), a second mutated faction joins the pack (two odd factions
seated together), a program or a menu is emptied, a zone, a box, an effect or a trigger
changes its parameters, a faction gains a cycle (its stages' hooks grafted from other
factions' steps) or a cycle's stages, moves and stage hooks change; a map loses a path,
a corner, a clearing (with every reference to it) or gains one; a deck loses all cards
of a kind or gets other counts; a patch gets pointers that do not resolve or operations
on real paths of its target; a manifest requires, lists or defaults to what is not
there.

The oracle, for each mutant (a pack folder that replaces or patches the base game):

1. ``validate([pack])`` returns within 2 s without a traceback, every finding has a
   code and a location (a file, and a line or a JSON pointer) and is in the author's
   words, not pydantic's ("Field required" ...: issue 12); a few mutants are also
   validated by ``rootlaw validate --strict`` in a subprocess (exit 0, 1 or 2, no
   traceback).
2. When it reports no error (warnings allowed), ``resolve([pack])`` accepts it and
   random games are played on it (every faction in a shuffled seat order, and a random
   pair), the invariant checker after every decision, up to a decision cap: a crash, an
   invariant violation, a decision with no legal action or a game that does not end is
   a finding ("broken but clean").  A game the cap stops is played on without the
   checker to a much larger cap: one that then ends is a long game (a note), one that
   does not is a finding.
3. ``--compiled N``: the first N clean mutants are also compiled (about 25 s each) and
   played on both cores, decision by decision (``cores_agree``).

    python -m tests.fuzz.mutate --count 600 --seed 1 --out /tmp/fuzz-mutants
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import shutil
import string
import sys
from collections.abc import Callable
from pathlib import Path

from . import common as C

Node = tuple  # a path of keys and indexes from the document's root

# ---------------------------------------------------------------------- walking


def nodes(x: object, path: Node = ()) -> list[tuple[Node, object]]:
    out = [(path, x)]
    if isinstance(x, dict):
        for k, v in x.items():
            out += nodes(v, (*path, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += nodes(v, (*path, i))
    return out


def get(doc: object, path: Node) -> object:
    for p in path:
        doc = doc[p]  # type: ignore[index]
    return doc


def key_of(path: Node) -> str:
    """The name a value stands under: its key, or its list's key for a list item."""
    for p in reversed(path):
        if isinstance(p, str):
            return p
    return ""


def setv(doc: object, path: Node, value: object) -> None:
    get(doc, path[:-1])[path[-1]] = value  # type: ignore[index]


def delete(doc: object, path: Node) -> None:
    parent = get(doc, path[:-1])
    del parent[path[-1]]  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- pools


class Pools:
    """Values seen in the content, by the key they stand under: what a valid swap draws
    from (a building for a building, an op for an op ...)."""

    def __init__(self, docs: list[object]) -> None:
        self.strings: dict[str, list[str]] = {}
        self.ints: dict[str, list[int]] = {}
        self.items: dict[str, list[object]] = {}  # list items by the list's key
        self.entries: dict[str, list[tuple[str, object]]] = {}  # dict entries by key
        for doc in docs:
            for path, v in nodes(doc):
                k = key_of(path)
                if isinstance(v, bool):
                    continue
                if isinstance(v, str):
                    self._add(self.strings, k, v)
                elif isinstance(v, int):
                    self._add(self.ints, k, v)
                elif isinstance(v, list) and path and isinstance(path[-1], str):
                    for item in v:
                        self._add(self.items, path[-1], item)
                elif isinstance(v, dict) and path and isinstance(path[-1], str):
                    for kk, vv in v.items():
                        self._add(self.entries, path[-1], (kk, vv))
        self.all_strings = sorted({s for v in self.strings.values() for s in v})

    @staticmethod
    def _add(table: dict, key: str, value: object) -> None:
        bucket = table.setdefault(key, [])
        if value not in bucket:
            bucket.append(value)


# ---------------------------------------------------------------------- generic mutations

EDGE_INTS = [0, -1, 1, 2, 3, 5, 7, 30, 63, 64, 65, 99, 100, 101, 1000, 10**6, 2**31,
             2**63, -(2**63) - 1, 10**30]
GARBAGE = [None, True, False, "", "x", "nope", "Bad Id", "a" * 80, "🦊", 0, -1, 1.5, [], {},
           [1, 2], {"x": 1}, "1", "true"]


def _pick(rng: random.Random, doc: object, want: Callable[[Node, object], bool]
          ) -> tuple[Node, object] | None:
    got = [(p, v) for p, v in nodes(doc) if p and p[0] != "$schema" and want(p, v)]
    return rng.choice(got) if got else None


def g_number(doc, rng, pools):
    hit = _pick(rng, doc, lambda p, v: isinstance(v, int) and not isinstance(v, bool))
    if not hit:
        return None
    path, v = hit
    seen = pools.ints.get(key_of(path), [])
    new = rng.choice([v + 1, v - 1, v * 2, *rng.sample(EDGE_INTS, 3),
                      *(rng.sample(seen, min(2, len(seen))))])
    setv(doc, path, new)
    return f"number {C_ptr(path)} {v} -> {new}"


def g_string(doc, rng, pools):
    hit = _pick(rng, doc, lambda p, v: isinstance(v, str))
    if not hit:
        return None
    path, v = hit
    same = [s for s in pools.strings.get(key_of(path), []) if s != v]
    r = rng.random()
    if same and r < 0.55:
        new = rng.choice(same)  # a valid swap: another value of the same kind
    elif r < 0.8:
        new = rng.choice(pools.all_strings)  # a value of another kind
    else:
        new = rng.choice(["nope", "", "Bad Id", "a" * 70, "x" * 5000, "\u0000", "🦊",
                          v.upper(), v + "-", "-" + v])
    setv(doc, path, new)
    return f"string {C_ptr(path)} {v!r} -> {new!r}"[:200]


def g_bool(doc, rng, pools):
    hit = _pick(rng, doc, lambda p, v: isinstance(v, bool))
    if not hit:
        return None
    path, v = hit
    setv(doc, path, not v)
    return f"flip {C_ptr(path)}"


def g_delete(doc, rng, pools):
    hit = _pick(rng, doc, lambda p, v: True)
    if not hit:
        return None
    path, _ = hit
    delete(doc, path)
    return f"delete {C_ptr(path)}"


def g_type(doc, rng, pools):
    hit = _pick(rng, doc, lambda p, v: True)
    if not hit:
        return None
    path, v = hit
    new = rng.choice(GARBAGE)
    setv(doc, path, copy.deepcopy(new))
    return f"type {C_ptr(path)} -> {json.dumps(new)[:40]}"


def g_list(doc, rng, pools):
    hit = _pick(rng, doc, lambda p, v: isinstance(v, list))
    if not hit:
        return None
    path, v = hit
    assert isinstance(v, list)
    k = key_of(path)
    ops = ["empty", "insert"]
    if v:
        ops += ["drop", "dup", "reorder", "drop", "dup"]
    op = rng.choice(ops)
    if op == "empty":
        v.clear()
    elif op == "drop":
        del v[rng.randrange(len(v))]
    elif op == "dup":
        i = rng.randrange(len(v))
        v.insert(rng.randrange(len(v) + 1), copy.deepcopy(v[i]))
    elif op == "reorder":
        rng.shuffle(v)
    else:
        pool = pools.items.get(k) or list(v) or [1]
        v.insert(rng.randrange(len(v) + 1), copy.deepcopy(rng.choice(pool)))
    return f"list {op} {C_ptr(path)}"


def g_dict(doc, rng, pools):
    """A dict gains an entry seen under its key elsewhere, or one of its keys renamed."""
    hit = _pick(rng, doc, lambda p, v: isinstance(v, dict) and bool(p))
    if not hit:
        return None
    path, v = hit
    assert isinstance(v, dict)
    pool = pools.entries.get(key_of(path), [])
    if pool and rng.random() < 0.5:
        kk, vv = rng.choice(pool)
        v[kk] = copy.deepcopy(vv)
        return f"dict add {C_ptr(path)}/{kk}"
    if not v:
        return None
    old = rng.choice(list(v))
    new = rng.choice([old + "s", old.upper(), "x", old[:-1] or "y"])
    v[new] = v.pop(old)
    return f"dict rename {C_ptr(path)}/{old} -> {new}"


GENERIC = [g_number, g_number, g_string, g_string, g_string, g_bool, g_delete, g_type,
           g_list, g_list, g_list, g_dict]


def C_ptr(path: Node) -> str:
    return "/" + "/".join(map(str, path))


# ---------------------------------------------------------------------- faction mutations


def _replace_everywhere(doc: object, old: str, new: str) -> object:
    """Every string equal to old (values and dict keys) becomes new."""
    if isinstance(doc, dict):
        return {(new if k == old else k): _replace_everywhere(v, old, new)
                for k, v in doc.items()}
    if isinstance(doc, list):
        return [_replace_everywhere(v, old, new) for v in doc]
    return new if doc == old else doc


def _fresh(rng: random.Random, prefix: str = "") -> str:
    return prefix + "".join(rng.choice(string.ascii_lowercase) for _ in range(6))


def f_rename(doc, rng, pools):
    """Rename a piece, zone, box, ability, column, role, cycle, stage or hook everywhere:
    the same content under other names (it must still validate and play)."""
    names = list(doc.get("pieces", {}))
    names += [x["id"] for k in ("zones", "boxes", "abilities", "columns", "roles", "cards",
                                "cycles")
              for x in doc.get(k, []) if isinstance(x, dict) and "id" in x]
    names += list(doc.get("hooks", {}))
    names += [st for cy in doc.get("cycles", []) if isinstance(cy, dict)
              for st in cy.get("stages", []) if isinstance(st, str)]
    if not names:
        return None
    old = rng.choice(names)
    return ("rename", old, _fresh(rng, "r-"))


def f_clone(doc, rng, pools):
    """A new faction: this one under new ids (the bundle then has four factions)."""
    return ("clone",)


def f_warrior(doc, rng, pools):
    pieces = doc.get("pieces", {})
    warriors = [k for k, p in pieces.items() if isinstance(p, dict) and p.get("kind") == "warrior"]
    if not warriors:
        return None
    w = warriors[0]
    r = rng.random()
    if r < 0.4:
        del pieces[w]
        return f"faction loses its warrior {w}"
    if r < 0.7:
        pieces[_fresh(rng, "w-")] = {"kind": "warrior", "count": rng.choice([1, 5, 20])}
        return "faction gains a second warrior"
    pieces[w]["count"] = rng.choice([1, 2, 3, 64])
    return f"warrior count {pieces[w]['count']}"


def f_piece_count(doc, rng, pools):
    """A piece's count changes with its track rows resized to match (valid content with
    other numbers), or without (TRACK-LENGTH)."""
    pieces = doc.get("pieces", {})
    if not pieces:
        return None
    pid = rng.choice(list(pieces))
    p = pieces[pid]
    n = rng.choice([1, 2, 3, p.get("count", 1) + 1, max(1, p.get("count", 1) - 1), 12, 64])
    p["count"] = n
    consistent = rng.random() < 0.6
    track = p.get("track")
    if consistent and isinstance(track, dict):
        for row in ("cost", "vp"):
            vals = track.get(row)
            if vals:
                track[row] = (vals + [vals[-1]] * n)[:n]
        if track.get("draw_at"):
            track["draw_at"] = [t for t in track["draw_at"] if t <= n] or [n]
    return f"piece {pid} count {n} ({'tracks resized' if consistent else 'tracks kept'})"


def f_piece_kind(doc, rng, pools):
    pieces = doc.get("pieces", {})
    if not pieces:
        return None
    pid = rng.choice(list(pieces))
    new = rng.choice(["warrior", "building", "token"])
    pieces[pid]["kind"] = new
    return f"piece {pid} kind -> {new}"


def f_track(doc, rng, pools):
    pieces = {k: p for k, p in doc.get("pieces", {}).items() if isinstance(p, dict)}
    if not pieces:
        return None
    pid = rng.choice(list(pieces))
    p = pieces[pid]
    track = p.setdefault("track", {})
    row = rng.choice(["cost", "vp", "draw_at"])
    n = p.get("count", 1)
    size = rng.choice([0, 1, n - 1, n, n + 1, 2 * n])
    if row == "draw_at":
        vals = sorted(rng.sample(range(0, n + 3), min(max(size, 0), n + 3)))
    else:
        vals = [rng.choice([0, 1, 2, 3, 5, 100]) for _ in range(max(size, 0))]
    track[row] = vals
    return f"track {pid}/{row} = {vals}"


def f_program(doc, rng, pools):
    """Empty, move or repeat a step; empty a menu or an effect program."""
    programs: list[tuple[Node, list]] = []
    for path, v in nodes(doc):
        if isinstance(v, list) and path and path[-1] in (
                "setup", "birdsong", "daylight", "evening", "menu", "do") or \
                (isinstance(v, list) and len(path) == 2 and path[0] == "hooks"):
            programs.append((path, v))
    if not programs:
        return None
    path, prog = rng.choice(programs)
    op = rng.choice(["empty", "move", "repeat", "insert"])
    if op == "empty" or not prog:
        prog.clear()
        return f"empty {C_ptr(path)}"
    if op == "repeat":
        i = rng.randrange(len(prog))
        prog.insert(i, copy.deepcopy(prog[i]))
        return f"repeat {C_ptr(path)}/{i}"
    if op == "insert":
        pool = pools.items.get(path[-1] if isinstance(path[-1], str) else "setup", [])
        if path[-1] in ("setup", "birdsong", "daylight", "evening") or path[0] == "hooks":
            pool = [x for k in ("setup", "birdsong", "daylight", "evening")
                    for x in pools.items.get(k, [])]
        if not pool:
            return None
        prog.insert(rng.randrange(len(prog) + 1), copy.deepcopy(rng.choice(pool)))
        return f"insert into {C_ptr(path)}"
    # move a step into another program of the same family
    i = rng.randrange(len(prog))
    step = prog.pop(i)
    inner = path[-1] in ("menu", "do")
    same = [(p, v) for p, v in programs if (p[-1] in ("menu", "do")) == inner]
    dest_path, dest = rng.choice(same)
    dest.insert(rng.randrange(len(dest) + 1), step)
    return f"move {C_ptr(path)}/{i} -> {C_ptr(dest_path)}"


def f_ability(doc, rng, pools):
    """Add an ability seen anywhere (a faction's or a card's), or change an effect's
    or a trigger's parameters."""
    abilities = doc.setdefault("abilities", [])
    r = rng.random()
    effects = [a for a in abilities
               if isinstance(a, dict) and a.get("kind") in ("effect", "trigger")]
    if r < 0.4 or not effects:
        pool = [a for a in pools.items.get("abilities", []) if isinstance(a, dict)]
        if not pool:
            return None
        a = copy.deepcopy(rng.choice(pool))
        if rng.random() < 0.5 and isinstance(a, dict):
            a["id"] = _fresh(rng, "a-")
        abilities.append(a)
        return f"ability added: {a.get('kind')} {a.get('id')}"
    a = rng.choice(effects)
    field_, values = rng.choice([
        ("timing", ["start_of_birdsong", "start_of_daylight", "start_of_evening", "birdsong",
                    "daylight", "evening", "battle_before_roll", "battle_after_roll"]),
        ("target", ["none", "other_player", "other_player_with_cards", "own_warrior",
                    "clearing"]),
        ("side", ["attacker", "defender", "any"]),
        ("mandatory", [True, False]),
        ("cost", ["none", "discard"]),
        ("on", ["pieces_removed", "warriors_moved_in"]),
        ("by", ["enemy", "any"]),
        ("actor", ["self", "other"]),
        ("pieces", [[], list(doc.get("pieces", {}))[:2], list(doc.get("pieces", {}))]),
        ("token", [None, *list(doc.get("pieces", {}))]),
    ])
    v = rng.choice(values)
    if v is None:
        a.pop(field_, None)
    else:
        a[field_] = v
    return f"ability {a.get('id')}: {field_} = {v}"


def f_zone_box(doc, rng, pools):
    zones, boxes = doc.get("zones", []), doc.get("boxes", [])
    pieces = list(doc.get("pieces", {}))
    r = rng.random()
    if zones and r < 0.4:
        z = rng.choice(zones)
        what = rng.choice(["capacity", "unlimited_while", "drop"])
        if what == "capacity":
            z["capacity"] = rng.choice([0, 1, 2, 100, None])
            if z["capacity"] is None:
                del z["capacity"]
        elif what == "unlimited_while":
            z["unlimited_while"] = rng.sample(pieces, min(len(pieces), rng.randrange(3)))
        else:
            zones.remove(z)
        return f"zone {z.get('id')}: {what}"
    if boxes and r < 0.7:
        b = rng.choice(boxes)
        if rng.random() < 0.5 and pieces:
            b["piece"] = rng.choice(pieces)
            return f"box {b.get('id')} holds {b['piece']}"
        boxes.remove(b)
        return f"box {b.get('id')} dropped"
    if pieces:
        pid = rng.choice(pieces)
        n = rng.choice([1, 2, 3, None])
        if n is None:
            doc["pieces"][pid].pop("per_clearing", None)
        else:
            doc["pieces"][pid]["per_clearing"] = n
        return f"per_clearing {pid} = {n}"
    return None


def f_order(doc, rng, pools):
    v = rng.choice([0, 1, 2, 3, 100])
    doc["setup_order"] = v
    return f"setup_order {v}"


def f_actions_count(doc, rng, pools):
    steps = [(p, v) for p, v in nodes(doc) if isinstance(v, dict) and v.get("op") == "actions"]
    if not steps:
        return None
    path, s = rng.choice(steps)
    boxes = [b.get("id") for b in doc.get("boxes", []) if isinstance(b, dict)]
    s["count"] = rng.choice([0, 1, 2, 5, None, *({"box": b} for b in boxes)])
    return f"actions {C_ptr(path)} count {s['count']}"


PIECE_KEYS = ("piece", "building", "buildings", "token", "pay_token", "bonus_building",
              "bonus_buildings", "pieces", "unlimited_while")


def _piece_kinds() -> dict[str, str]:
    """Every piece id of the content and its kind (for grafts)."""
    out: dict[str, str] = {}
    for s in C.sources():
        if s.kind == "faction":
            for pid, p in s.data.get("pieces", {}).items():
                out[pid] = p["kind"]
    return out


def _remap(x: object, key: str, doc: dict, kinds: dict[str, str],
           rng: random.Random) -> object:
    """A grafted entry's references made this faction's: a piece for a piece of the same
    kind, a zone, a box or a hook it has (created when it has none)."""
    mine = doc.setdefault("pieces", {})
    if isinstance(x, dict) and x.get("op") in ("run_stage", "advance_cycle"):
        x = _remap_cycle(x, doc, rng)
    if isinstance(x, dict):
        return {k: _remap(v, k, doc, kinds, rng) for k, v in x.items()}
    if isinstance(x, list):
        out = [_remap(v, key, doc, kinds, rng) for v in x]
        if key in PIECE_KEYS:  # two pieces remapped to one: named once (ID-DUP aside)
            out = [v for i, v in enumerate(out) if v not in out[:i]]
        return out
    if not isinstance(x, str):
        return x
    if key in PIECE_KEYS and x in kinds and x not in mine:
        same = [pid for pid, p in mine.items() if isinstance(p, dict) and
                p.get("kind") == kinds[x]]
        if same:
            return rng.choice(same)
        # A piece of its own (another faction's id would clash: ID-DUP across factions).
        mine[f"{x}-g"] = {"kind": kinds[x], "count": rng.choice([1, 3, 6])}
        return f"{x}-g"
    if key == "zone":
        zones = doc.setdefault("zones", [])
        if not any(z.get("id") == x for z in zones):
            if zones:
                return rng.choice(zones)["id"]
            zones.append({"id": x})
        return x
    if key == "box":
        boxes = doc.setdefault("boxes", [])
        if not any(b.get("id") == x for b in boxes):
            if boxes:
                return rng.choice(boxes)["id"]
            w = next((pid for pid, p in mine.items() if p.get("kind") == "warrior"), "w")
            boxes.append({"id": x, "piece": w})
        return x
    if key == "on_fail":
        doc.setdefault("hooks", {}).setdefault(x, [{"op": "end_phase"}])
    return x


def _remap_cycle(step: dict, doc: dict, rng: random.Random) -> dict:
    """A grafted run_stage or advance_cycle made to move or read one of this faction's
    cycles (its stages' hooks this faction's hooks), when it has any."""
    cycles = [c for c in doc.get("cycles", []) if isinstance(c, dict) and
              isinstance(c.get("stages"), list) and c["stages"]]
    if not cycles:
        return step
    cy = rng.choice(cycles)
    step = {**step, "cycle": cy.get("id")}
    hooks = list(doc.get("hooks", {}))
    if step["op"] == "run_stage" and hooks:
        stages = [st for st in cy["stages"] if isinstance(st, str)]
        step["hooks"] = {st: rng.choice(hooks)
                         for st in rng.sample(stages, rng.randrange(1, len(stages) + 1))}
    return step


KINDS = _piece_kinds()


def f_graft(doc, rng, pools):
    """A step, a menu entry, an ability or an effect op of another faction (or a card)
    grafted on, its references remapped to this faction's pieces, zones and boxes: new
    combinations of primitives that validate (or should say why not)."""
    what = rng.choice(["step", "step", "menu", "ability", "op"])
    if what == "step":
        pool = [x for k in ("setup", "birdsong", "daylight", "evening")
                for x in pools.items.get(k, []) if isinstance(x, dict)]
        phase = rng.choice(["setup", "birdsong", "daylight", "evening"])
        prog = doc["setup"] if phase == "setup" else \
            doc.setdefault("turn", {}).setdefault(phase, [])
    elif what == "menu":
        pool = [x for x in pools.items.get("menu", []) if isinstance(x, dict)]
        menus = [v for p, v in nodes(doc) if isinstance(v, list) and p and p[-1] == "menu"]
        if not menus:
            return None
        prog = rng.choice(menus)
    elif what == "ability":
        pool = [x for x in pools.items.get("abilities", []) if isinstance(x, dict)]
        prog = doc.setdefault("abilities", [])
    else:
        pool = [x for k in ("do", "on_craft") for x in pools.items.get(k, [])
                if isinstance(x, dict)]
        progs = [v for p, v in nodes(doc) if isinstance(v, list) and p and p[-1] == "do"]
        if not progs:
            return None
        prog = rng.choice(progs)
    entry = copy.deepcopy(rng.choice(pool))
    entry = _remap(entry, "", doc, KINDS, rng)
    if what == "ability":
        entry["id"] = _fresh(rng, "g-")
    prog.insert(rng.randrange(len(prog) + 1), entry)
    label = entry.get("op") or entry.get("action") or entry.get("kind")
    return f"graft {what} {label}"


def f_grow(doc, rng, pools):
    """Many more of something: pieces, abilities, zones, boxes, roles, columns, cards,
    steps of a program, entries of a menu (the engine's limits: ENGINE-LIMIT)."""
    n = rng.choice([5, 20, 60, 70, 200])
    what = rng.choice(["pieces", "abilities", "zones", "boxes", "roles", "columns", "cards",
                       "program", "menu"])
    if what in ("program", "menu"):
        # A program (setup, phase, hook) or a menu grown by repeating its own entries:
        # long turns (ENGINE-LIMIT past 1000 steps), one action offered many times.
        key = ("menu",) if what == "menu" else ("setup", "birdsong", "daylight", "evening")
        lists = [v for p, v in nodes(doc) if isinstance(v, list) and v and p and
                 (p[-1] in key or (what == "program" and len(p) == 2 and p[0] == "hooks"))]
        if not lists:
            return None
        prog = rng.choice(lists)
        n = len(prog) * rng.choice([2, 20]) if what == "menu" else \
            rng.choice([2 * len(prog), 200, 1001, 3000])
        prog[:] = [copy.deepcopy(x) for x in (prog * (n // len(prog) + 1))[:max(n, len(prog))]]
        return f"grow a {what} to {len(prog)}"
    if what == "pieces":
        for i in range(n):
            doc.setdefault("pieces", {})[f"grown-{i}"] = {
                "kind": rng.choice(["building", "token"]), "count": rng.choice([1, 64])}
        return f"grow {n} pieces"
    items = doc.get(what) or pools.items.get(what, [])
    items = [x for x in items if isinstance(x, dict)]
    if not items:
        return None
    model = rng.choice(items)
    doc[what] = list(doc.get(what, [])) + \
        [{**copy.deepcopy(model), "id": f"grown-{i}"} for i in range(n)]
    return f"grow {n} {what}"


def f_cycle(doc, rng, pools):
    """Cycles (a marker going round stages; run_stage runs the hook of the stage it is
    at, advance_cycle moves it): a faction gains one, its stages' hooks made of steps
    grafted from any faction; or a cycle's stages, moves, stage hooks or forest scoring
    change."""
    cycles = [c for c in doc.get("cycles", []) if isinstance(c, dict)]
    turn = doc.setdefault("turn", {})
    phases = ["birdsong", "daylight", "evening"]
    if not cycles or rng.random() < 0.3:
        cid = _fresh(rng, "c-")
        stages = [_fresh(rng, "s-") for _ in range(rng.choice([1, 2, 2, 3, 4, 5, 8]))]
        doc.setdefault("cycles", []).append({"id": cid, "stages": stages})
        hooks = doc.setdefault("hooks", {})
        pool = [x for k in phases for x in pools.items.get(k, []) if isinstance(x, dict)]
        mapping = {}
        for st in rng.sample(stages, rng.randrange(1, len(stages) + 1)):
            h = _fresh(rng, "h-")
            hooks[h] = [_remap(copy.deepcopy(rng.choice(pool)), "", doc, KINDS, rng)
                        for _ in range(rng.choice([1, 1, 2, 3]))]
            mapping[st] = h
        prog = turn.setdefault(rng.choice(phases), [])
        prog.insert(rng.randrange(len(prog) + 1),
                    {"op": "run_stage", "cycle": cid, "hooks": mapping})
        if rng.random() < 0.85:
            prog = turn.setdefault(rng.choice(phases), [])
            prog.insert(rng.randrange(len(prog) + 1), {
                "op": "advance_cycle", "cycle": cid,
                "by": rng.choice([1, 1, 2, len(stages), 7])})
        return f"a new cycle {cid} of {len(stages)} stages, hooks at {sorted(mapping)}"
    cy = rng.choice(cycles)
    stages = cy.get("stages")
    steps = [v for _, v in nodes(doc) if isinstance(v, dict) and v.get("cycle") == cy.get("id")]
    what = rng.choice(["stages", "stages", "by", "hooks", "hooks", "drop step", "forests"])
    if what == "stages" and isinstance(stages, list) and stages:
        how = rng.choice(["drop", "repeat", "add", "one", "shuffle"])
        if how == "drop":
            stages.pop(rng.randrange(len(stages)))
        elif how == "repeat":
            stages.append(rng.choice(stages))
        elif how == "add":
            stages.insert(rng.randrange(len(stages) + 1), _fresh(rng, "s-"))
        elif how == "one":
            del stages[1:]
        else:
            rng.shuffle(stages)
        return f"cycle {cy.get('id')}: stages {how} -> {stages}"
    if what == "by":
        moves = [x for x in steps if x.get("op") == "advance_cycle"]
        if not moves:
            return None
        m = rng.choice(moves)
        m["by"] = rng.choice([1, 2, 3, 4, 8, 15, 0, 16])
        return f"cycle {cy.get('id')}: advance by {m['by']}"
    if what == "hooks":
        runs = [x for x in steps if x.get("op") == "run_stage" and
                isinstance(x.get("hooks"), dict)]
        if not runs:
            return None
        run = rng.choice(runs)
        hooks = list(doc.get("hooks", {})) + ["nope"]
        stage = rng.choice(list(stages or []) + ["nope"]) if rng.random() < 0.6 else \
            rng.choice(list(run["hooks"]) or ["nope"])
        if rng.random() < 0.2:
            run["hooks"].pop(stage, None)
            return f"cycle {cy.get('id')}: no hook at {stage}"
        run["hooks"][stage] = rng.choice(hooks)
        return f"cycle {cy.get('id')}: at {stage} hook {run['hooks'][stage]}"
    if what == "drop step" and steps:
        gone = rng.choice(steps)
        for _, prog in nodes(doc):
            if isinstance(prog, list) and any(x is gone for x in prog):
                prog[:] = [x for x in prog if x is not gone]
        return f"cycle {cy.get('id')}: {gone.get('op')} dropped"
    scoring = [v for _, v in nodes(doc) if isinstance(v, dict) and v.get("op") == "score_forests"]
    if scoring:
        sf = rng.choice(scoring)
        sf[rng.choice(["min", "vp"])] = rng.choice([1, 2, 3, 4, 6, 64, 100])
        return f"score_forests min {sf.get('min')} vp {sf.get('vp')}"
    return None


FACTION = [f_grow, f_graft, f_graft, f_graft, f_rename, f_rename, f_clone, f_warrior, f_piece_count,
           f_piece_count, f_piece_kind, f_track, f_track, f_program, f_program, f_program,
           f_ability, f_ability, f_zone_box, f_zone_box, f_order, f_actions_count, f_cycle,
           f_cycle]


# ---------------------------------------------------------------------- map mutations


def m_paths(doc, rng, pools):
    ids = [c["id"] for c in doc.get("clearings", []) if isinstance(c, dict) and "id" in c]
    group = rng.choice(["paths", "paths", "rivers"])
    links = doc.setdefault(group, [])
    if links and rng.random() < 0.6:
        dropped = [links.pop(rng.randrange(len(links))) for _ in range(rng.choice([1, 1, 3]))
                   if links]
        return f"{group}: dropped {dropped}"
    if len(ids) < 2:
        return None
    a, b = rng.sample(ids, 2)
    links.append([a, b])
    return f"{group}: added {a}-{b}"


def m_clearing(doc, rng, pools):
    cl = [c for c in doc.get("clearings", []) if isinstance(c, dict)]
    if not cl:
        return None
    c = rng.choice(cl)
    what = rng.choice(["slots", "ruin", "corner", "suit", "remove", "add"])
    if what == "slots":
        c["slots"] = rng.choice([0, 1, 2, 3, 6])
    elif what == "ruin":
        c["ruin"] = not c.get("ruin", False)
    elif what == "corner":
        c["corner"] = not c.get("corner", False)
    elif what == "suit":
        c["suit"] = rng.choice(["fox", "rabbit", "mouse"])
    elif what == "remove":
        # The clearing and every reference to it: a smaller, consistent map.
        cid = c["id"]
        doc["clearings"] = [x for x in doc["clearings"] if x is not c]
        for g in ("paths", "rivers", "opposite_corners"):
            doc[g] = [p for p in doc.get(g, []) if cid not in p]
        for f in doc.get("forests", []):
            f["clearings"] = [x for x in f.get("clearings", []) if x != cid]
        return f"clearing {cid} removed with its links"
    else:
        new = max(x.get("id", 0) for x in cl) + 1
        doc["clearings"].append({"id": new, "suit": rng.choice(["fox", "rabbit", "mouse"]),
                                 "slots": rng.choice([1, 2, 3])})
        doc.setdefault("paths", []).append([new, c["id"]])
        return f"clearing {new} added next to {c['id']}"
    return f"clearing {c.get('id')}: {what} -> {c.get(what)}"


def m_corners(doc, rng, pools):
    oc = doc.get("opposite_corners", [])
    ids = [c["id"] for c in doc.get("clearings", []) if isinstance(c, dict)]
    what = rng.choice(["clear", "scramble", "swap-one", "all-corners"])
    if what == "clear":
        doc["opposite_corners"] = []
    elif what == "scramble" and len(ids) >= 2:
        doc["opposite_corners"] = [rng.sample(ids, 2) for _ in range(rng.randrange(1, 3))]
    elif what == "swap-one" and oc:
        oc[0] = list(reversed(oc[0]))
        oc.append(list(oc[0]))
    else:
        for c in doc.get("clearings", []):
            c["corner"] = rng.random() < 0.5
    return f"opposite_corners {what}"


def m_forests(doc, rng, pools):
    forests = doc.get("forests", [])
    if not forests:
        return None
    what = rng.choice(["drop-all", "drop", "shrink", "adj"])
    if what == "drop-all":
        doc["forests"] = []
        doc["forest_adjacency"] = []
    elif what == "drop":
        f = forests.pop(rng.randrange(len(forests)))
        return f"forest {f.get('id')} dropped"
    elif what == "shrink":
        f = rng.choice(forests)
        f["clearings"] = f.get("clearings", [])[:1]
    else:
        adj = doc.setdefault("forest_adjacency", [])
        f = rng.choice(forests)
        adj.append([f.get("id"), rng.choice(forests).get("id")])
    return f"forests {what}"


def m_grow(doc, rng, pools):
    """Clearings up to the 64 ids a map can have, each joined to a random one."""
    cl = [c for c in doc.get("clearings", []) if isinstance(c, dict)]
    if not cl:
        return None
    top = max(c.get("id", 0) for c in cl)
    n = rng.choice([5, 30, 64 - top, 70 - top])
    for k in range(n):
        new = top + 1 + k
        doc["clearings"].append({"id": new, "suit": rng.choice(["fox", "rabbit", "mouse"]),
                                 "slots": rng.choice([1, 2, 3]),
                                 "corner": rng.random() < 0.1})
        doc.setdefault("paths", []).append([new, rng.choice(cl)["id"]])
    return f"grow {n} clearings"


MAP = [m_grow, m_paths, m_paths, m_clearing, m_clearing, m_clearing, m_corners, m_forests]


# ---------------------------------------------------------------------- deck mutations


def d_cards(doc, rng, pools):
    cards = [c for c in doc.get("cards", []) if isinstance(c, dict)]
    if not cards:
        return None
    what = rng.choice(["count", "drop-kind", "keep-few", "kind", "move-ability", "cost",
                       "all-one", "vp"])
    if what == "count":
        c = rng.choice(cards)
        c["count"] = rng.choice([1, 2, 10, 64])
        return f"card {c['id']} count {c['count']}"
    if what == "drop-kind":
        kind = rng.choice(["item", "ambush", "dominance", "persistent", "immediate"])
        doc["cards"] = [c for c in cards if c.get("kind") != kind]
        return f"cards of kind {kind} dropped"
    if what == "keep-few":
        n = rng.choice([0, 1, 2, 5, 10])
        doc["cards"] = rng.sample(cards, min(n, len(cards)))
        return f"deck keeps {n} cards"
    if what == "kind":
        c = rng.choice(cards)
        old = c.get("kind")
        c["kind"] = rng.choice(["item", "ambush", "dominance", "persistent", "immediate"])
        return f"card {c['id']} kind {old} -> {c['kind']}"
    if what == "move-ability":
        withab = [c for c in cards if c.get("abilities")]
        if not withab:
            return None
        src = rng.choice(withab)
        dst = rng.choice(cards)
        dst.setdefault("abilities", []).append(copy.deepcopy(src["abilities"][0]))
        return f"ability of {src['id']} copied to {dst['id']}"
    if what == "cost":
        c = rng.choice(cards)
        c["cost"] = [rng.choice(["fox", "rabbit", "mouse", "any"])
                     for _ in range(rng.choice([0, 1, 3, 6]))]
        return f"card {c['id']} cost {c['cost']}"
    if what == "all-one":
        for c in cards:
            c["count"] = 1
        return "every card count 1"
    c = rng.choice(cards)
    c["vp"] = rng.choice([0, 5, 29, 30, 100])
    return f"card {c['id']} vp {c['vp']}"


def d_items(doc, rng, pools):
    items = doc.get("items", {})
    if not items:
        return None
    what = rng.choice(["zero", "all-zero", "drop", "many"])
    if what == "zero":
        k = rng.choice(list(items))
        items[k] = 0
    elif what == "all-zero":
        for k in items:
            items[k] = 0
    elif what == "drop":
        items.pop(rng.choice(list(items)))
    else:
        items[rng.choice(list(items))] = 64
    return f"items {what}"


def d_ops(doc, rng, pools):
    """An effect program changes: an op from anywhere, a parameter, an empty program."""
    progs = [(p, v) for p, v in nodes(doc) if isinstance(v, list) and p and
             p[-1] in ("do", "on_craft")]
    if not progs:
        return None
    path, prog = rng.choice(progs)
    what = rng.choice(["insert", "insert", "empty", "param"])
    if what == "empty" or not prog:
        prog.clear()
        return f"empty {C_ptr(path)}"
    if what == "insert":
        pool = pools.items.get("do", []) + pools.items.get("on_craft", [])
        prog.insert(rng.randrange(len(prog) + 1), copy.deepcopy(rng.choice(pool)))
        return f"op inserted into {C_ptr(path)}"
    op = rng.choice(prog)
    k, v = rng.choice([("who", "target"), ("who", "opponent"), ("vp", -5), ("vp", 30),
                       ("count", 100), ("at", "context"), ("suit", "bird"), ("hits", 10),
                       ("vp", {"clearings": {"rule": "self"}})])
    op[k] = v
    return f"op {op.get('op')} {k} = {v}"


def d_grow(doc, rng, pools):
    n = rng.choice([10, 20, 100, 1000])
    cards = [c for c in doc.get("cards", []) if isinstance(c, dict)]
    if not cards:
        return None
    model = rng.choice(cards)
    doc["cards"] = cards + [{**copy.deepcopy(model), "id": f"grown-{i}",
                             "count": rng.choice([1, 64])} for i in range(n)]
    return f"grow {n} cards like {model.get('id')}"


DECK = [d_grow, d_cards, d_cards, d_cards, d_items, d_ops, d_ops]


# ---------------------------------------------------------------------- patches, manifests

BAD_POINTERS = ["/nope", "/turn/daylight/99", "/turn/daylight/-/count", "/turn/~2",
                "/turn/daylight/01/count", "", "/", "/pieces/nope/count", "turn",
                "/turn/daylight/1/count/x", "/kind", "/id", "/-", "/turn/daylight/-1"]


def p_patch(doc, rng, pools, targets):
    """Patch operations: bad pointers, other ops, or real paths of the target changed
    (a patch is the other way to mutate a base document)."""
    ops = doc.setdefault("patch", [])
    what = rng.choice(["real", "real", "real", "pointer", "op", "test", "target"])
    target = targets.get(doc.get("target"))
    if what == "real" and target is not None:
        paths = [p for p, _ in nodes(target) if p and p[0] != "$schema"]
        path = rng.choice(paths)
        v = get(target, path)
        kind = rng.choice(["replace", "remove", "add", "copy", "move"])
        ptr = C_ptr(path).replace("~", "~0")
        if kind == "replace":
            new: object = rng.choice([v + 1 if isinstance(v, int) and not isinstance(v, bool)
                                      else 0, [], {}, None, "nope", 0, 5])
            ops.append({"op": "replace", "path": ptr, "value": new})
        elif kind == "remove":
            ops.append({"op": "remove", "path": ptr})
        elif kind == "add":
            parent = get(target, path[:-1])
            at = ptr if isinstance(parent, dict) else \
                C_ptr(path[:-1]) + "/" + rng.choice(["-", str(path[-1])])
            ops.append({"op": "add", "path": at, "value": copy.deepcopy(v)})
        else:
            other = C_ptr(rng.choice(paths))
            ops.append({"op": kind, "from": ptr, "path": other})
        return f"patch {kind} {ptr}"
    if what == "pointer" and ops:
        o = rng.choice(ops)
        o["path"] = rng.choice(BAD_POINTERS)
        return f"patch pointer {o['path']!r}"
    if what == "op" and ops:
        o = rng.choice(ops)
        o["op"] = rng.choice(["add", "remove", "replace", "move", "copy", "test", "merge"])
        return f"patch op -> {o['op']}"
    if what == "test" and ops:
        ops.insert(0, {"op": "test", "path": rng.choice(BAD_POINTERS + ["/turn/daylight/1/count"]),
                       "value": rng.choice([3, 4, "3", None])})
        return "patch test inserted"
    doc["target"] = rng.choice(["faction:nope", "map:autumn", "deck:standard",
                                "faction:eyrie", "faction:alliance", "pack:base", "marquise"])
    return f"patch target {doc['target']}"


def k_manifest(doc, rng, pools):
    what = rng.choice(["requires", "content", "default_map", "default_deck", "allow_code",
                       "id", "version"])
    if what == "requires":
        doc["requires"] = rng.choice([["nope"], [doc.get("id", "x")], ["base", "base"], [],
                                      ["base", "four-actions"], ["homebrew-map"]])
    elif what == "content":
        doc["content"] = rng.choice([[], ["nope.json"], ["pack.json"], ["../x.json"],
                                     ["/etc/passwd"], [*doc.get("content", [])] * 2,
                                     ["README.md"], ["scenarios"]])
    elif what == "default_map":
        doc["default_map"] = rng.choice(["nope", "autumn", "thicket"])
    elif what == "default_deck":
        doc["default_deck"] = rng.choice(["nope", "standard"])
    elif what == "allow_code":
        doc["allow_code"] = True
    elif what == "id":
        doc["id"] = rng.choice(["base", "x", "four-actions", "homebrew-map"])
    else:
        doc["version"] = "v" * 100
    return f"manifest {what} = {doc.get(what)!r}"[:120]


SEMANTIC: dict[str, list] = {"faction": FACTION, "map": MAP, "deck": DECK}


# ---------------------------------------------------------------------- one mutant


def _rename_faction(data: dict, rng: random.Random) -> dict:
    """The faction under new ids: its own id, its pieces, abilities, cards."""
    new = _fresh(rng, "f-")
    out = copy.deepcopy(data)
    out["id"] = new
    out["setup_order"] = rng.choice([0, 1, 2, 3])
    ids = list(out.get("pieces", {}))
    ids += [x["id"] for k in ("abilities", "cards") for x in out.get(k, [])
            if isinstance(x, dict) and "id" in x]
    for old in ids:
        out = _replace_everywhere(out, old, f"{new}-{old}"[:60])
    return out


def mutant(src: C.Source, rng: random.Random, pools: Pools, targets: dict
           ) -> tuple[object, list[str]]:
    """A mutated copy of the source's data and what was done to it."""
    doc = copy.deepcopy(src.data)
    done: list[str] = []
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        before = copy.deepcopy(doc)
        try:
            doc, d = _mutate_once(src, doc, rng, pools, targets)
        except (TypeError, AttributeError, KeyError, IndexError, ValueError):
            # An earlier mutation left a shape this one does not expect: skip it.
            doc, d = before, None
        if d:
            done.append(d)
    return doc, done


def _mutate_once(src: C.Source, doc, rng: random.Random, pools: Pools,
                 targets: dict) -> tuple[object, str | None]:
    """One mutation: (the document, what was done, or None when nothing was)."""
    sem = SEMANTIC.get(src.kind, [])
    if src.kind == "patch":
        d = p_patch(doc, rng, pools, targets) if rng.random() < 0.7 else \
            rng.choice(GENERIC)(doc, rng, pools)
    elif src.kind == "pack":
        d = k_manifest(doc, rng, pools) if rng.random() < 0.6 else \
            rng.choice(GENERIC)(doc, rng, pools)
    elif sem and rng.random() < 0.6:
        d = rng.choice(sem)(doc, rng, pools)
    else:
        d = rng.choice(GENERIC)(doc, rng, pools)
    if isinstance(d, tuple) and d[0] == "rename":
        _, old, new = d
        return _replace_everywhere(doc, old, new), f"rename {old} -> {new} everywhere"
    if isinstance(d, tuple) and d[0] == "clone":
        doc = _rename_faction(doc, rng)
        return doc, f"clone as a new faction {doc['id']}"
    return doc, d


# ---------------------------------------------------------------------- the oracle


GAME_HANG = 90.0
"""Seconds one checked game may take (a 4000-decision game takes a few): longer is a hang,
a core that loops without asking for a decision."""


def play(bundle, rng: random.Random, *, games: int, cap: int, pure: bool = True,
         label: str = "") -> list[str]:
    """Random games with the invariant checker: what broke ([] when every game ended or
    stopped cleanly; a stopped game is reported with how far a long run gets)."""
    from rootlaw.runtime.conformance import play_checked

    ids = [f.id for f in bundle.factions]
    seatings = [rng.sample(ids, len(ids))[:4]]
    if len(ids) > 2:
        seatings.append(rng.sample(ids, 2))
    problems: list[str] = []
    for k in range(games):
        factions = seatings[k % len(seatings)]
        seed = rng.randrange(1, 10**6)
        out = C.guarded(lambda f=factions, s=seed: play_checked(
            bundle, f, s, max_decisions=cap, pure=pure), slow=3600, hang=GAME_HANG)
        if out.finding:
            problems.append(f"CRASH seats {factions} seed {seed}: {out.finding}")
            continue
        if out.error is not None:
            problems.append(f"REFUSED seats {factions} seed {seed}: {out.error}")
            continue
        g, bad = out.value  # type: ignore[misc]
        if bad:
            problems.append(f"INVARIANT seats {factions} seed {seed}: {bad[0]}")
        elif not g.is_over:
            how = long_run(bundle, factions, seed, pure)
            problems.append(f"NO-END seats {factions} seed {seed}: {how}")
    return problems


def long_run(bundle, factions, seed, pure, cap: int = 100_000) -> str:
    """How a game the cap stopped goes on without the checker (to a larger cap)."""
    from rootlaw.runtime import Game, RandomAgent

    g = Game(factions, seed, bundle=bundle, pure=pure)
    agent = RandomAgent(seed)
    while not g.is_over and len(g.history) < cap:
        legal = g.legal_actions()
        if not legal:
            return f"no legal action after {len(g.history)} decisions"
        g.apply(agent.choose(g, legal))
    if g.is_over:
        return f"ends after {len(g.history)} decisions (winner {g.winner_faction})"
    return f"no winner after {cap} decisions, vp {g.scores}, turn {g.turn}"


def check_mutant(folder: Path, rng: random.Random, tally: C.Tally, label: str, *,
                 subprocess_too: bool, games: int, cap: int) -> str:
    """Validate (and play, when clean) one mutant pack: its verdict."""
    from rootlaw.spec import resolve
    from rootlaw.spec.validate import validate

    v = C.guarded(lambda: validate([folder]))
    tally.timed("validate", v.seconds, label)
    if v.finding:
        tally.find(f"{label}: validate: {v.finding}")
        return "finding"
    if v.error is not None:
        tally.find(f"{label}: validate raised {v.error!r} instead of reporting it")
        return "finding"
    rep = v.value
    bad = C.unlocated(rep.diagnostics)  # type: ignore[attr-defined]
    if bad:
        tally.find(f"{label}: findings without a code or a location: {bad[:3]}")
    machine = C.machine_words(rep.diagnostics)  # type: ignore[attr-defined]
    if machine:
        tally.find(f"{label}: findings in pydantic's words, not the author's: {machine[:3]}")
    codes = sorted({d.code for d in rep.diagnostics if d.severity == "error"})  # type: ignore[attr-defined]
    for c in codes:
        tally.count(f"code {c}")
    if subprocess_too:
        rc, out, err, secs = C.cli("validate", "--strict", str(folder))
        tally.timed("validate (subprocess)", secs, label)
        f = C.cli_finding(rc, out, err, secs)
        if f:
            tally.find(f"{label}: rootlaw validate: {f}")
        want = rep.exit_code(strict=True)  # type: ignore[attr-defined]
        if rc != want:
            tally.find(f"{label}: rootlaw validate --strict exit {rc}, the library says {want}")
    if codes:
        return "reported"
    r = C.guarded(lambda: resolve([folder]))
    tally.timed("resolve", r.seconds, label)
    if r.finding or r.error is not None:
        tally.find(f"{label}: validate is clean but resolve says: {r.finding or r.error}")
        return "finding"
    problems = play(r.value, rng, games=games, cap=cap, label=label)
    broken = [p for p in problems if not _slow_but_ends(p)]
    for p in problems:
        if p in broken:
            tally.find(f"{label}: clean but {p}")
        else:
            tally.note(f"{label}: a long game: {p}")
    return "broken" if broken else "clean"


def _slow_but_ends(problem: str) -> bool:
    """A game the checked cap stopped that ends when played on: a long game on odd
    content (no draw step, few pieces ...), not a broken one."""
    return problem.startswith("NO-END") and ": ends after " in problem


def campaign(count: int, seed: int, out: Path, *, games: int = 2, cap: int = 4000,
             subprocess_every: int = 25, kinds: list[str] | None = None,
             compiled: int = 0, keep: bool = True) -> C.Tally:
    rng = random.Random(seed)
    srcs = [s for s in C.sources() if kinds is None or s.kind in kinds]
    pools = Pools([s.data for s in C.sources()])
    targets = {f"{s.kind}:{s.data['id']}": s.data for s in C.sources()
               if s.kind in ("map", "deck", "faction")}
    tally = C.Tally()
    compiled_left = compiled
    for i in range(count):
        src = srcs[i % len(srcs)]
        data, done = mutant(src, rng, pools, targets)
        folder = out / f"m{i:05d}"
        if folder.exists():
            shutil.rmtree(folder)
        C.write_mutant(src, data, folder)
        label = f"m{i:05d} {src.label} [{'; '.join(done)}]"
        if src.kind == "faction" and src.pack is None and rng.random() < 0.15:
            # A second faction in the same pack, cloned from any faction and mutated: two
            # odd factions that may be seated together (bundle checks, seatings).
            other = rng.choice([s for s in C.sources() if s.kind == "faction"])
            extra, more = mutant(other, rng, pools, targets)
            try:
                extra = _rename_faction(extra, rng)
            except (AttributeError, TypeError, KeyError, IndexError, ValueError):
                extra = _rename_faction(other.data, rng)  # mutated out of shape: as is
                more = []
            C.add_document(folder, "second.json", extra)
            label += f" + second faction {extra['id']} from {other.name} [{'; '.join(more)}]"
        verdict = check_mutant(folder, rng, tally, label,
                               subprocess_too=subprocess_every > 0 and i % subprocess_every == 0,
                               games=games, cap=cap)
        tally.count(f"{src.kind} mutants")
        tally.count(f"verdict {verdict}")
        if verdict == "clean" and compiled_left > 0:
            compiled_left -= 1
            both_cores(folder, rng, tally, label, cap)
        if verdict in ("reported", "clean") and not keep:
            shutil.rmtree(folder)
    return tally


def both_cores(folder: Path, rng: random.Random, tally: C.Tally, label: str, cap: int) -> None:
    """Compile the mutant's core, play on it, and compare it with the pure core: in a
    child process, since a compiled core that loops cannot be interrupted by a signal."""
    import subprocess

    seed = rng.randrange(1, 10**6)
    tally.count("compiled mutants")
    try:
        p = subprocess.run([sys.executable, "-m", "tests.fuzz.mutate", "--compiled-child",
                            str(folder), "--seed", str(seed), "--cap", str(cap)],
                           capture_output=True, text=True, timeout=1200, check=False,
                           cwd=C.ROOT)
    except subprocess.TimeoutExpired:
        tally.find(f"{label}: (compiled) HANG: no result in 20 minutes")
        return
    try:
        problems = json.loads(p.stdout.splitlines()[-1])
    except (IndexError, ValueError):
        tally.find(f"{label}: (compiled) the child failed: {p.stderr[-1500:]}")
        return
    for x in problems:
        if _slow_but_ends(x):
            tally.note(f"{label}: a long game (compiled): {x}")
        else:
            tally.find(f"{label}: clean but (compiled) {x}")


def compiled_child(folder: Path, seed: int, cap: int) -> list[str]:
    from rootlaw.generator.build import compile_core
    from rootlaw.runtime import Game
    from rootlaw.runtime.conformance import cores_agree
    from rootlaw.spec import resolve

    b = resolve([folder])
    compile_core(b)
    rng = random.Random(seed)
    if not Game(None, 1, bundle=b, pure=False).compiled:
        return ["the compiled core did not load"]
    problems = play(b, rng, games=2, cap=cap, pure=False)
    ids = [f.id for f in b.factions]
    diff = cores_agree(b, rng.sample(ids, len(ids)), rng.randrange(1, 10**6), cap)
    return problems + ([f"the cores disagree: {diff}"] if diff else [])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--games", type=int, default=2, help="games per clean mutant")
    ap.add_argument("--cap", type=int, default=4000, help="decisions per checked game")
    ap.add_argument("--kind", action="append", help="only sources of this kind (repeatable)")
    ap.add_argument("--subprocess-every", type=int, default=25)
    ap.add_argument("--compiled", type=int, default=0,
                    help="compile and compare both cores on the first N clean mutants")
    ap.add_argument("--keep", action="store_true", help="keep every mutant's folder")
    ap.add_argument("--compiled-child", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.compiled_child:
        print(json.dumps(compiled_child(a.compiled_child, a.seed, a.cap)))
        return 0
    tally = campaign(a.count, a.seed, a.out, games=a.games, cap=a.cap,
                     subprocess_every=a.subprocess_every, kinds=a.kind, compiled=a.compiled,
                     keep=a.keep)
    print(tally.summary())
    return 1 if tally.findings else 0


if __name__ == "__main__":
    sys.exit(main())
