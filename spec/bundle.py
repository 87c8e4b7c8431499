"""Resolve packs into one Bundle: base content plus mods, merged, patched, checked.

Load order: the base game first, then each pack after the packs it requires; packs that
do not depend on each other load in the order of their ids (so the order packs are
named in never matters).  In that order, each pack's maps, decks and factions are added
(a document of the same kind and id replaces the earlier one), then its patches
(kind 'patch', JSON Patch, see spec/patch.py) change documents of the packs it
requires.  Two packs that do not require each other may not change the same thing: a
document both define or replace, a value both patch differently, a default map both
set (PACK-CONFLICT, naming both).

A required pack that was not named is looked for on the discovery path
(``ROOTLAW_PACK_PATH``: folders, separated like PATH, that hold pack folders).

The bundle's hash covers exactly the content the engine is generated from, so it keys
the build cache; ``records`` say which pack files it came from (id, version and the
hash of the files), for saves and logs.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import heapq
import json
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from .diagnostics import Diagnostic, SpecError, located, unlocated, with_lines
from .jsonio import CONTENT_MAX_BYTES, JsonInputError, read_bytes
from .loader import load_file, load_pack, validate_data
from .models import (
    EFFECT_PARTS,
    ENGINE_STEP_OPS,
    NUMBER_KINDS,
    RESCUE_KIND,
    Actions,
    Battle,
    BoxValue,
    ClearingCount,
    ClearingFilter,
    DeckSpec,
    DiscardAllPart,
    DiscardDownTo,
    DrawPart,
    Effect,
    FactionSpec,
    GivePart,
    HalfValue,
    HitsOp,
    IntoBoxPart,
    LibrarySpec,
    MapSpec,
    Numbers,
    PackSpec,
    Param,
    PatchSpec,
    Program,
    RemovePart,
    Rule,
    ScorePart,
    ShowPart,
    Trigger,
    reads_edge,
    uses_forest_places,
)
from .patch import PatchError, Touch, apply, clash, overlap, parse_pointer, pointer_of
from .words import did_you_mean, unknown_name

BASE_PACK = Path(__file__).resolve().parent / "content" / "base"
STANDARD_LIBRARY = "standard"  # the base pack's library of programs: the engine's own
PACK_PATH_ENV = "ROOTLAW_PACK_PATH"
ALLOW_CODE_ENV = "ROOTLAW_ALLOW_CODE"
# Drawing-only fields (models.py says so in their docs), outside the bundle hash.
_MAP_DRAWING: Any = {"clearings": {"__all__": {"position"}}}
# What the map marks that only a rule reading it makes a rule: a clearing's 'edge' (Law
# G.15), in the hash only of a bundle whose content reads the filter 'edge' (so marking
# the edge on a map keeps the records made on it before valid).
_MAP_UNREAD_EDGE: Any = {"clearings": {"__all__": {"position", "edge"}}}


# A faction's reach (Law 5.2) only recommends tables: not a rule either.
_FACTION_DRAWING: Any = {"color", "reach"}

Content = MapSpec | DeckSpec | FactionSpec | LibrarySpec


@dataclass(frozen=True)
class PackRecord:
    """Which pack files a bundle came from: what saves and logs record.  ``path`` is the
    pack's folder ('' for the base game, which comes with rootlaw)."""

    id: str
    version: str
    hash: str
    path: str = ""

    def as_dict(self) -> dict:
        d = {"id": self.id, "version": self.version, "hash": self.hash}
        if self.path:
            d["path"] = self.path
        return d


@dataclass(frozen=True)
class Applied:
    """One applied patch operation: the pack and file it came from, its index in the
    patch, and what it touched."""

    pack: str
    file: str
    index: int
    touches: tuple[Touch, ...]


@dataclass(frozen=True)
class Bundle:
    """The resolved content one engine is generated from."""

    map: MapSpec
    deck: DeckSpec
    factions: tuple[FactionSpec, ...]
    packs: tuple[str, ...] = ()
    libraries: tuple[LibrarySpec, ...] | None = None
    """The libraries of programs; None: the standard one alone (a bundle made in code)."""
    sources: dict = field(default_factory=dict, compare=False, hash=False)
    records: tuple[PackRecord, ...] = field(default=(), compare=False, hash=False)
    patched: dict = field(default_factory=dict, compare=False, hash=False)
    """'kind:id' -> the patch operations applied to that document (Applied)."""

    def faction(self, fid: str) -> FactionSpec:
        for f in self.factions:
            if f.id == fid:
                return f
        raise SpecError([Diagnostic("REF-UNDEF", unknown_name(
            "faction", fid, [f.id for f in self.factions], list_known=None))])

    @property
    def library(self) -> tuple[LibrarySpec, ...]:
        """Every library of programs the bundle has (the standard one first)."""
        return self.libraries if self.libraries is not None else (standard_library(),)

    @cached_property
    def reads_edge(self) -> bool:
        """Whether the bundle's content reads the map's edge (its marks are rules then:
        in the hash and the core's tables)."""
        return reads_edge((self.library, self.deck, self.factions))

    @cached_property
    def forest_places(self) -> bool:
        """Whether the bundle's content puts pieces in forests (the core keeps each
        forest's pieces then)."""
        return uses_forest_places((self.library, self.deck, self.factions))

    @cached_property
    def programs(self) -> dict[str, Program]:
        """Every named program, by id (a later library's replaces an earlier one's)."""
        return {pid: prog for lib in self.library for pid, prog in lib.programs.items()}

    def canonical(self) -> dict:
        # How pictures draw content (clearing positions, faction colours) is not a rule:
        # left out, so a new colour keeps saves, logs and the built core valid.  The
        # standard library is the engine's (versioned with rootlaw, in the core's key):
        # a pack's own libraries are the pack's rules.
        own = [_with_losses_as_written(lib, _without_added_defaults(
            lib, lib.model_dump(mode="json"), "x-rootlaw-added-library"))
               for lib in self.library if lib.id != STANDARD_LIBRARY]
        return {
            **({"libraries": own} if own else {}),
            "map": _without_added_defaults(self.map, self.map.model_dump(
                mode="json", exclude=_MAP_DRAWING if self.reads_edge else _MAP_UNREAD_EDGE)),
            "deck": _with_losses_as_written(self.deck, _with_effect_op_dumps(
                self.deck, _without_added_defaults(
                    self.deck, self.deck.model_dump(mode="json")))),
            "factions": [_with_columns_as_written(f, _with_losses_as_written(
                f, _with_effect_op_dumps(f, _with_step_defaults(_without_added_defaults(
                    f, f.model_dump(mode="json", exclude=_FACTION_DRAWING)),
                    self.programs))))
                for f in self.factions],
        }

    @cached_property
    def hash(self) -> str:
        """The rules a record (save, log) was made on: the map, deck, factions and the
        packs' own programs."""
        blob = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    @cached_property
    def content_hash(self) -> str:
        """Everything the core is generated from: the rules and every library, the
        standard one too (generator/build.py keys the build cache by it)."""
        blob = json.dumps({"rules": self.hash, "libraries": [
            lib.model_dump(mode="json") for lib in self.library]}, sort_keys=True,
            separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _without_added_defaults(model: Any, dumped: Any, flag: str = "x-rootlaw-added") -> Any:
    """``dumped`` (model's JSON dump) without the fields added to the schema later
    (models.ADDED_LATER; ``flag`` "x-rootlaw-added-library": only those added after
    libraries were hashed, models.ADDED_TO_LIBRARIES) that hold their default, at any
    depth: such a field does not change the hash of content written before it existed."""
    if isinstance(model, BaseModel) and isinstance(dumped, dict):
        for name, info in type(model).model_fields.items():
            key = info.alias if info.alias in dumped else name  # dumped by alias or not
            if key not in dumped:
                continue
            value = getattr(model, name)
            extra = info.json_schema_extra
            if isinstance(extra, dict) and extra.get(flag) and value == info.default:
                del dumped[key]
            else:
                _without_added_defaults(value, dumped[key], flag)
    elif isinstance(model, (list, tuple)) and isinstance(dumped, list):
        for m, d in zip(model, dumped, strict=False):
            _without_added_defaults(m, d, flag)
    elif isinstance(model, dict) and isinstance(dumped, dict):
        for k, m in model.items():
            if k in dumped:
                _without_added_defaults(m, dumped[k], flag)
    return dumped


def _with_losses_as_written(model: Any, dumped: Any) -> Any:
    """``dumped`` (model's dump) with each loss of VP, a 'score' part with 'lose', at any
    depth, dumped as the part 'lose_vp' it was first written as (its 'vp' and 'who'), so
    content written with 'lose_vp' keeps its hash.  A dump already replaced by an older
    op's (_effect_part_dump: a loss of a number is a negative 'score') has no 'lose'
    and is left alone."""
    if isinstance(model, ScorePart) and isinstance(dumped, dict):
        if model.lose and dumped.get("lose") is True:
            dumped.pop("lose")
            dumped["op"] = "lose_vp"
    elif isinstance(model, BaseModel) and isinstance(dumped, dict):
        for name, info in type(model).model_fields.items():
            key = info.alias if info.alias in dumped else name
            if key in dumped:
                _with_losses_as_written(getattr(model, name), dumped[key])
    elif isinstance(model, (list, tuple)) and isinstance(dumped, list):
        for m, d in zip(model, dumped, strict=False):
            _with_losses_as_written(m, d)
    elif isinstance(model, dict) and isinstance(dumped, dict):
        for k, m in model.items():
            if k in dumped:
                _with_losses_as_written(m, dumped[k])
    return dumped


def _with_columns_as_written(faction: FactionSpec, dumped: dict) -> dict:
    """A faction's dump with each column that says what a first spelling said (the
    standard recruit_at or build_ruled at one building) dumped in that spelling, an
    action of the engine's and its 'building' (models.Column.first_spelling), so the
    Eyrie's Decree keeps the hash it had before its columns named programs."""
    for i, col in enumerate(faction.columns):
        first = col.first_spelling()
        if first is not None:
            dumped["columns"][i] = first
    return dumped


def _with_step_defaults(faction: dict, programs: dict[str, Program]) -> dict:
    """A faction's dump with each step that names a program given the defaults of the
    parameters it leaves out: a step dumps as it did when each such step had a model of
    its own, whose defaults were the program's (so records made then keep their hash);
    and the step 'stop' as it was first written, 'end_phase'."""
    phases = faction.get("turn", {})
    for steps in (faction.get("setup", []), *(phases.get(ph, []) for ph in
                                               ("birdsong", "daylight", "evening")),
                  *faction.get("hooks", {}).values()):
        for step in steps:
            if step.get("op") == "stop":
                step["op"] = "end_phase"
                continue  # the engine's step: no program's defaults
            prog = programs.get(step.get("op")) if step.get("op") not in ENGINE_STEP_OPS \
                else None
            for name, param in (prog.params.items() if prog is not None else ()):
                if isinstance(param, Param) and name not in step:
                    step[name] = copy.deepcopy(param.default)
    return faction


_RULED_CLEARINGS = ClearingCount(clearings=ClearingFilter(rule="self"))


def _effect_part_dump(part: Any, dumped: dict) -> dict:
    """An effect program's part dumped as the effect op it replaced was (every field:
    score's 'per' for a count of ruled clearings, a loss as a negative score;
    remove_enemy_pieces' 'suit' for every clearing of a suit, 'at': context for the
    program's clearing; remove_own_warrior; discard_zone_matching; take_random_card,
    look_at_hand and give_card_to_zone: the give and show parts they are), so content
    written then keeps its hash; a part no op could say dumps as itself."""
    if isinstance(part, ScorePart) and not part.lose and part.vp == _RULED_CLEARINGS:
        return {"op": "score", "vp": 1, "per": "ruled_clearing", "who": part.who}
    if isinstance(part, ScorePart) and not part.lose and isinstance(part.vp, int):
        return {"op": "score", "vp": part.vp, "per": None, "who": part.who}
    if isinstance(part, ScorePart) and part.lose and isinstance(part.vp, int) and \
            part.vp > 0:
        return {"op": "score", "vp": -part.vp, "per": None, "who": part.who}
    if isinstance(part, DrawPart) and isinstance(part.count, int) and part.into is None \
            and part.who != "opponent":
        return {"op": "draw", "count": part.count, "who": part.who}
    if isinstance(part, RemovePart) and part.kinds is not None:
        return dumped  # (no op said it: a part written since dumps as itself)
    if isinstance(part, RemovePart) and part.pieces == "enemy" and part.at == "clearing":
        return {"op": "remove_enemy_pieces", "suit": None, "at": "context"}
    if isinstance(part, RemovePart) and part.pieces == "enemy" and \
            isinstance(part.at, ClearingFilter) and part.at.suit not in (None, "clearing") \
            and part.at == ClearingFilter(suit=part.at.suit):
        return {"op": "remove_enemy_pieces", "suit": part.at.suit, "at": None}
    if isinstance(part, RemovePart) and part.piece == "warrior" and part.at == "clearing":
        return {"op": "remove_own_warrior"}
    if isinstance(part, DiscardAllPart) and part.matching == "clearing" and \
            part.source not in ("hand", "columns"):
        return {"op": "discard_zone_matching", "zone": part.source}
    if part == _TAKE_RANDOM_CARD:
        return {"op": "take_random_card"}
    if part == _LOOK_AT_HAND:
        return {"op": "look_at_hand"}
    if isinstance(part, GivePart) and part.into is not None and \
            part == _give_card_to_zone(part.into):
        return {"op": "give_card_to_zone", "zone": part.into}
    if isinstance(part, IntoBoxPart) and isinstance(part.box, str) and \
            part == _lose_box_half(part.box):
        return {"op": "lose_box_half", "box": part.box}
    return dumped


_TAKE_RANDOM_CARD = GivePart(op="give", who="target", to="self", pick="random")
_LOOK_AT_HAND = ShowPart(op="show", who="target", to="self")


def _give_card_to_zone(zone: str) -> GivePart:
    """Law 8.2.6's Outrage as the parts (what the op give_card_to_zone did)."""
    return GivePart(op="give", to="holder", into=zone, matching="clearing", otherwise=[
        ShowPart(op="show", to="holder"),
        DrawPart(op="draw", who="holder", into=zone)])


def _lose_box_half(box: str) -> IntoBoxPart:
    """Law 8.2.4's officers lost as the part (what the op lose_box_half did): half the
    holder's warriors in the box, rounded up, back to the supply."""
    return IntoBoxPart(op="into_box", piece="warrior", box=box, from_box=True, who="holder",
                       count=HalfValue(half=BoxValue(box=box)))


def _with_effect_op_dumps(doc: DeckSpec | FactionSpec, dumped: dict) -> dict:
    """A deck's or faction's dump with each part of its effect programs (models.
    EFFECT_PARTS: abilities' 'do', immediate cards' 'on_craft') dumped as the op it
    replaced (_effect_part_dump): the deck's dump is part of the rules hash."""
    holders = [(doc.abilities, dumped.get("abilities", []))] if isinstance(doc, FactionSpec) \
        else [(c.abilities, d.get("abilities", [])) for c, d in zip(
            doc.cards, dumped.get("cards", []), strict=True)]
    programs: list[tuple[list, list]] = []
    for abilities, dumps in holders:
        programs += [(a.do, d["do"]) for a, d in zip(abilities, dumps, strict=True)
                     if isinstance(a, (Effect, Trigger))]
    if isinstance(doc, DeckSpec):
        programs += [(c.on_craft, d["on_craft"]) for c, d in zip(
            doc.cards, dumped.get("cards", []), strict=True) if c.on_craft]
    for prog, dumps in programs:
        for j, part in enumerate(prog):
            if isinstance(part, EFFECT_PARTS):
                dumps[j] = _effect_part_dump(part, dumps[j])
            elif isinstance(part, Actions):
                # The turn step's operation in an effect program hashes as the op
                # 'take_actions' it was first written as (its only fields then).
                dumps[j] = {"op": "take_actions", "count": dumps[j]["count"],
                            "menu": dumps[j]["menu"]}
            elif isinstance(part, HitsOp) and part.first_spelling() is not None:
                # A 'hits' op saying one thing hashes as the op it was first written
                # as: extra_hits (hits), ignore_rolled_hits.
                dumps[j] = part.first_spelling()
            elif isinstance(part, DiscardDownTo):
                # Likewise the hand-limit step's operation on a zone: 'trim_zone'.
                dumps[j] = {"op": "trim_zone", "zone": part.zone}
    for abilities, dumps in holders:
        for a, d in zip(abilities, dumps, strict=True):
            if isinstance(a, Rule) and a.rules_ties() and not a.with_ and not a.tokens:
                # One rule, two spellings: {"kind": "rule", "ties": true} hashes as the
                # 'rule_ties' it was first written as.
                d["kind"] = "rule_ties"
                d.pop("ties", None)
            elif isinstance(a, Battle) and len(a.modifiers()) == 1:
                # A battle ability of one modifier hashes as the ability kind it was
                # first written as, with that kind's one value.
                _battle_dump(a, d)
            elif isinstance(a, Trigger) and a.rescue_token() is not None:
                # Field Hospitals written as the trigger it is hashes as the ability
                # kind it was first written as (models.rescue_trigger).
                token = a.rescue_token()
                d.clear()
                d.update({"kind": RESCUE_KIND, "id": a.id, "name": a.name, "law": a.law,
                          "token": token})
            elif isinstance(a, Numbers) and len(a.modifiers()) == 1 and \
                    a.modifiers()[0][0] in NUMBER_KINDS:
                # Likewise a 'numbers' ability of one number (models.NUMBER_KINDS).
                _numbers_dump(a, d)
    return dumped


def _battle_dump(a: Battle, d: dict) -> None:
    """Dump a one-modifier battle ability in its first spelling (models._BATTLE_KINDS)."""
    (kind, value), = a.modifiers()
    for k in ("attacking", "defending", "removal_vp"):
        d.pop(k, None)
    d["kind"] = kind
    if kind == "attack_extra_hits":
        d["hits"] = value
    elif kind == "battle_removal_vp":
        d["vp"] = value


def _numbers_dump(a: Numbers, d: dict) -> None:
    """Dump a one-number 'numbers' ability in its first spelling: Law 7.2.3's
    {"kind": "item_vp", "vp": 1}, 7.8.2's {"kind": "recruit_count", "count": 2}."""
    (kind, value), = a.modifiers()
    key, field = NUMBER_KINDS[kind]
    for k in ("item_vp", "recruit"):
        d.pop(k, None)
    d["kind"] = kind
    d[key] = value


_STANDARD: list[LibrarySpec] = []


def standard_library() -> LibrarySpec:
    """The base pack's library of programs (read once)."""
    if not _STANDARD:
        doc = load_file(BASE_PACK / "library.json")
        assert isinstance(doc, LibrarySpec), "the base pack's library.json is a library"
        _STANDARD.append(doc)
    return _STANDARD[0]


# ---------------------------------------------------------------------- packs


@dataclass(frozen=True)
class LoadedPack:
    """A pack read from disk: its manifest, its documents and patches (in the order the
    manifest lists them), the hash of its files, and every pack it requires (directly
    or not; the base game for every pack but the base game itself)."""

    spec: PackSpec
    manifest: Path
    documents: tuple[tuple[str, Content], ...]
    patches: tuple[tuple[str, PatchSpec], ...]
    hash: str
    requires: frozenset[str] = frozenset()

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def record(self) -> PackRecord:
        base = self.manifest.resolve() == (BASE_PACK / "pack.json").resolve()
        return PackRecord(self.spec.id, self.spec.version, self.hash,
                          "" if base else str(self.manifest.parent.resolve()))


def pack_hash(manifest: Path, pack: PackSpec) -> str:
    """The hash of a pack's files: the manifest and each content file it lists, by name
    and bytes (files it does not list, a README or scenarios, do not count).  A file
    that cannot be read counts as missing, so a broken pack still has a hash."""
    h = hashlib.sha256()
    for rel in ["pack.json", *pack.content]:
        try:
            data = read_bytes(manifest.parent / rel, max_bytes=CONTENT_MAX_BYTES)
        except JsonInputError:
            data = b"\0missing"
        h.update(f"{rel}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()[:16]


def read_manifest(manifest: Path) -> PackSpec | None:
    """A pack's manifest, or None when the file is not a readable, valid manifest."""
    try:
        pack = load_file(manifest)
    except SpecError:
        return None
    return pack if isinstance(pack, PackSpec) else None


def pack_path() -> list[Path]:
    """The discovery path: the folders of ROOTLAW_PACK_PATH (os.pathsep-separated)."""
    raw = os.environ.get(PACK_PATH_ENV, "")
    return [Path(p).expanduser() for p in raw.split(os.pathsep) if p.strip()]


def where_packs_are_looked_for() -> str:
    places = pack_path()
    if not places:
        return f"{PACK_PATH_ENV} is not set"
    return f"{PACK_PATH_ENV}: {os.pathsep.join(map(str, places))}"


def discover(pack_id: str) -> list[Path]:
    """Manifests of packs with this id on the discovery path, in path order: a folder
    of the path that is a pack itself, then the pack folders in it (by name)."""
    found: list[Path] = []
    for folder in pack_path():
        try:
            subs = sorted(p for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
        except OSError:
            continue
        for d in [folder, *subs]:
            manifest = d / "pack.json"
            if manifest.is_file():
                pack = read_manifest(manifest)
                if pack is not None and pack.id == pack_id:
                    found.append(manifest)
    return found


def _manifest(p: Path) -> Path:
    """A pack named by its folder, its manifest, or (when no such file exists) its id on
    the discovery path."""
    if p.is_dir():
        return p / "pack.json"
    if not p.exists() and len(p.parts) == 1:
        found = discover(str(p))
        if found:
            return found[0]
    return p


def _load(manifest: Path) -> LoadedPack:
    pack, docs = load_pack(manifest)
    if pack.allow_code:
        raise SpecError([located(
            "PACK-CODE", f"pack {pack.id!r} asks to run code (allow_code): rootlaw loads "
            "data only and never imports or runs a pack's code; running code from packs is "
            "not supported yet", manifest, ["allow_code"])])
    return LoadedPack(pack, manifest,
                      tuple((f, d) for f, d in docs
                            if isinstance(d, (MapSpec, DeckSpec, FactionSpec, LibrarySpec))),
                      tuple((f, d) for f, d in docs if isinstance(d, PatchSpec)),
                      pack_hash(manifest, pack))


def collect(paths: list[Path], *, search: bool = True) -> list[LoadedPack]:
    """Load the base game, the packs at ``paths`` and the packs they require, in load
    order (see the module docstring).  A pack at ``paths`` with the id 'base' is the
    base game in place of the installed one (a contributor's edited copy).  ``search``:
    look for required packs that were not named on the discovery path."""
    if os.environ.get(ALLOW_CODE_ENV, "") not in ("", "0"):
        raise SpecError([Diagnostic(
            "PACK-CODE", f"{ALLOW_CODE_ENV} is set, but running code from packs is not "
            "supported yet: unset it (data packs need nothing to be allowed)")])
    loaded: dict[str, LoadedPack] = {}
    errors: list[Diagnostic] = []
    for p in paths:
        manifest = _manifest(Path(p))
        lp = _load(manifest)
        prev = loaded.get(lp.id)
        if prev is not None and prev.manifest.resolve() != manifest.resolve():
            errors.append(located("ID-DUP", f"two packs are named {lp.id!r}: "
                                  f"{prev.manifest.parent} and {manifest.parent}",
                                  manifest, ["id"]))
            continue
        loaded[lp.id] = lp
    # A base game named among the paths (a checkout's spec/content/base, being edited)
    # is the base game of this load, in place of the one rootlaw comes with: loaded
    # beside it, the two would be one pack twice.
    if "base" not in loaded:
        loaded = {"base": _load(BASE_PACK / "pack.json"), **loaded}
    queue = list(loaded)
    while queue:
        pid = queue.pop(0)
        for i, req in enumerate(loaded[pid].spec.requires):
            if req in loaded:
                continue
            found = discover(req) if search else []
            if found:
                loaded[req] = _load(found[0])
                queue.append(req)
                continue
            errors.append(unlocated(
                "PACK-MISSING", f"pack {pid!r} requires pack {req!r}, which is not available "
                f"(name its folder with --pack, or put it on the discovery path; "
                f"{where_packs_are_looked_for()})", loaded[pid].manifest, ["requires", i]))
    if errors:
        raise SpecError(with_lines(errors))  # one read of each manifest for the lines
    errors = _cycles(loaded)
    if errors:
        raise SpecError(errors)
    return _ordered(loaded)


def _deps(lp: LoadedPack) -> list[str]:
    return list(lp.spec.requires) if lp.id == "base" else ["base", *lp.spec.requires]


def _cycles(loaded: dict[str, LoadedPack]) -> list[Diagnostic]:
    errors: list[Diagnostic] = []
    done: set[str] = set()
    visiting: list[str] = []

    def visit(pid: str) -> None:
        if pid in done:
            return
        if pid in visiting:
            # Located at the 'requires' entry that closes the cycle.
            owner = visiting[-1]
            errors.append(located("PACK-CYCLE", " -> ".join([*visiting[visiting.index(pid):],
                                                              pid]) + " (packs that require "
                                  "each other cannot be loaded one after the other)",
                                  loaded[owner].manifest,
                                  ["requires", loaded[owner].spec.requires.index(pid)]))
            return
        visiting.append(pid)
        for req in loaded[pid].spec.requires:
            visit(req)
        visiting.pop()
        done.add(pid)

    for pid in sorted(loaded):
        visit(pid)
    return errors


def _ordered(loaded: dict[str, LoadedPack]) -> list[LoadedPack]:
    """Requirements first; among packs ready together, by id (a stable tiebreak that
    does not depend on the order the packs were named in)."""
    deps = {pid: set(_deps(lp)) for pid, lp in loaded.items()}
    users: dict[str, list[str]] = {pid: [] for pid in loaded}
    for pid, ds in deps.items():
        for d in ds:
            users[d].append(pid)
    waiting = {pid: len(ds) for pid, ds in deps.items()}
    ready = [pid for pid, n in waiting.items() if n == 0]
    heapq.heapify(ready)
    order: list[str] = []
    closure: dict[str, frozenset[str]] = {}
    while ready:
        pid = heapq.heappop(ready)
        order.append(pid)
        closure[pid] = frozenset(deps[pid]).union(*(closure[d] for d in deps[pid]))
        for u in users[pid]:
            waiting[u] -= 1
            if waiting[u] == 0:
                heapq.heappush(ready, u)
    return [dataclasses.replace(loaded[pid], requires=closure[pid]) for pid in order]


# ---------------------------------------------------------------------- documents


@dataclass
class Documents:
    """The documents of loaded packs after replacements and patches."""

    maps: dict[str, MapSpec] = field(default_factory=dict)
    decks: dict[str, DeckSpec] = field(default_factory=dict)
    factions: dict[str, FactionSpec] = field(default_factory=dict)
    libraries: dict[str, LibrarySpec] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # 'kind:id' -> file
    origin: dict[str, str] = field(default_factory=dict)  # 'kind:id' -> pack defining it
    patched: dict[str, list[Applied]] = field(default_factory=dict)
    default_map: str | None = None
    default_deck: str | None = None

    def table(self, kind: str) -> dict[str, Any]:
        tables: dict[str, dict[str, Any]] = {"map": self.maps, "deck": self.decks,
                                             "faction": self.factions,
                                             "library": self.libraries}
        return tables[kind]

    def get(self, key: str) -> Content | None:
        kind, _, did = key.partition(":")
        return self.table(kind).get(did)


def documents(chain: list[LoadedPack]) -> Documents:
    """Maps, decks and factions by id after replacements and patches; raises SpecError
    with every conflict and failed patch."""
    out = Documents()
    errors: list[Diagnostic] = []
    data: dict[str, Any] = {}  # 'kind:id' -> the document as JSON, to patch
    defaults: dict[str, tuple[str, LoadedPack]] = {}  # 'map'/'deck' -> (id, pack)
    for lp in chain:
        known = lp.requires | {lp.id}
        for file, doc in lp.documents:
            key = f"{doc.kind}:{doc.id}"
            prev = out.origin.get(key)
            if prev is not None and prev not in known:
                errors.append(located(
                    "PACK-CONFLICT", f"packs {prev!r} and {lp.id!r} both define {key} and "
                    f"neither requires the other ({out.sources[key]} and {file}): make one "
                    "require the other to say which one wins", file, ["id"]))
                continue
            unknown = [a for a in out.patched.get(key, []) if a.pack not in known]
            if unknown:
                a = unknown[0]
                errors.append(located(
                    "PACK-CONFLICT", f"pack {lp.id!r} replaces {key}, which pack {a.pack!r} "
                    f"patches ({a.file} at /patch/{a.index}), and neither requires the other",
                    file, ["id"]))
                continue
            out.table(doc.kind)[doc.id] = doc
            out.sources[key], out.origin[key], out.patched[key] = file, lp.id, []
            data.pop(key, None)
        for file, patch in lp.patches:
            errors += _patch(lp, file, patch, out, data)
        for kind in ("map", "deck"):
            wanted = getattr(lp.spec, f"default_{kind}")
            if wanted is None:
                continue
            prev_default = defaults.get(kind)
            if prev_default and prev_default[0] != wanted and prev_default[1].id not in known:
                other = prev_default[1]
                errors.append(located(
                    "PACK-CONFLICT", f"packs {other.id!r} and {lp.id!r} set different default "
                    f"{kind}s ({prev_default[0]!r} and {wanted!r}) and neither requires the "
                    f"other: choose one with --{kind}", lp.manifest, [f"default_{kind}"]))
                continue
            defaults[kind] = (wanted, lp)
    for kind, (wanted, lp) in defaults.items():
        if wanted not in out.table(kind):
            ids = list(out.table(kind))
            hint = did_you_mean(wanted, ids) or f" (known: {', '.join(ids)})"
            errors.append(located("REF-UNDEF", f"default_{kind}: no {kind} {wanted!r} in this "
                                  f"pack or the packs it requires{hint}", lp.manifest,
                                  [f"default_{kind}"]))
        setattr(out, f"default_{kind}", wanted)
    if errors:
        raise SpecError(errors)
    return out


def _patch(lp: LoadedPack, file: str, patch: PatchSpec, out: Documents,
           data: dict[str, Any]) -> list[Diagnostic]:
    """Apply one patch document; its errors (nothing is applied when there are any)."""
    key = patch.target
    known = lp.requires | {lp.id}
    origin = out.origin.get(key)
    if origin is None:
        return [located("PATCH-TARGET", f"no {key.replace(':', ' ')!r} to patch in pack "
                        f"{lp.id!r} or the packs it requires ({', '.join(sorted(known))})",
                        file, ["target"])]
    if origin not in known:
        return [located("PATCH-TARGET", f"{key} comes from pack {origin!r} "
                        f"({out.sources[key]}), which pack {lp.id!r} does not require: add "
                        f"{origin!r} to its 'requires' (or, if {origin!r} replaced a document "
                        f"{lp.id!r} means to patch, they conflict)", file, ["target"])]
    doc = copy.deepcopy(data[key]) if key in data else \
        out.get(key).model_dump(mode="json", by_alias=True)  # type: ignore[union-attr]
    mine: list[Applied] = []
    # Only changes by packs lp does not require can conflict with its own.
    foreign = [a for a in out.patched[key] if a.pack not in known]
    for i, op in enumerate(patch.patch):
        raw = op.model_dump(mode="json", by_alias=True)
        try:
            doc, touches = apply(doc, raw)
        except PatchError as e:
            if e.code != "PATCH-TEST":
                # Failed where a pack it does not know changed the document: that is why.
                aimed = [Touch("aim", parse_pointer(raw[k])) for k in ("path", "from")
                         if k in raw and raw[k].startswith("/")]
                conflict = _conflict(lp, key, file, i, aimed, foreign)
                if conflict:
                    return [conflict]
            return [located(e.code, f"{e.message} (in {key}){_who(out, key, e.path)}",
                            file, ["patch", i])]
        conflict = _conflict(lp, key, file, i, touches, foreign)
        if conflict:
            return [conflict]
        mine.append(Applied(lp.id, file, i, tuple(touches)))
    kind, did = key.split(":")
    if not isinstance(doc, dict) or doc.get("kind") != kind or doc.get("id") != did:
        last = next((a.index for a in reversed(mine)
                     if any(t.path[:1] in ((), ("kind",), ("id",)) for t in a.touches)),
                    len(mine) - 1)
        return [located("PATCH-FAILED", f"a patch cannot change a document's kind or id "
                        f"(it patches {key})", file, ["patch", last])]
    new, problems, _ = validate_data(doc)
    if problems:
        return [located(code, f"{msg} (in {key} as patched, at {ptr or 'the top'})", file,
                        ["patch", _culprit(mine, ptr)]) for code, msg, ptr in problems]
    out.table(kind)[did] = new
    out.patched[key] = [*out.patched[key], *mine]
    data[key] = doc
    return []


def _conflict(lp: LoadedPack, key: str, file: str, i: int, touches: list[Touch],
              foreign: list[Applied]) -> Diagnostic | None:
    """PACK-CONFLICT when an operation clashes with a change that a pack lp does not
    require made to the same document (``foreign``; see patch.clash)."""
    for t in touches:
        for a in foreign:
            t0 = next((t0 for t0 in a.touches if clash(t0, t)), None)
            if t0 is None:
                continue
            return located(
                "PACK-CONFLICT", f"packs {a.pack!r} and {lp.id!r} both change {key} and "
                f"neither requires the other: {lp.id!r} {_does(t)}, {a.pack!r} {_does(t0)} "
                f"({a.file} at /patch/{a.index}); make one require the other (it is then "
                "patched after it, and its test operations can say what it expects), or "
                "change different values", file, ["patch", i])
    return None


def _does(t: Touch) -> str:
    at = pointer_of(t.path) or "the whole document"
    if t.kind == "insert":
        return f"inserts an item at {at}" + ("" if t.append else ", moving the items after it")
    if t.kind == "delete":
        return f"removes {at}" + (", moving the items after it" if t.array else "")
    return f"sets {at}" if t.kind == "set" else f"changes {at}"


def _who(out: Documents, key: str, path: tuple[str, ...]) -> str:
    """Who last changed the value an operation failed on: the other side of an error."""
    for a in reversed(out.patched.get(key, [])):
        if any(t.kind != "test" and overlap(t.path, path) for t in a.touches):
            return f"; pack {a.pack!r} changed it ({a.file} at /patch/{a.index})"
    origin = out.origin.get(key)
    return f"; the document is pack {origin!r}'s ({out.sources[key]})" if origin else ""


def _culprit(mine: list[Applied], ptr: str) -> int:
    """The operation a problem at ptr (in the patched document) comes from: the last one
    that touched it, else the last operation of the patch."""
    try:
        path = parse_pointer(ptr)
    except PatchError:
        path = ()
    for a in reversed(mine):
        if any(t.kind != "test" and overlap(t.path, path) for t in a.touches):
            return a.index
    return mine[-1].index if mine else 0


# ---------------------------------------------------------------------- bundles


def resolve(packs: list[str | Path] | None = None, *, map_id: str | None = None,
            deck_id: str | None = None) -> Bundle:
    """Resolve the base pack plus ``packs`` (folders, manifests, or ids on the discovery
    path) into a Bundle.

    Content with a semantic error (see rootlaw.spec.semantics) is refused here, so no
    command builds or plays it; ``rootlaw validate`` reports the warnings too."""
    b = assemble(collect([Path(p) for p in packs or []]), map_id=map_id, deck_id=deck_id)
    errors = [d for d in findings(b) if d.severity == "error"]
    if errors:
        raise SpecError(errors)
    return b


def assemble(chain: list[LoadedPack], *, map_id: str | None = None,
             deck_id: str | None = None, docs: Documents | None = None) -> Bundle:
    """The Bundle of loaded packs (replaced and patched), unchecked."""
    docs = docs or documents(chain)
    m = _pick(docs.maps, map_id or docs.default_map, "map")
    d = _pick(docs.decks, deck_id or docs.default_deck, "deck")
    fs = tuple(sorted(docs.factions.values(), key=lambda f: (f.setup_order, f.id)))
    return Bundle(map=m, deck=d, factions=fs, packs=tuple(lp.id for lp in chain),
                  libraries=tuple(docs.libraries.values()),
                  sources=docs.sources, records=tuple(lp.record for lp in chain),
                  patched={k: v for k, v in docs.patched.items() if v})


def findings(b: Bundle) -> list[Diagnostic]:
    """The semantic findings of a bundle: each of its documents, then all together."""
    from .semantics import Findings, check_bundle, check_document

    found = Findings()
    docs: list[MapSpec | DeckSpec | FactionSpec | LibrarySpec] = [b.map, b.deck, *b.factions,
                                                                  *b.library]
    for doc in docs:
        check_document(doc, b.sources.get(f"{doc.kind}:{doc.id}", ""), found)
    check_bundle(b.map, b.deck, b.factions, b.sources, found, b.library)
    return in_patches(found.diagnostics(), b.sources, b.patched)


def in_patches(diags: list[Diagnostic], sources: dict[str, str],
               patched: dict[str, list[Applied]]) -> list[Diagnostic]:
    """Findings in a patched document located in the patch that changed what they are
    about (file and operation), not in the file the patch changed."""
    if not patched:
        return diags
    by_file = {sources[k]: (k, v) for k, v in patched.items() if v and k in sources}
    out: list[Diagnostic] = []
    moved = False
    for d in diags:
        hit = by_file.get(d.file)
        a = None
        if hit is not None:
            try:
                path = parse_pointer(d.pointer)
            except PatchError:
                path = ()
            a = next((a for a in reversed(hit[1])
                      if any(t.kind != "test" and overlap(t.path, path) and
                             len(t.path) > 0 for t in a.touches)), None)
        if a is None or hit is None:
            out.append(d)
            continue
        moved = True
        out.append(dataclasses.replace(
            d, file=a.file, line=0, pointer=f"/patch/{a.index}",
            message=f"{d.message} (in {hit[0]} as patched, at {d.pointer or 'the top'})"))
    return with_lines(out) if moved else out


def _pick(table: dict, wanted: str | None, kind: str):
    if not table:
        raise SpecError([Diagnostic("REF-UNDEF", f"no {kind} in the loaded packs")])
    if wanted is None:
        return next(iter(table.values()))
    if wanted not in table:
        raise SpecError([Diagnostic("REF-UNDEF", unknown_name(kind, wanted, table,
                                                              list_known=None))])
    return table[wanted]
