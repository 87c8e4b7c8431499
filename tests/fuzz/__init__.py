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

Campaigns on the fuzz branch with main merged (Dec 2026), after the fixes they led to:

- ``mutate --count 600 --seed 1``: 600 mutants (219 faction, 109 map, 55 deck, 54 patch,
  163 manifest), 401 reported, 199 clean and played (2 games each): 0 findings, 1 note.
- ``mutate --count 600 --seed 10 --kind faction --compiled 4``: 358 reported, 242 clean
  and played, 4 compiled and compared with the pure core: 0 findings, 2 notes.
- ``garbage --count 3000 --seed 1``, ``--count 3000 --seed 3 --huge`` and ``--count 1000
  --seed 2 --huge``: 0 findings; the slowest read 0.70 s (a 820 KB faction).

What they found, and the fixes: a menu naming one action twice (MENU-DUP; and an
invariant: each legal action listed once), a 20,000-step program (ENGINE-LIMIT), a
revolt naming 20,000 buildings (PIECE-SUIT looked back along the list: 28 s) and the
piece references walked once per check (2.3 s on a loaded machine).  The notes are long
games of odd content (an Eyrie with no Evening, a deck of 74 cards, a Daylight of 200
steps) that end when played on.
"""
