"""Which content a game was played on: recorded in saves and log headers, found again.

A record (format 2 of saves and logs) names every pack of the bundle in load order, each
with its id, version and the hash of its files (and the folder it was loaded from,
except the base game that comes with rootlaw: an edited copy of it, named with
``--pack``, is recorded with its folder), the map and the deck, next to the bundle hash.
Loading finds each pack again, first among the folders given (``--pack``), then at the
recorded folder, then on the discovery path (``ROOTLAW_PACK_PATH``; for the base game,
the one that comes with rootlaw), taking the first whose version and hash match;
resolves the recorded map and deck; and checks the bundle hash.  What goes wrong is said
exactly: ``<KIND>-PACK-MISSING`` (a pack found nowhere: where it looked),
``<KIND>-PACK-CHANGED`` (found, but its files changed and the bundle with them is
another), ``<KIND>-BUNDLE`` (the same files give another bundle: another rootlaw),
where KIND is SAVE or LOG.

A pack whose files changed in ways that do not change the bundle (a reformatted file, a
new colour, a README) still loads: the bundle hash is what a replay depends on.

Format 1 (saves and logs written before packs were recorded) holds only the bundle
hash: it loads on the bundle the caller names (``--pack``/``--map``/``--deck``; the base
game by default) when the hashes agree, so base-game saves and logs keep loading.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rootlaw.spec import Bundle, SpecError, resolve
from rootlaw.spec.bundle import (
    BASE_PACK,
    PackRecord,
    discover,
    pack_hash,
    read_manifest,
    where_packs_are_looked_for,
)

from .errors import RootlawError

FORMAT = 2
_IDENT = re.compile(r"^[a-z][a-z0-9-]*$")


def record(bundle: Bundle) -> dict:
    """The content record of a bundle: {"packs": [...], "map": id, "deck": id}."""
    records = bundle.records or (PackRecord("base", "", ""),)
    return {"packs": [r.as_dict() for r in records], "map": bundle.map.id,
            "deck": bundle.deck.id}


@dataclass(frozen=True)
class Options:
    """What the caller says about content: packs to look in first (``--pack``), and the
    map and deck it expects (``--map``/``--deck``)."""

    packs: tuple[Path, ...] = ()
    map_id: str | None = None
    deck_id: str | None = None

    @classmethod
    def of(cls, packs: Sequence[str | os.PathLike] | None = None, map_id: str | None = None,
           deck_id: str | None = None) -> Options:
        return cls(tuple(Path(p) for p in packs or ()), map_id, deck_id)

    def bundle(self) -> Bundle:
        """The bundle these options name (for format-1 saves and logs)."""
        if not self.packs and self.map_id is None and self.deck_id is None:
            from .game import base_bundle

            return base_bundle()
        return resolve(list(self.packs), map_id=self.map_id, deck_id=self.deck_id)


def parse_record(data: dict, fail, at) -> tuple[list[PackRecord], str, str]:
    """The packs, map and deck of a format-2 record, every value checked; ``fail(message,
    where)`` raises the caller's error, ``at(key)`` locates a key."""
    packs = data.get("packs")
    if not isinstance(packs, list) or not packs or len(packs) > 1000:
        fail("'packs' must be a non-empty list of packs", at("packs"))
    out: list[PackRecord] = []
    for i, p in enumerate(packs):  # type: ignore[arg-type]  # checked above
        if not isinstance(p, dict):
            fail("a pack is an object with 'id', 'version' and 'hash'", at(f"packs/{i}"))
        for key in ("id", "version", "hash"):
            if not isinstance(p.get(key), str) or len(p[key]) > 256:
                fail(f"a pack's {key!r} must be a string", at(f"packs/{i}/{key}"))
        if not _IDENT.match(p["id"]):
            fail(f"{p['id'][:40]!r} is not a pack id", at(f"packs/{i}/id"))
        path = p.get("path", "")
        if not isinstance(path, str) or len(path) > 4096 or "\0" in path:
            fail("a pack's 'path' must be a folder name", at(f"packs/{i}/path"))
        unknown = set(p) - {"id", "version", "hash", "path"}
        if unknown:
            fail(f"unknown key {sorted(unknown)[0]!r} in a pack", at(f"packs/{i}"))
        out.append(PackRecord(p["id"], p["version"], p["hash"], path))
    ids = [r.id for r in out]
    if ids[0] != "base" or len(set(ids)) != len(ids):
        fail("'packs' lists the base game first and each pack once", at("packs"))
    for key in ("map", "deck"):
        if not isinstance(data.get(key), str) or not _IDENT.match(data[key]):
            fail(f"{key!r} must be a {key} id", at(key))
    return out, data["map"], data["deck"]


@dataclass
class _Found:
    rec: PackRecord
    manifest: Path | None = None  # the pack to load (exact match, or the best other)
    exact: bool = False
    looked: list[str] | None = None  # where it looked, for a message
    others: list[str] | None = None  # candidates with the id that differ


def _candidates(rec: PackRecord, given: Sequence[Path]) -> tuple[list[Path], list[str]]:
    """Manifests that may hold the recorded pack, in the order they are tried, and a
    description of each place looked in."""
    looked: list[str] = []
    found: list[Path] = []
    if rec.id == "base" and not rec.path:
        return [BASE_PACK / "pack.json"], [f"the base game of this rootlaw ({BASE_PACK})"]
    named = []
    for p in given:
        manifest = p / "pack.json" if p.is_dir() else p
        pack = read_manifest(manifest) if manifest.is_file() else None
        if pack is not None and pack.id == rec.id:
            named.append(manifest)
    found += named
    looked.append(f"the --pack options ({', '.join(map(str, given))})" if given
                  else "the --pack options (none given)")
    if rec.path:
        manifest = Path(rec.path) / "pack.json"
        pack = read_manifest(manifest) if manifest.is_file() else None
        if pack is not None and pack.id == rec.id:
            found.append(manifest)
            looked.append(f"the recorded folder {rec.path}")
        else:
            looked.append(f"the recorded folder {rec.path} (no pack {rec.id!r} there)")
    if rec.id == "base":
        # A game played on an edited base game (its folder recorded): that folder, else
        # the base game of this rootlaw, never the discovery path.
        found.append(BASE_PACK / "pack.json")
        looked.append(f"the base game of this rootlaw ({BASE_PACK})")
    else:
        found += discover(rec.id)
        looked.append(where_packs_are_looked_for())
    unique: list[Path] = []
    for m in found:
        if all(m.resolve() != u.resolve() for u in unique):
            unique.append(m)
    return unique, looked


def _find(rec: PackRecord, given: Sequence[Path]) -> _Found:
    found, looked = _candidates(rec, given)
    f = _Found(rec, looked=looked, others=[])
    for manifest in found:
        pack = read_manifest(manifest)
        if pack is None:
            continue
        h = pack_hash(manifest, pack)
        if pack.version == rec.version and h == rec.hash:
            f.manifest, f.exact = manifest, True
            return f
        f.others.append(f"version {pack.version} with files hash {h} at {manifest.parent}")  # type: ignore[union-attr]
        if f.manifest is None:
            f.manifest = manifest
    return f


def bundle_of(recs: list[PackRecord], map_id: str, deck_id: str, expected: str,
              opts: Options, kind: str, error: type[RootlawError], where: str) -> Bundle:
    """The bundle a format-2 record names, found and checked (see the module docstring);
    errors are ``error`` with codes ``{kind}-PACK-MISSING``/``-PACK-CHANGED``/``-BUNDLE``."""
    for opt, rec_id, what in ((opts.map_id, map_id, "map"), (opts.deck_id, deck_id, "deck")):
        if opt is not None and opt != rec_id:
            raise error(f"this game was played on {what} {rec_id!r}, not {opt!r} (--{what}): "
                        "a recorded game is replayed on its own content", code="VALUE-INVALID",
                        where=where)
    found = [_find(r, opts.packs) for r in recs]
    missing = [f for f in found if f.manifest is None]
    if missing:
        lines = [f"pack {f.rec.id!r} version {f.rec.version} (files hash {f.rec.hash}) is "
                 f"not found; looked in: {'; '.join(f.looked or [])}" for f in missing]
        raise error("; ".join(lines) + ". Put the pack back, name its folder with --pack, or "
                    "add the folder that holds it to ROOTLAW_PACK_PATH", where=where,
                    code=f"{kind}-PACK-MISSING")
    changed = [f for f in found if not f.exact]

    def changed_error(extra: str = "") -> RootlawError:
        lines = [f"pack {f.rec.id!r} version {f.rec.version} has changed since: recorded "
                 f"files hash {f.rec.hash}, found {'; '.join(f.others or [])}" for f in changed]
        return error("; ".join(lines) + extra, where=where, code=f"{kind}-PACK-CHANGED")

    installed = (BASE_PACK / "pack.json").resolve()
    paths = [f.manifest for f in found if f.manifest is not None and
             (f.rec.id != "base" or f.manifest.resolve() != installed)]
    try:
        bundle = resolve(paths, map_id=map_id, deck_id=deck_id)  # type: ignore[arg-type]
    except SpecError as e:
        if changed:
            raise changed_error(f" (and it no longer loads: {e.diagnostics[0]})") from None
        raise
    if bundle.hash == expected:
        return bundle
    if changed:
        raise changed_error(f": the bundle is now {bundle.hash}, the recorded one {expected}")
    raise error(f"the recorded packs are unchanged, but this rootlaw makes bundle "
                f"{bundle.hash} of them, not the recorded {expected}: the game was recorded "
                "by another version of rootlaw", where=where, code=f"{kind}-BUNDLE")


def legacy_bundle(expected: str, opts: Options, kind: str, error: type[RootlawError],
                  where: str, packs: list[str] | None = None) -> Bundle:
    """The bundle of a format-1 save or log: the one the options name, checked."""
    bundle = opts.bundle()
    if bundle.hash != expected:
        named = f" (it names packs {', '.join(packs)})" if packs and packs != ["base"] else ""
        raise error(f"this is bundle {bundle.hash}, the {kind.lower()} is for {expected}: a "
                    f"format-1 {kind.lower()} records no content{named}; give the --pack, "
                    "--map and --deck it was played with", where=where, code=f"{kind}-BUNDLE")
    return bundle
