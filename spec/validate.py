"""``rootlaw validate``: load content, run the semantic checks, report every finding.

A path is a single content file (the loader, then the document checks), a pack (a
folder or its ``pack.json``: every file of the pack and of the packs it requires, the
document checks, and the bundle checks for each map and deck with the factions), a rules
scenario (read against the content by rootlaw.runtime.scenario, not run), or a folder
of such files.
``packs`` are packs that the validated ones may require (``--pack``); with no paths,
the bundle of those packs is validated.  Findings stay located in the file that holds
them, whichever pack it belongs to.

Exit codes: 0 no errors (warnings alone pass unless ``strict``), 1 content findings,
2 unusable input (see ``INPUT_CODES``).  Formats: text, json, github (workflow-command
annotations for GitHub Actions).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from .bundle import assemble, collect, documents, in_patches
from .diagnostics import INPUT_CODES, Diagnostic, RootlawError, SpecError, located
from .jsonio import CONTENT_MAX_BYTES, parse, read_text
from .loader import load_file, parse_document
from .models import FactionSpec, MapSpec, PackSpec, PatchSpec
from .semantics import Findings, check_bundle, check_document, check_faction_alone

FORMATS = ("text", "json", "github")


@dataclass
class Checked:
    """One validated path and what it held."""

    path: str
    what: str = ""  # "pack base: 4 files; bundle <hash>" / "faction marquise"
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)


@dataclass
class Report:
    checked: list[Checked] = field(default_factory=list)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for c in self.checked for d in c.diagnostics]

    @property
    def errors(self) -> int:
        return sum(c.errors for c in self.checked)

    @property
    def warnings(self) -> int:
        return sum(c.warnings for c in self.checked)

    def exit_code(self, strict: bool = False) -> int:
        if any(d.code in INPUT_CODES for d in self.diagnostics):
            return 2
        if self.errors or (strict and self.warnings):
            return 1
        return 0


@dataclass
class Play:
    """The seeded games validate plays for each pack (rootlaw.runtime.probe): how many
    per map (0: none) and the time budget they share."""

    games: int = 0
    seconds: float = 10.0
    deadline: float = 0.0  # set when validation starts

    def left(self) -> float:
        return max(0.0, self.deadline - time.perf_counter())


def validate(paths: list[str | Path], packs: list[str | Path] | None = None, *,
             play: int = 0, play_seconds: float = 10.0) -> Report:
    """Validate each path (with ``packs`` available as requirements); with no paths,
    the bundle of ``packs``.  A folder that is not a pack stands for the JSON files in
    it (content files or scenarios).  ``play``: seeded games to play on each map a
    validated pack brings (its default one when it brings none), within
    ``play_seconds`` in all: content on which no game ends is PLAY-STALL."""
    games = Play(play, play_seconds, time.perf_counter() + play_seconds)
    deps = [Path(p) for p in packs or []]
    report = Report()
    seen: set[Diagnostic] = set()
    items: list[tuple[str, Path | None]] = [
        (str(f), f) for p in paths for f in _files(Path(p))] or \
        [(", ".join(map(str, deps)) or "base", None)]
    for label, path in items:
        item = _validate_one(label, path, deps, games)
        # A finding in a shared requirement is reported once, not per path.
        item.diagnostics = [d for d in item.diagnostics if d not in seen]
        seen.update(item.diagnostics)
        report.checked.append(item)
    return report


def _files(path: Path) -> list[Path]:
    """What a path stands for: itself, or for a folder without a pack.json that holds
    JSON files, those files (a folder of scenarios, say)."""
    if path.is_dir() and not (path / "pack.json").exists():
        files = sorted(f for f in path.rglob("*.json") if f.is_file())
        if files:
            return files
    return [path]


SCENARIO_SCHEMA_NAME = "scenario.schema.json"
_SCENARIO_KEYS = frozenset({"steps", "position", "do", "expect", "stop_at"})


def is_scenario(data: object) -> bool:
    """A rules scenario, not content: an object without 'kind' that names the scenario
    schema in '$schema' or has a scenario's keys (docs/scenarios.md)."""
    if not isinstance(data, dict) or "kind" in data:
        return False
    schema = data.get("$schema")
    return (isinstance(schema, str) and schema.endswith(SCENARIO_SCHEMA_NAME)) or \
        bool(_SCENARIO_KEYS & set(data))


def _validate_one(label: str, path: Path | None, deps: list[Path], games: Play) -> Checked:
    if path is None:
        return _validate_packs(label, deps, None, games)
    if path.is_dir() or path.name == "pack.json":
        return _validate_packs(label, [*deps, path], path, games)
    try:
        text = read_text(path, max_bytes=CONTENT_MAX_BYTES)
        if is_scenario(parse(text, str(path), duplicates="report").data):
            return _validate_scenario(label, path, deps)
        doc = parse_document(text, str(path))
    except SpecError as e:
        return Checked(label, diagnostics=e.diagnostics)
    if isinstance(doc, PackSpec):
        return _validate_packs(label, [*deps, path], path, games)
    if isinstance(doc, PatchSpec):  # what it patches is known only in its pack
        return Checked(label, f"patch of {doc.target} ({len(doc.patch)} operations)")
    found = check_document(doc, str(path))
    if isinstance(doc, FactionSpec):  # and what its menus run, as far as it alone says
        check_faction_alone(doc, str(path), found)
    return Checked(label, f"{doc.kind} {doc.id}", found.diagnostics())


def _validate_scenario(label: str, path: Path, deps: list[Path]) -> Checked:
    # A scenario is read against a game of the content (its names, its notations): the
    # runtime's scenario reader does it, imported only for scenario files.
    from rootlaw.runtime.scenario import validate_file

    what, diagnostics = validate_file(path, deps)
    return Checked(label, what, diagnostics)


def _validate_packs(label: str, paths: list[Path], target: Path | None,
                    games: Play) -> Checked:
    try:
        chain = collect(paths)
        docs = documents(chain)
    except SpecError as e:
        return Checked(label, diagnostics=e.diagnostics)
    found = Findings()
    for lp in chain:  # each file as written (a document replaced later too)
        for file, doc in lp.documents:
            check_document(doc, file, found)
    patched = Findings()
    for key, applied in docs.patched.items():  # and each document as patched
        if applied:
            check_document(docs.get(key), docs.sources[key], patched)
    fs = tuple(sorted(docs.factions.values(), key=lambda f: (f.setup_order, f.id)))
    for m in docs.maps.values():  # every map a pack offers, not only the default one
        for d in docs.decks.values():
            check_bundle(m, d, fs, docs.sources, patched, docs.libraries.values())
    diags = [*found.diagnostics(),
             *in_patches(patched.diagnostics(), docs.sources, docs.patched)]
    diags = list(dict.fromkeys(diags))  # a finding the patches did not touch: once
    try:
        bundle = assemble(chain, docs=docs)
    except SpecError as e:
        return Checked(label, diagnostics=[*diags, *e.diagnostics])
    own: list[str] = []  # the maps the validated pack brings
    manifest: Path | None = None
    if target is None:
        what = f"packs {', '.join(bundle.packs)}; bundle {bundle.hash}"
    else:
        pack_id = _pack_id(target)
        lp = next(lp for lp in chain if lp.id == pack_id)
        n = len(lp.documents) + len(lp.patches)
        what = f"pack {pack_id}: {n} files; bundle {bundle.hash}"
        own = [d.id for _, d in lp.documents if isinstance(d, MapSpec)]
        manifest = lp.manifest
    if games.games and not any(d.severity == "error" for d in diags):
        for map_id in own or [bundle.map.id]:
            played, stalled = _play(chain, docs, map_id, manifest, games)
            what += f"; {played}"
            diags += stalled
    return Checked(label, what, diags)


def _play(chain, docs, map_id: str, manifest: Path | None,
          games: Play) -> tuple[str, list[Diagnostic]]:
    """The seeded games on one map: (what they showed, a PLAY-* finding if they stalled),
    located in the map's file (or the pack's manifest)."""
    # Games are played by the runtime's core, imported only when validate plays.
    from rootlaw.runtime.probe import probe

    bundle = assemble(chain, map_id=map_id, docs=docs)
    file = docs.sources.get(f"map:{map_id}") or (str(manifest) if manifest else "")
    try:
        result = probe(bundle, games=games.games, seconds=games.left())
    except RootlawError as e:
        # Content the checks above let through that the generator cannot compile: told
        # as the error it is, at the pack, rather than as a traceback.
        return "not played", [located(e.code, f"the core cannot be built: {e.message}",
                                      str(manifest) if manifest else file, [], "error")]
    verdict = result.verdict()
    if verdict is None:
        return result.summary(), []
    code, severity, message = verdict
    return result.summary(), [located(code, message, file, [], severity)]


def _pack_id(target: Path) -> str:
    # collect() has read this manifest already, so it loads.
    return str(load_file(target / "pack.json" if target.is_dir() else target).id)


# ---------------------------------------------------------------------- formats


def format_text(report: Report, strict: bool = False) -> str:
    """Each finding, then a line per path that loaded: ``ok:`` when it passes,
    ``failed:`` when only its warnings fail it (``strict``), so the words agree with the
    exit code.  A path with errors has its errors for a verdict."""
    lines = []
    for c in report.checked:
        lines += [str(d) for d in c.diagnostics]
        if not c.errors and c.what:
            warn = f"; {c.warnings} warning{'s' if c.warnings != 1 else ''}" \
                if c.warnings else ""
            if strict and c.warnings:
                lines.append(f"failed: {c.path} ({c.what}{warn}, and --strict fails on "
                             "warnings)")
            else:
                lines.append(f"ok: {c.path} ({c.what}{warn})")
    return "\n".join(lines)


def format_json(report: Report, strict: bool = False) -> str:
    return json.dumps({
        "ok": report.exit_code(strict) == 0,
        "exit_code": report.exit_code(strict),
        "errors": report.errors,
        "warnings": report.warnings,
        "checked": [{"path": c.path, "what": c.what, "errors": c.errors,
                     "warnings": c.warnings} for c in report.checked],
        "findings": [d.as_dict() for d in report.diagnostics],
    }, indent=2)


def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def format_github(report: Report, strict: bool = False) -> str:
    """GitHub Actions workflow commands: one annotation per finding."""
    lines = []
    for d in report.diagnostics:
        props = []
        if d.file:
            props.append(f"file={_escape_property(d.file)}")
        if d.line:
            props.append(f"line={d.line}")
        props.append(f"title={_escape_property(d.code)}")
        at = f" (at {d.pointer})" if d.pointer else ""
        lines.append(f"::{d.severity} {','.join(props)}::{_escape_data(d.message + at)}")
    verdict = "failed" if report.exit_code(strict) else "ok"
    why = " (--strict fails on warnings)" if strict and report.warnings and \
        not report.errors else ""
    lines.append(f"rootlaw validate: {report.errors} errors, {report.warnings} warnings "
                 f"in {len(report.checked)} paths: {verdict}{why}")
    return "\n".join(lines)
