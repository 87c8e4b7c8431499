"""A small seeded run of the fuzzers (tests/fuzz): mutated content and garbage inputs.

Issue 7: whatever an author's files hold, every reader gives a result or a coded,
located error within 2 s, and content that validates clean plays (no crash, no
invariant broken, no decision without a legal action).  The big campaigns run by hand
(``python -m tests.fuzz.mutate --count 600 ...``); this keeps the tools working and
catches a regression on a few dozen seeded inputs.  The oracles' own tests plant a
fault and assert it is found, so a campaign that finds nothing means something.
"""

from __future__ import annotations

import pytest
from fuzz import common as C
from fuzz import garbage, mutate

from rootlaw.spec import SpecError


def test_thirty_seeded_mutants_validate_with_located_findings_or_play(tmp_path):
    tally = mutate.campaign(30, 7, tmp_path, games=1, cap=1500, subprocess_every=0,
                            keep=False)
    assert tally.findings == []
    # Both halves of the oracle ran: some mutants were reported, some played.
    assert tally.counts["verdict reported"] > 0 and tally.counts["verdict clean"] > 0
    assert tally.slowest["validate"][0] < C.SLOW


def test_garbage_inputs_get_a_result_or_a_coded_error(tmp_path, monkeypatch):
    monkeypatch.setenv("ROOTLAW_AUTO_BUILD", "0")
    tally = garbage.campaign(40, 7, tmp_path, subprocess_every=0)
    assert tally.findings == []
    for kind in garbage.KINDS:
        assert tally.counts[f"{kind} inputs"] == 8
    assert tally.counts["Game.load: coded error"] > 0 and tally.counts["replay: coded error"] > 0


# ---------------------------------------------------------------------- the oracles


def test_a_traceback_a_hang_and_a_slow_call_are_findings():
    assert C.guarded(lambda: {}["x"]).finding.startswith("TRACEBACK KeyError")
    assert C.guarded(_spin, hang=0.2).finding.startswith("HANG")
    assert C.guarded(lambda: _spin(0.1), slow=0.05).finding.startswith("SLOW")
    coded = C.guarded(lambda: _raise(SpecError([])))
    assert coded.finding == "" and isinstance(coded.error, SpecError)


def _spin(seconds: float = 5.0) -> None:
    import time
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def _raise(e: Exception) -> None:
    raise e


def test_a_clean_mutant_that_breaks_a_game_is_a_finding(tmp_path, monkeypatch):
    # A planted invariant violation: the play oracle must report it.
    import rootlaw.runtime.conformance as conf

    src = next(s for s in C.sources() if s.name == "marquise.json")
    folder = C.write_mutant(src, src.data, tmp_path / "same")
    monkeypatch.setattr(conf, "invariant_violations", lambda g: iter(["planted"]))
    tally = C.Tally()
    import random
    verdict = mutate.check_mutant(folder, random.Random(1), tally, "planted",
                                  subprocess_too=False, games=1, cap=50)
    assert verdict == "broken"
    assert "INVARIANT" in tally.findings[0] and "planted" in tally.findings[0]


def test_a_finding_in_pydantics_words_is_a_finding(tmp_path, monkeypatch):
    # A planted report in pydantic's words (issue 12): the oracle must report it.
    import random

    import rootlaw.spec.validate as V
    from rootlaw.spec.diagnostics import Diagnostic

    planted = V.Report([V.Checked("x", diagnostics=[
        Diagnostic("KEY-MISSING", "Field required", "f.json", 3, "/pieces/dock/count")])])
    monkeypatch.setattr(V, "validate", lambda paths, packs=None, **kw: planted)
    tally = C.Tally()
    verdict = mutate.check_mutant(tmp_path, random.Random(1), tally, "planted",
                                  subprocess_too=False, games=1, cap=50)
    assert verdict == "reported"
    assert len(tally.findings) == 1 and "pydantic's words" in tally.findings[0]
    assert C.machine_words([SpecError(planted.diagnostics)]) == [str(planted.diagnostics[0])]
    assert C.machine_words(["f.json#/x: SCENARIO-INVALID: 'x' is not a key of a step"]) == []


@pytest.mark.parametrize("kind", ["faction", "map", "deck", "patch", "pack"])
def test_every_document_kind_is_mutated(kind):
    import random
    srcs = [s for s in C.sources() if s.kind == kind]
    assert srcs, f"no {kind} to mutate"
    pools = mutate.Pools([s.data for s in C.sources()])
    targets = {f"{s.kind}:{s.data['id']}": s.data for s in C.sources()
               if s.kind in ("map", "deck", "faction")}
    rng = random.Random(3)
    changed = sum(mutate.mutant(s, rng, pools, targets)[0] != s.data
                  for s in srcs for _ in range(10))
    assert changed >= 8 * len(srcs)


def test_a_base_faction_given_a_cycle_validates_and_plays_some_of_the_time(tmp_path):
    # f_cycle grafts a cycle (stages whose hooks are other factions' steps) onto a base
    # faction: some of these must be clean content, or the play oracle never sees one.
    import copy
    import random
    src = next(s for s in C.sources() if s.name == "marquise.json")
    pools = mutate.Pools([s.data for s in C.sources()])
    rng = random.Random(11)
    verdicts = []
    for i in range(12):
        doc = copy.deepcopy(src.data)
        assert mutate.f_cycle(doc, rng, pools).startswith("a new cycle")
        folder = C.write_mutant(src, doc, tmp_path / f"c{i}")
        tally = C.Tally()
        verdicts.append(mutate.check_mutant(folder, rng, tally, f"c{i}",
                                            subprocess_too=False, games=1, cap=300))
        assert tally.findings == []
    assert "clean" in verdicts and "reported" in verdicts
