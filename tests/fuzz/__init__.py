"""Fuzzing tools for rootlaw's inputs: what a hostile or careless author's files break.

- ``mutate``: semantic-aware mutations of real content (the base game's map, deck and
  factions, and the example packs' documents, patches and manifests): each mutant is
  validated (``rootlaw validate --strict``), and a mutant that validates clean is played
  (random games, the invariant checker after every decision, a decision cap).
- ``garbage``: inputs that are not content at all, or barely: random bytes, damaged
  files, deep nesting, huge files, wrong encodings, values of the wrong type, for content
  files, manifests, scenario files, saves and logs, through every reader (``validate``,
  ``Game.load``, ``replay``, ``scenario``, ``render``).

Both are deterministic (a seed), print one line per finding and a summary, and exit 1
when they found something.  ``tests/test_fuzz.py`` runs a small seeded campaign of each in
the suite; big campaigns are run by hand:

    python -m tests.fuzz.mutate --count 600 --seed 1 --out /tmp/fuzz-mutants
    python -m tests.fuzz.garbage --count 3000 --seed 1 --out /tmp/fuzz-garbage

A finding is one of: a traceback (an exception that is not rootlaw's own coded error),
a hang or a slow read (over 2 s), a finding without a code or a location, content that
validates clean but breaks a game (a crash in the core, an invariant violation, a
decision with no legal action, a game that does not end), and content that
``validate`` passes but ``resolve`` refuses.  A game the checked cap stops but that
ends when played on is a note, not a finding: odd content (no draw step, one roost)
makes long games, and random agents can stall where a player would not (the Alliance
hoarding every card in its supporters once it has nothing to spend them on).
"""
