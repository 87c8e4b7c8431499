"""What both fuzzers share: the documents to start from, timing and hang guards, and the
oracles (a read must end in a result or a coded, located error within 2 s; content that
validates clean must play)."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rootlaw.spec import BASE_PACK, RootlawError, SpecError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SLOW = 2.0  # seconds: a read slower than this is a finding (issue 7: "0 hangs over 2 s")
HANG = 30.0  # seconds: a call still running after this is stopped and reported as a hang


@dataclass
class Source:
    """A document to mutate: its JSON, the file name it has in its pack, and the pack
    folder it comes from (None: the base game, which the mutant pack replaces it in)."""

    name: str
    kind: str
    data: object
    pack: Path | None = None

    @property
    def label(self) -> str:
        where = self.pack.name if self.pack else "base"
        return f"{where}/{self.name}"


def load_json(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))


def sources() -> list[Source]:
    """Every base document, and every document and manifest of the example packs."""
    out = []
    manifest = load_json(BASE_PACK / "pack.json")
    assert isinstance(manifest, dict)
    for name in manifest["content"]:
        data = load_json(BASE_PACK / name)
        assert isinstance(data, dict)
        out.append(Source(name, data["kind"], data))
    for pack in sorted(EXAMPLES.glob("*/pack.json")):
        m = load_json(pack)
        assert isinstance(m, dict)
        out.append(Source("pack.json", "pack", m, pack.parent))
        for name in m["content"]:
            data = load_json(pack.parent / name)
            assert isinstance(data, dict)
            out.append(Source(name, data["kind"], data, pack.parent))
    return out


def write_mutant(src: Source, data: object, folder: Path, *, raw: bytes | None = None) -> Path:
    """A pack folder holding the mutant: a base document goes into a new pack that
    requires the base game (the same kind and id replace the base one); an example pack's
    document or manifest replaces its file in a copy of the pack.  Returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    body = raw if raw is not None else json.dumps(data, indent=1).encode()
    if src.pack is None:
        (folder / src.name).write_bytes(body)
        (folder / "pack.json").write_text(json.dumps(
            {"kind": "pack", "id": "fuzz", "name": "fuzz", "requires": ["base"],
             "content": [src.name]}), encoding="utf-8")
        return folder
    for f in src.pack.iterdir():
        if f.is_file() and f.suffix == ".json":
            (folder / f.name).write_bytes(f.read_bytes())
    (folder / src.name).write_bytes(body)
    return folder


def add_document(folder: Path, name: str, data: object) -> None:
    """One more document in a mutant pack (listed after the others)."""
    (folder / name).write_text(json.dumps(data, indent=1), encoding="utf-8")
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    manifest["content"].append(name)
    (folder / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")


# ---------------------------------------------------------------------- guards


class Hang(Exception):
    pass


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise Hang in the calling code after ``seconds`` (SIGALRM; the main thread)."""
    def fire(signum, frame):
        raise Hang(f"still running after {seconds:.0f} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Outcome:
    """One guarded call: its value, the coded error it raised, or the finding."""

    seconds: float = 0.0
    value: object = None
    error: RootlawError | None = None
    finding: str = ""  # a traceback, a hang, a slow call: what is wrong


def guarded(fn: Callable[[], object], *, slow: float = SLOW, hang: float = HANG) -> Outcome:
    """Call fn: a RootlawError is a good answer; any other exception is a traceback
    finding, a call over ``hang`` seconds a hang, one over ``slow`` a slow finding."""
    out = Outcome()
    t = time.perf_counter()
    try:
        with deadline(hang):
            out.value = fn()
    except RootlawError as e:
        out.error = e
    except Hang as e:
        out.finding = f"HANG {e}"
    except Exception as e:  # noqa: BLE001 -- anything else is exactly what we look for
        tb = traceback.format_exception(e)
        out.finding = f"TRACEBACK {type(e).__name__}: {e}"[:300] + "\n" + \
            "".join(tb[-3:])[-1500:]
    out.seconds = time.perf_counter() - t
    if not out.finding and out.seconds > slow:
        out.finding = f"SLOW {out.seconds:.2f} s"
    return out


def unlocated(diags) -> list[str]:
    """Diagnostics that lack a code or a location: a file, and a line or a pointer
    (the file alone for what concerns the whole file: one that cannot be read as JSON,
    or the count of problems past the first hundred)."""
    whole = {"JSON-DEPTH", "FILE-TOO-BIG", "FILE-ENCODING", "FILE-MISSING", "TOO-MANY"}
    bad = []
    for d in diags:
        whole_file = d.code in whole
        if not d.code or not d.file or not (d.line or d.pointer or whole_file):
            bad.append(str(d))
    return bad


PYDANTIC_WORDS = ("Field required", "Extra inputs are not permitted", "Input should be",
                  "Unable to extract tag", "validation error", "type=", "Input tag",
                  "String should", "List should", "Tuple should", "Dictionary should",
                  "Value error, ", "[key]")
"""pydantic's own phrases (issue 12): a message an author reads says what the file has,
what it should have and what was meant (rootlaw.spec.explain), never these."""


def machine_words(messages) -> list[str]:
    """The messages (diagnostics, errors or strings) that hold pydantic's phrases."""
    out = []
    for m in messages:
        if isinstance(m, SpecError):
            out += machine_words(m.diagnostics)
            continue
        text = getattr(m, "message", None) or str(m)
        ptr = getattr(m, "pointer", "")
        if any(p in text or p in ptr for p in PYDANTIC_WORDS):
            out.append(str(m))
    return out


def error_unlocated(e: RootlawError) -> str:
    """What a coded runtime error lacks ('' when it has a code and a place)."""
    if isinstance(e, SpecError):
        bad = [str(d) for d in e.diagnostics if not d.code]
        return "; ".join(bad)
    if not e.code or e.code == "ERROR":
        return f"no code: {e}"
    return ""


def cli(*args: str, timeout: float = HANG) -> tuple[int, str, str, float]:
    """Run the rootlaw CLI in a subprocess: (exit code, stdout, stderr, seconds)."""
    t = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-m", "rootlaw.runtime.cli", *args],
                           capture_output=True, text=True, timeout=timeout, check=False,
                           errors="replace")
    except subprocess.TimeoutExpired:
        return -1, "", "HANG", time.perf_counter() - t
    return p.returncode, p.stdout, p.stderr, time.perf_counter() - t


def cli_finding(rc: int, out: str, err: str, seconds: float, *,
                codes: tuple[int, ...] = (0, 1, 2)) -> str:
    if rc == -1:
        return "HANG (subprocess)"
    if "Traceback (most recent call last)" in err or "Traceback (most recent call last)" in out:
        return "TRACEBACK (subprocess)\n" + err[-1500:]
    if rc not in codes:
        return f"EXIT {rc} (subprocess)\n" + err[-500:]
    return ""


@dataclass
class Tally:
    """Counts by outcome, the slowest call of each kind, and the findings."""

    counts: dict[str, int] = field(default_factory=dict)
    slowest: dict[str, tuple[float, str]] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # worth a look, not a defect

    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    def timed(self, what: str, seconds: float, label: str) -> None:
        if seconds > self.slowest.get(what, (0.0, ""))[0]:
            self.slowest[what] = (seconds, label)

    def find(self, line: str) -> None:
        self.findings.append(line)
        print(line, flush=True)

    def note(self, line: str) -> None:
        self.notes.append(line)
        print(f"NOTE {line}", flush=True)

    def summary(self) -> str:
        lines = ["counts: " + ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))]
        lines += [f"slowest {k}: {s:.3f} s ({label})" for k, (s, label) in
                  sorted(self.slowest.items())]
        lines.append(f"notes: {len(self.notes)}")
        lines.append(f"findings: {len(self.findings)}")
        return "\n".join(lines)
