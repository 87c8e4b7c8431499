"""The conformance kit: checks any bundle (base game or a content pack) can run on itself.

``rootlaw check`` runs it from the command line, so a homebrew pack's CI can ask: do
random games on my content end, do the engine's invariants hold after every decision,
do the compiled and pure cores agree, and do my rules scenarios pass?  The test suite
uses the same invariant checker on the base game.

Invariants (Law references in brackets):
- pieces on the map + supply + out of the game + in boxes = the printed count [1.5.1];
- every card is in exactly one place (deck, piles, hands, play areas, columns, zones);
  the deck order holds exactly the deck's cards;
- no clearing holds more of a piece than its per_clearing limit [8.2.5.I];
- a zone holds no more than its capacity while it is in force, once nothing is pending
  [8.2.3.I, 8.2.4];
- items in the supply + crafted items = the starting supply [5.1.5];
- buildings never exceed a clearing's slots [2.2.3 / 2.4]; VP never negative;
- a play area holds no two copies of a persistent card [4.1.4], and only persistent
  cards, activated dominance [3.3.1] and an immediate card while it resolves [4.1.2];
- the frame stack stays within its bounds; a battle runs at or below the top;
- a removal event's ledger is empty outside a battle's hits, and no win is held back
  outside them [1.5.4, 4.3.6]; used-effect flags are 0 or 1; a seen hand is a hand that
  could be (no more copies of a card than exist), seen in a turn that has been;
- a cycle's marker stands on one of its stages;
- a pending decision always offers at least one action, and each action once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rootlaw.spec import Bundle

from .agents import RandomAgent
from .errors import RootlawError
from .game import Game
from .stall import STALL_ROUNDS, Progress, rounds_of

if TYPE_CHECKING:
    from .simulate import GameRecord

FR_PLACE, FR_CRAFT_ANY, FR_ZONE_PAY = "place", "craft_any", "zone_pay"


def _face_violations(g, st, S, tab, off, C, NP):
    """A face recorded where its seat's token lies face down, and only there; no seat
    with more of a face lying face down than it has off the map (Law 13.2.2)."""
    names = g.names["pieces"]
    for p in range(g.consts["P"]):
        for cl in range(C):
            f = st[S["HFACE"] + p * C + cl] - 1
            if f < 0:
                continue
            fd = tab[off["PIECE_FACE_DOWN"] + f] if 0 <= f < NP else -1
            if fd < 0 or st[S["BOARD"] + cl * NP + fd] != 1 or p >= g.num_players or \
                    g._seats[p] != tab[off["PIECE_OWNER"] + fd]:
                yield (f"clearing {g.names['clearings'][cl]}: seat {p}'s face down "
                       f"{names[f] if 0 <= f < NP else f} lies on no token of its there")
            elif (st[S["FACE_NOT"] + p * C + cl] >> (
                    f - tab[off["FACTION_FIRST_PIECE"] + tab[off["PIECE_OWNER"] + f]])) & 1:
                # A wrong guess (Law 13.2.4) can only rule out a face the token hides not.
                yield (f"clearing {g.names['clearings'][cl]}: seat {p}'s token hides "
                       f"{names[f]}, which a guess ruled out")
        for f in range(NP):
            if tab[off["PIECE_FACE_DOWN"] + f] >= 0:
                down = sum(st[S["HFACE"] + p * C + cl] == f + 1 for cl in range(C))
                if down > st[S["SUPPLY"] + f]:
                    yield f"seat {p}: {down} {names[f]} face down, more than off the map"
    for cl in range(C):
        for fd in range(NP):
            mask = tab[off["PIECE_FACES"] + fd]
            if mask and st[S["BOARD"] + cl * NP + fd] + sum(
                    st[S["BOARD"] + cl * NP + f] for f in range(NP) if (mask >> f) & 1) > 1:
                yield (f"clearing {g.names['clearings'][cl]}: more than one {names[fd]}, "
                       "face up or down (Law 13.2.2.II)")
            if tab[off["PIECE_FACES"] + fd] and st[S["BOARD"] + cl * NP + fd] and not any(
                    st[S["HFACE"] + p * C + cl] for p in range(g.consts["P"])):
                yield (f"clearing {g.names['clearings'][cl]}: a {names[fd]} lies face down "
                       "with no face recorded")
    for p in range(g.consts["P"]):
        for cl in range(C):
            if st[S["FACE_NOT"] + p * C + cl] and not st[S["HFACE"] + p * C + cl]:
                yield (f"clearing {g.names['clearings'][cl]}: faces ruled out for seat "
                       f"{p}'s token, and none of its lies face down there")


def invariant_violations(g: Game) -> Iterator[str]:
    """What is wrong with a position (nothing, in a correct engine)."""
    S, c = g.S, g.consts
    st = g.state
    t = g._core_module.tables
    tab, off = t.table, t.table_layout.offsets
    NP, C, B = c["NP"], c["C"], c["B"]
    boxed = [0] * NP
    for p in range(g.num_players):
        f = g._seats[p]
        for b in range(B):
            n = st[S["BOX"] + p * B + b]
            if n < 0:
                yield f"negative count in box {b} of seat {p}"
            pc = tab[off["BOX_PIECE"] + f * B + b]
            if n and pc >= 0:  # (a tally box's pieces are out of play: counted there)
                boxed[pc] += n
    for h in range(c.get("NPOOL", 0)):  # pieces held on cards (models.CardBox)
        for pc in range(NP):
            n = st[S["POOL"] + h * NP + pc]
            if n < 0:
                yield f"negative count on card pool {h}"
            boxed[pc] += n
    if c.get("NPOOL", 0):  # ... and only on a card in a play area
        play = c["LOC_PLAY"]
        for i in range(c["N"]):
            h = tab[off["CARD_POOL"] + i]
            if h >= 0 and not play <= st[S["CARD_LOC"] + i] < play + g.num_players and \
                    any(st[S["POOL"] + h * NP + pc] for pc in range(NP)):
                yield f"pieces held on card {i}, which is in no play area"
    for pc in range(NP):
        cells = [st[S["BOARD"] + cl * NP + pc] for cl in range(C)]
        name = g.names["pieces"][pc]
        if min(cells) < 0 or st[S["SUPPLY"] + pc] < 0:
            yield f"negative count of {name}"
        total = tab[off["PIECE_COUNT"] + pc]
        in_forests = [st[S["FOREST"] + fo * NP + pc] for fo in range(c["NFOREST"])] \
            if "FOREST" in S else []  # pieces in forests (Law 15.3.1)
        if in_forests and min(in_forests) < 0:
            yield f"negative count of {name} in a forest"
        if sum(cells) + sum(in_forests) + st[S["SUPPLY"] + pc] + st[S["OUT"] + pc] + \
                boxed[pc] != total:
            yield f"{name}: map + supply + out + boxes != {total} (Law 1.5.1)"
        face = tab[off["PIECE_FACE"] + pc] if "PIECE_FACE" in off else -1
        if face >= 0 and (st[S["SUPPLY"] + pc] != st[S["SUPPLY"] + face] or
                          sum(cells) + sum(st[S["BOARD"] + cl * NP + face]
                                           for cl in range(C)) > total):
            yield f"{name}: its other face's supply or the two on the map (Law 15.2.2)"
        limit = tab[off["PIECE_PER_CLEARING"] + pc]
        if limit and max(cells) > limit:
            yield f"{name}: more than {limit} in a clearing (its per_clearing limit)"
    locs = [st[S["CARD_LOC"] + i] for i in range(c["N"])]
    deck = [st[S["DECK"] + i] for i in range(st[S["DECK_LEN"]])]
    if sorted(deck) != [i for i, x in enumerate(locs) if x == c["LOC_DECK"]]:
        yield "the deck order and the cards marked 'in the deck' differ"
    max_loc = c["LOC_ZONE"] + c["P"] * c["Z"]
    if not all(0 <= x <= c["LOC_AVAILABLE"] or c["LOC_HAND"] <= x < max_loc for x in locs):
        yield "a card is in no known place"
    for x in locs:
        if c["LOC_ZONE"] <= x < max_loc:
            p, z = divmod(x - c["LOC_ZONE"], c["Z"])
            if p >= g.num_players or z >= len(g.names["zones"][g._seats[p]]):
                yield "a card is in a zone no seated faction has"
                break
    for i, item in enumerate(g.names["items"]):
        crafted = sum(st[S["CRAFTED"] + p * c["I"] + i] for p in range(c["P"]))
        if st[S["ITEMS"] + i] + crafted != tab[off["ITEM_SUPPLY"] + i]:
            yield f"{item}: supply + crafted != the starting supply (Law 5.1.5)"
    if "EXHAUSTED" in S:  # exhausted items are crafted items face down
        for p in range(c["P"]):
            n = st[S["EXHAUSTED"] + p]
            if not 0 <= n <= sum(st[S["CRAFTED"] + p * c["I"] + i] for i in range(c["I"])):
                yield f"seat {p}: {n} exhausted items, not 0 to its crafted items"
    if "HFACE" in S:  # tokens laid face down, one to a clearing (models.Piece.faces)
        yield from _face_violations(g, st, S, tab, off, C, NP)
    for cl in range(C):
        buildings = st[S["RUINS"] + cl] + sum(
            st[S["BOARD"] + cl * NP + pc] for pc in range(NP)
            if tab[off["PIECE_KIND"] + pc] == 1)
        if buildings > tab[off["CLEARING_SLOTS"] + cl]:
            yield f"clearing {g.names['clearings'][cl]}: more buildings than slots"
    if any(v < 0 for v in g.scores):
        yield "negative VP"
    frames = [g.names["frames"][st[S["FRAMES"] + d * c["FRAME_FIELDS"]] - 1]
              for d in range(st[S["DEPTH"]])]
    if FR_PLACE not in frames and any(st[S["PLACE_LEFT"] + cl] for cl in range(C)):
        yield "pieces still owed after a placement closed"
    if FR_PLACE in frames:
        # One placement asks at a time, on top, and only where its answer matters (Law
        # 1.5.4): pieces in the supply, fewer than owed, to two clearings or more.
        owed = [st[S["PLACE_LEFT"] + cl] for cl in range(C)]
        pc = st[S["FRAMES"] + (st[S["DEPTH"]] - 1) * c["FRAME_FIELDS"] + 2]
        if frames.count(FR_PLACE) > 1 or frames[-1] != FR_PLACE:
            yield "a placement asks while another frame is open above it, or twice"
        elif not 0 < st[S["SUPPLY"] + pc] < sum(owed) or sum(x > 0 for x in owed) < 2:
            yield "a placement asks where its answer cannot matter"
    if FR_CRAFT_ANY not in frames and st[S["CRAFT_ANY_LEFT"]]:
        yield "'?' icons still owed after a craft closed"
    if FR_ZONE_PAY not in frames and st[S["ZPAY_LEFT"]]:
        yield "zone cards still owed after a payment closed"
    if not frames:
        yield from _zone_violations(g)
    yield from _effect_violations(g, frames)
    ncyc = c["NCYC"]
    for q in range(g.num_players):
        f = g._seats[q]
        for k in range(ncyc):
            at, n = st[S["CYCLE"] + q * ncyc + k], tab[off["CYCLE_LEN"] + f * ncyc + k]
            if not 0 <= at < max(n, 1):
                yield f"a cycle marker of {g.factions[q]} off its stages"
    legal = [] if g.is_over else g.legal_actions()
    if not g.is_over and not legal:
        yield "a decision with no legal action and no winner"
    if len(set(legal)) != len(legal):
        # One action, two ways to take it: the core's list of them is sized for each
        # action once (found by fuzzing: a menu naming one action twice).
        yield "an action listed twice among the legal actions"


def _effect_violations(g: Game, frames: list[str]) -> Iterator[str]:
    """The state of effects, removal events and battles (see the module doc)."""
    S, c, st = g.S, g.consts, g.state
    t = g._core_module.tables
    tab, off = t.table, t.table_layout.offsets
    P, K, N, U = c["P"], c["K"], c["N"], c["U"]
    defs = g.card_defs
    kinds = [tab[off["DEF_KIND"] + d] for d in range(K)]
    persistent, dominance, immediate = 3, 2, 4  # CARD_KINDS
    depth = st[S["DEPTH"]]
    if not 0 <= depth <= c["MAX_FRAMES"]:
        yield f"frame depth {depth} outside 0..{c['MAX_FRAMES']}"
    for q in range(P):
        area = [defs[i] for i in range(N) if st[S["CARD_LOC"] + i] == c["LOC_PLAY"] + q]
        for d in set(area):
            if kinds[d] == persistent and area.count(d) > 1:
                yield f"two copies of {g.names['cards'][d]} in a play area (Law 4.1.4)"
            if kinds[d] not in (persistent, dominance, immediate):
                yield f"{g.names['cards'][d]} in a play area"
            if kinds[d] == immediate and "effect" not in frames:
                yield f"{g.names['cards'][d]} (immediate) left in a play area"
        for u in range(U):
            if st[S["USED"] + q * U + u] not in (0, 1):
                yield "a used-effect flag other than 0 or 1"
        for q2 in range(P):
            seen = st[S["SEEN"] + (q * P + q2) * K:S["SEEN"] + (q * P + q2 + 1) * K]
            if any(n < 0 or n > defs.count(d) for d, n in enumerate(seen)):
                yield "a seen hand holds cards that do not exist"
            if st[S["SEEN_TURN"] + q * P + q2] > st[S["TURN"]]:
                yield "a hand seen in a turn still to come"
    stage = st[S["B_STAGE"]]
    dealing = stage in (2, 10, 11)  # B_AMBUSH_DEAL, B_DEAL_DEF, B_DEAL_ATT
    if st[S["LEDGER_N"]] and not dealing:
        yield "pieces removed but their removal event never ended (Law 1.5.4)"
    if st[S["HOLD_VICTORY"]] and stage not in (10, 11, 12):
        yield "a win held back outside a battle's hits"
    if stage and st[S["B_DEPTH"]] > depth:
        yield "a battle above the top of the frame stack"


def _zone_violations(g: Game) -> Iterator[str]:
    """Zones within their capacity wherever it is in force (no building lifting it on
    the map) once nothing is pending: a full zone discards what it gains (Law 8.2.3.I),
    and a zone over it is trimmed as the building that lifted it goes (Law 8.2.4)."""
    by_id = {f.id: f for f in g.bundle.factions}
    counts = g.piece_counts()
    on_map = {pc for row in counts.values() for pc, n in row.items() if n}
    for q in range(g.num_players):
        for z in by_id[g.factions[q]].zones:
            if z.capacity is None or on_map & set(z.unlimited_while):
                continue
            if len(g.zone(q, z.id)) > z.capacity:
                yield f"{g.factions[q]}'s {z.id}: more than {z.capacity} cards (Law 8.2.3.I)"


@dataclass
class Report:
    """What ``check_bundle`` found; ``ok`` when nothing failed.  ``long``: games still on
    after the decisions checked with invariants, played on to their end; ``stuck``:
    games with no progress for the stall window (runtime/stall.py); ``stopped``: games
    at the decision cap though not stuck; ``longest_stall``: in rounds."""

    games: int = 0
    winners: int = 0
    stopped: int = 0
    stuck: int = 0
    long: int = 0
    decisions: int = 0
    checked_decisions: int = 0
    longest_stall: int = 0
    agreement_games: int = 0
    agreement_skipped: str = ""
    scenarios: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def play_checked(bundle: Bundle, factions: list[str] | None, seed: int, *,
                 max_decisions: int, pure: bool | None = None,
                 progress: Progress | None = None) -> tuple[Game, list[str]]:
    """One random game, decision by decision, with the invariants after each one;
    ``progress`` follows it turn by turn (runtime/stall.py)."""
    g = Game(factions, seed, bundle=bundle, pure=pure)
    agent = RandomAgent(seed)
    problems = [f"seed {seed}, start: {v}" for v in invariant_violations(g)]
    turn = g.turn
    while not g.is_over and len(g.history) < max_decisions and not problems:
        legal = g.legal_actions()
        if not legal:
            break  # reported by invariant_violations
        g.apply(agent.choose(g, legal))
        problems += [f"seed {seed}, decision {len(g.history) - 1}: {v}"
                     for v in invariant_violations(g)]
        if progress is not None and g.turn != turn:
            if turn >= 1:  # a whole turn (not setup) ended
                progress.turn(turn, g.scores)
            turn = g.turn
    return g, problems


def play_on_to_the_end(g: Game, seed: int, progress: Progress, *, max_decisions: int,
                       stall_rounds: int) -> GameRecord:
    """A game still on after its checked decisions: the core's random agents (seeded
    with ``seed``) play it on without the invariants, fast, until it ends, is stuck
    (``stall_rounds`` without progress) or ``max_decisions`` are taken in all."""
    from .simulate import play_rounds

    g._core.seed_agent(seed)
    return play_rounds(g._core, g.state, g.S, max_decisions, len(g.history),
                       progress=progress, stall_rounds=stall_rounds)


def _stall_text(g: Game, progress: Progress) -> str:
    """What a stuck game looks like: where its stall began, the VP, who never scored."""
    n = g.num_players
    start = rounds_of(progress.run_start, n)
    vp = ", ".join(f"{f} {v}" for f, v in zip(g.factions, g.scores, strict=True))
    never = [f for f, best in zip(g.factions, progress.best, strict=True) if best == 0]
    return (f"no faction reached a VP it had not had before in {rounds_of(progress.run, n)} "
            f"rounds (from round {start}; VP {vp}"
            + (f"; {' and '.join(never)} never scored" if never else "") + ")")


def cores_agree(bundle: Bundle, factions: list[str] | None, seed: int,
                max_decisions: int) -> str | None:
    """Play the same game on both cores; the first difference, or None."""
    fast = Game(factions, seed, bundle=bundle, pure=False)
    slow = Game(factions, seed, bundle=bundle, pure=True)
    agent = RandomAgent(seed)
    n = 0
    while not fast.is_over and n < max_decisions:
        if fast.legal_actions() != slow.legal_actions():
            return f"seed {seed}, decision {n}: the cores offer different actions"
        a = agent.choose(fast, fast.legal_actions())
        fast.apply(a)
        slow.apply(a)
        if list(fast.state) != list(slow.state):
            return f"seed {seed}, decision {n} ({fast.notation(a)}): the cores' states differ"
        n += 1
    return None


GAME_CAP = 1_000_000
"""Decisions after which a game that is not stuck stops all the same (simulate's cap)."""


def check_bundle(bundle: Bundle, *, factions: list[str] | None = None, seed: int = 1,
                 games: int = 20, agreement: int = 3, max_decisions: int = 20_000,
                 stall_rounds: int = STALL_ROUNDS, scenario_paths: Sequence[Path] = (),
                 progress=None) -> Report:
    """Run the conformance checks on a bundle; see the module doc.  A game gets the
    invariants after each of its first ``max_decisions`` decisions; one still on then
    plays on to its end (``play_on_to_the_end``) and fails only when it is stuck: a
    legal game can be very long (runtime/stall.py)."""
    from .scenario import run_file

    rep = Report()
    for i in range(games):
        s = seed + i
        track = Progress([0] * len(factions or bundle.factions))
        g, problems = play_checked(bundle, factions, s, max_decisions=max_decisions,
                                   progress=track)
        rep.checked_decisions += len(g.history)
        decisions = len(g.history)
        if not g.is_over and not problems:
            rep.long += 1
            try:
                decisions = play_on_to_the_end(g, s, track, max_decisions=GAME_CAP,
                                               stall_rounds=stall_rounds).decisions
            except RootlawError as e:  # ENGINE-STUCK: no legal decision and no winner
                problems = [f"seed {s}, after decision {decisions}: {e}"]
        rep.games += 1
        rep.decisions += decisions
        rep.failures += problems
        rep.longest_stall = max(rep.longest_stall, rounds_of(track.longest, g.num_players))
        if problems:
            pass
        elif g.is_over:
            rep.winners += 1
        elif track.stuck(g.num_players, stall_rounds):
            rep.stuck += 1
            rep.failures.append(f"seed {s}: stuck: {_stall_text(g, track)}: can the content "
                                "end a game?")
        else:
            rep.stopped += 1
            rep.failures.append(f"seed {s}: no winner after {decisions} decisions, though "
                                f"not stuck ({stall_rounds} rounds without progress)")
        if progress is not None:
            progress.update(1)
    probe = Game(factions, seed, bundle=bundle)
    if not probe.compiled:
        rep.agreement_skipped = "no compiled core for this bundle (run `rootlaw build`)"
    else:
        for i in range(agreement):
            diff = cores_agree(bundle, factions, seed + i, max_decisions)
            rep.agreement_games += 1
            if diff:
                rep.failures.append(diff)
    files: list[Path] = []
    for p in scenario_paths:
        files += sorted(p.rglob("*.json")) if p.is_dir() else [p]
    for f in files:
        rep.scenarios += 1
        rep.failures += [f"scenario {x}" for x in run_file(f, bundle=bundle)]
    return rep


__all__ = ["Report", "check_bundle", "cores_agree", "invariant_violations", "play_checked",
           "play_on_to_the_end"]
