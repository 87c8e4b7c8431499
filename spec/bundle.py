"""Resolve packs into one Bundle: base content plus mods, merged, references checked.

A later pack overrides a document of the same kind and id from an earlier one (within
one pack, that is an ID-DUP); a pack's ``requires`` are loaded before it.  The bundle's
hash covers exactly the content the engine is generated from, so it keys the build cache.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic, SpecError, located
from .loader import load_pack
from .models import DeckSpec, FactionSpec, MapSpec, PackSpec

BASE_PACK = Path(__file__).resolve().parent / "content" / "base"
# Drawing-only fields (models.py says so in their docs), outside the bundle hash.
_MAP_DRAWING: Any = {"clearings": {"__all__": {"position"}}}
_FACTION_DRAWING: Any = {"color"}


@dataclass(frozen=True)
class Bundle:
    """The resolved content one engine is generated from."""

    map: MapSpec
    deck: DeckSpec
    factions: tuple[FactionSpec, ...]
    packs: tuple[str, ...] = ()
    sources: dict = field(default_factory=dict, compare=False, hash=False)

    def faction(self, fid: str) -> FactionSpec:
        for f in self.factions:
            if f.id == fid:
                return f
        known = ", ".join(f.id for f in self.factions)
        raise SpecError([Diagnostic("REF-UNDEF", f"unknown faction {fid!r} (known: {known})")])

    def canonical(self) -> dict:
        # How pictures draw content (clearing positions, faction colours) is not a rule:
        # left out, so a new colour keeps saves, logs and the built core valid.
        return {
            "map": self.map.model_dump(mode="json", exclude=_MAP_DRAWING),
            "deck": self.deck.model_dump(mode="json"),
            "factions": [f.model_dump(mode="json", exclude=_FACTION_DRAWING)
                         for f in self.factions],
        }

    @cached_property
    def hash(self) -> str:
        blob = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def collect(paths: list[Path]) -> list[tuple[PackSpec, list]]:
    """Load packs and their requirements in dependency order (requirements first)."""
    loaded: dict[str, tuple[PackSpec, list]] = {}
    where: dict[str, Path] = {}
    order: list[str] = []
    errors: list[Diagnostic] = []

    available: dict[str, Path] = {"base": BASE_PACK / "pack.json"}  # pack id -> manifest
    pending = []
    for p in paths:
        manifest = p / "pack.json" if p.is_dir() else p
        pack, docs = load_pack(manifest)
        available[pack.id] = where[pack.id] = manifest
        loaded[pack.id] = (pack, docs)
        pending.append(pack.id)

    visiting: set[str] = set()

    def required(chain: list[str], pid: str, code: str, message: str) -> Diagnostic:
        # Located at the 'requires' entry naming pid, in the manifest of the last pack of chain.
        if not chain:
            return Diagnostic(code, message)
        owner = chain[-1]
        return located(code, message, where[owner],
                       ["requires", loaded[owner][0].requires.index(pid)])

    def visit(pid: str, chain: list[str]) -> None:
        if pid in order:
            return
        if pid in visiting:
            errors.append(required(chain, pid, "PACK-CYCLE", " -> ".join([*chain, pid])))
            return
        if pid not in loaded:
            if pid not in available:
                errors.append(required(chain, pid, "REF-UNDEF",
                                       f"required pack {pid!r} is not available"))
                return
            loaded[pid] = load_pack(available[pid])
            where[pid] = available[pid]
        visiting.add(pid)
        for req in loaded[pid][0].requires:
            visit(req, [*chain, pid])
        visiting.discard(pid)
        order.append(pid)

    visit("base", [])
    for pid in pending:
        visit(pid, [])
    if errors:
        raise SpecError(errors)
    return [loaded[pid] for pid in order]


def resolve(packs: list[str | Path] | None = None, *, map_id: str | None = None,
            deck_id: str | None = None) -> Bundle:
    """Resolve the base pack plus ``packs`` (directories or manifests) into a Bundle.

    Content with a semantic error (see rootlaw.spec.semantics) is refused here, so no
    command builds or plays it; ``rootlaw validate`` reports the warnings too."""
    b = assemble(collect([Path(p) for p in packs or []]), map_id=map_id, deck_id=deck_id)
    errors = [d for d in findings(b) if d.severity == "error"]
    if errors:
        raise SpecError(errors)
    return b


def assemble(chain: list[tuple[PackSpec, list]], *, map_id: str | None = None,
             deck_id: str | None = None) -> Bundle:
    """The Bundle of loaded packs (later packs override earlier ones), unchecked."""
    maps, decks, factions, sources = documents(chain)
    m = _pick(maps, map_id, "map")
    d = _pick(decks, deck_id, "deck")
    fs = tuple(sorted(factions.values(), key=lambda f: (f.setup_order, f.id)))
    return Bundle(map=m, deck=d, factions=fs, packs=tuple(p.id for p, _ in chain),
                  sources=sources)


def documents(chain: list[tuple[PackSpec, list]]
              ) -> tuple[dict[str, MapSpec], dict[str, DeckSpec], dict[str, FactionSpec], dict]:
    """Maps, decks and factions by id after overrides, and 'kind:id' -> source file."""
    maps: dict[str, MapSpec] = {}
    decks: dict[str, DeckSpec] = {}
    factions: dict[str, FactionSpec] = {}
    sources: dict[str, str] = {}
    tables: dict[type, dict[str, Any]] = {MapSpec: maps, DeckSpec: decks, FactionSpec: factions}
    for _pack, docs in chain:
        for file, doc in docs:
            table = tables[type(doc)]
            table[doc.id] = doc  # later packs override earlier ones
            sources[f"{doc.kind}:{doc.id}"] = file
    return maps, decks, factions, sources


def findings(b: Bundle) -> list[Diagnostic]:
    """The semantic findings of a bundle: each of its documents, then all together."""
    from .semantics import Findings, check_bundle, check_document

    found = Findings()
    docs: list[MapSpec | DeckSpec | FactionSpec] = [b.map, b.deck, *b.factions]
    for doc in docs:
        check_document(doc, b.sources.get(f"{doc.kind}:{doc.id}", ""), found)
    check_bundle(b.map, b.deck, b.factions, b.sources, found)
    return found.diagnostics()


def _pick(table: dict, wanted: str | None, kind: str):
    if not table:
        raise SpecError([Diagnostic("REF-UNDEF", f"no {kind} in the loaded packs")])
    if wanted is None:
        return next(iter(table.values()))
    if wanted not in table:
        raise SpecError([Diagnostic("REF-UNDEF",
                                    f"unknown {kind} {wanted!r} (known: {', '.join(table)})")])
    return table[wanted]
