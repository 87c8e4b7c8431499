"""Root as an OpenSpiel game: importing this module registers ``"rootlaw"``.

    import pyspiel, rootlaw.runtime.envs.openspiel
    game = pyspiel.load_game("rootlaw", {"factions": "a,b", "seed": 7})

Sequential, imperfect information, general-sum, rewards at the end (as
``rootlaw.runtime.envs.outcome``: win 1, loss -1, stopped 0).  Chance is *sampled*:
dice and shuffles come from the game's own seeded generator inside the state, never as
chance nodes.  The k-th initial state of a loaded game to be played (counting from 0)
plays seed ``seed + k``, the game ``rootlaw play --seed`` deals.  What no player knows
yet is not part of a state a bot can look at: a clone has the deck's order dealt again
and a fresh generator (the dice and shuffles to come), so a search that plays on clones
(OpenSpiel's MCTS) meets a future it could not have known, never the real one (Law 1.2).
The state itself plays on its own future; only clones are sampled.

``resample_from_infostate(player, sampler)`` is ``Game.determinize``: a state the player
cannot tell from this one (the same information-state string), everything hidden from
it dealt again consistently with what it has seen; OpenSpiel's ``ISMCTSBot`` searches on
such states.  A sampled state pickles as its whole state array (it is no game a seed and
decisions reach, so not as a save).

With ``deals`` = N > 0 the same game has *explicit* chance instead: the initial state is
a chance node with N equally likely outcomes, the deals ``seed .. seed + N - 1``, and
everything random after it follows from the deal (nature draws the game's whole random
tape at once, hidden from the players: their observations never show it).  This is the
form OpenSpiel can save whole: ``serialize_game_and_state`` asks a sampled-chance game for
its generator's state (``GetRNGState``), which pyspiel gives Python games no way to
provide, so ``random_sim_test(serialize=True)`` needs ``deals``.

Parameters: ``factions`` (seat order, separated by commas or colons; default every
faction of the base game), ``seed``, ``max_decisions`` (the game stops there, 0 to
everyone; also the game's ``max_game_length``), ``deals`` (above; 0, the default, for
sampled chance), ``packs`` (pack directories, separated
by commas or the path separator) and ``map``/``deck`` (a pack's map or deck, as ``rootlaw
play --map/--deck``).  OpenSpiel's game strings separate parameters by commas, so the
game keeps its lists with colons (path separators): ``pyspiel.load_game(str(game))``
loads the same game.

Observations (``observation_tensor``/``observation_string``) are the seat's
``observation_vector``: what it sees now, its own hand and every other hand's size.  The
information state is the same tensor; its string adds the seat's own history: before
each decision of the game, a digest of what the seat saw then, who decided and, for its
own decisions only, what it chose.  Not every decision is seen by all (a card a faction
puts face down into a hidden stack, Law 1.2), so another seat's choice shows
only through what it changes in this seat's observation.  A fixed-size tensor cannot
hold the whole history of a game of unbounded length, so the information-state *tensor*
is not perfect recall: use the strings where an algorithm needs perfect recall.  The
histories are built when a string is asked for, not at every decision (``_Trail``).

Speed: OpenSpiel asks ``current_player`` and ``is_terminal`` several times per decision,
so both read the core directly; ``legal_actions()`` called from Python answers from
Python (pyspiel's own goes from C++ back into Python four times); ``random_games`` is
the loop ``rootlaw bench`` times.

Serialization: a state pickles as its game's save (``Game.to_dict``, checked by replaying
it); ``state.serialize()`` and ``game.deserialize_state()`` round-trip, in both chance
modes; ``serialize_game_and_state`` works with ``deals`` (above).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from hashlib import blake2b
from typing import Any

from ._extra import require

require("rootlaw.runtime.envs.openspiel", "numpy", "pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from ..errors import RootlawError  # noqa: E402
from ..game import Game, base_bundle  # noqa: E402
from . import outcome  # noqa: E402
from .seats import bundle_for, game_info  # noqa: E402

SHORT_NAME = "rootlaw"
_CHANCE = pyspiel.PlayerId.CHANCE
_TERMINAL = pyspiel.PlayerId.TERMINAL

_BASE = game_info(base_bundle())
DEFAULTS = {
    "factions": ":".join(_BASE.factions[:_BASE.max_players]),
    "seed": 0,
    "max_decisions": _BASE.max_decisions,
    "deals": 0,
    "packs": "",
    "map": "",
    "deck": "",
}


def _game_type(chance_mode) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Root (rootlaw)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance_mode,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_BASE.max_players,
        min_num_players=_BASE.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


GAME_TYPE = _game_type(pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC)
# The type of a game loaded with ``deals``: the same game, its chance a node.
DEALT_TYPE = _game_type(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC)


def _split(text: str, sep: str) -> list[str]:
    return [x.strip() for x in text.replace(",", sep).split(sep) if x.strip()]


class RootGame(pyspiel.Game):
    """The OpenSpiel game: the bundle, the seating and the seeds of new games."""

    def __init__(self, params: dict | None = None):
        p = {**DEFAULTS, **(params or {})}
        self.packs = _split(str(p["packs"]), os.pathsep)
        self.map, self.deck = str(p["map"]) or None, str(p["deck"]) or None
        self.bundle = bundle_for(self.packs, self.map, self.deck)
        probe = Game(_split(str(p["factions"]), ":"), 0, bundle=self.bundle)  # checks seats
        self.factions = list(probe.factions)
        p["factions"] = ":".join(self.factions)
        p["packs"] = os.pathsep.join(self.packs)
        info = game_info(self.bundle)
        self.max_decisions = int(p["max_decisions"])
        if self.max_decisions < 1:
            raise RootlawError("max_decisions is a positive integer", code="VALUE-INVALID")
        self._next_seed = self.first_seed = int(p["seed"])
        self.deals = int(p["deals"])
        if self.deals < 0:
            raise RootlawError("deals is 0 (sampled chance) or a positive number of deals",
                               code="VALUE-INVALID")
        self.observation_layout = probe.observation_layout
        self.private_fields = [self.observation_layout[name] for name, seen in
                               probe.observation_visibility.items() if seen == "owner"]
        self.observation_size = info.observation_size
        super().__init__(DEALT_TYPE if self.deals else GAME_TYPE, pyspiel.GameInfo(
            num_distinct_actions=info.num_actions,
            max_chance_outcomes=self.deals,
            num_players=len(self.factions),
            min_utility=outcome.LOSS,
            max_utility=outcome.WIN,
            utility_sum=None,
            max_game_length=self.max_decisions + (1 if self.deals else 0),  # the deal
        ), p)

    def next_seed(self) -> int:
        seed = self._next_seed
        self._next_seed += 1
        return seed

    def peek_seed(self) -> int:
        return self._next_seed

    def new_initial_state(self) -> RootState:
        return RootState(self)

    def deal(self, outcome: int) -> Game:
        """The game of the chance outcome ``outcome`` (with ``deals``)."""
        return Game(self.factions, self.first_seed + outcome, bundle=self.bundle)

    def make_py_observer(self, iig_obs_type=None, params=None) -> RootObserver:
        return RootObserver(self, iig_obs_type or pyspiel.IIGObservationType(
            perfect_recall=False), params)


class _Position:
    """A state's game.  OpenSpiel clones a Python state by deep-copying its attributes
    and serializes it by pickling them: here a clone is ``Game.clone()`` and a pickle is
    the game's save.  OpenSpiel also makes states only to copy another into, or to learn
    the tensor shapes: so the game is dealt (and takes its seed) on first use, and a
    look before that (an observer) sees the game it will be without dealing it.  With
    ``deals`` the game is dealt by the chance node instead (``by_chance``): until then it
    is ``undealt``."""

    __slots__ = ("_game", "_owner", "by_chance", "content", "worlds")

    def __init__(self, owner: RootGame | None, content: tuple, game: Game | None = None,
                 by_chance: bool = False, worlds: tuple = ()):
        self._owner = owner
        self.content = content  # (packs, map, deck): the bundle, to unpickle into
        self._game = game
        self.by_chance = by_chance
        # The samples this position's game came from, oldest first: (k, the sample as it
        # was after k decisions).  Decisions from the k-th on were taken in that world,
        # so a history is told in it (_Trail.entries); the seed's world before the first.
        self.worlds = worlds

    def sampled(self, game: Game) -> None:
        """The game is now this sample, taken after the decisions it has: a world of its
        own from here on (a clone's fresh future, resample_from_infostate)."""
        self._game = game
        self.worlds = (*self.worlds, (len(game.history), game.clone()))

    @property
    def undealt(self) -> bool:
        return self._game is None and self.by_chance

    def deal(self, game: Game) -> None:
        self._game = game

    @property
    def game(self) -> Game:
        if self._game is None:
            if self.by_chance:
                raise pyspiel.SpielError("the game is dealt by its chance node: not yet")
            o = self._owner
            assert o is not None
            self._game = Game(o.factions, o.next_seed(), bundle=o.bundle)
        return self._game

    def peek(self) -> Game | None:
        if self._game is not None:
            return self._game
        if self.by_chance:
            return None
        o = self._owner
        assert o is not None
        return Game(o.factions, o.peek_seed(), bundle=o.bundle)

    def __deepcopy__(self, memo) -> _Position:
        if self.undealt:
            return _Position(self._owner, self.content, None, True)
        g = self.game
        if self.by_chance:  # the deal drew the whole random tape: it is the state's own
            return _Position(self._owner, self.content, g.clone(), True, self.worlds)
        # Sampled chance: what nobody knows yet (the deck's order, the dice) is sampled
        # again, from a seed of the state's own, so a copy is not the real future.
        copy = _Position(self._owner, self.content, None, False, self.worlds)
        copy.sampled(g.determinize(None, _SAMPLES.getrandbits(63)))
        return copy

    def __reduce__(self):
        if self.undealt:
            return (_Position, (None, self.content, None, True))
        g = self.game
        if g._sampled:
            worlds = [(k, list(w.state), list(w.history)) for k, w in self.worlds]
            return (_restore_sample, (self.content, g.factions, g.seed, list(g.state),
                                      list(g.history), worlds))
        return (_restore, (self.content, g.to_dict(), self.by_chance))


# Seeds of the samples clones take: one stream per process, seeded once, so a run is
# reproducible (OpenSpiel gives a Python state no generator of its own to draw from).
_SAMPLES = __import__("random").Random(0x5EED)


def _restore(content: tuple, save: dict, by_chance: bool = False) -> _Position:
    return _Position(None, content, Game.from_dict(save, bundle=bundle_for(*content)),
                     by_chance)


def _restore_sample(content: tuple, factions: list[str], seed: int, state: list[int],
                    history: list[int], worlds: Sequence[Any] = ()) -> _Position:
    def game(state: list[int], history: list[int]) -> Game:
        g = Game(factions, seed, bundle=bundle_for(*content), _restore=(state, history))
        g._sampled = True
        return g

    return _Position(None, content, game(state, history), False,
                     tuple((k, game(ws, wh)) for k, ws, wh in worlds))


class _Trail:
    """Each seat's history as its information-state string tells it (module doc): one
    entry per decision of the game.  Built when a string is asked for, never while
    playing (building every seat's entry at every decision was most of a decision's
    cost): the entries follow from the game's seed and decisions alone, and from the
    samples a sampled state's game came from (``_Position.worlds``: a decision taken in
    a sample is told as it was there), so they are made then by replaying the decisions
    not yet rendered on a copy of the game at its start or at its last sample
    (``cursor``), and kept.  Entries never change, so a clone copies the lists,
    not the entries (and a clone made before any was asked copies nothing)."""

    __slots__ = ("seen", "cursor")

    def __init__(self, seen: list[list[str]], cursor: Game | None = None):
        self.seen = seen
        self.cursor = cursor  # the game after the decisions rendered so far

    def __deepcopy__(self, memo) -> _Trail:
        return _Trail([row[:] for row in self.seen],
                      self.cursor.clone() if self.cursor is not None else None)

    def __getstate__(self):
        return (self.seen, None)  # the cursor is made again from the game when needed

    def __setstate__(self, state) -> None:
        self.seen, self.cursor = state

    def entries(self, g: Game, seat: int, worlds: tuple = ()) -> list[str]:
        """Seat's entries for every decision ``g`` has taken, each rendered in the world
        it was taken in (``worlds``: the samples ``g`` came from, _Position.worlds)."""
        history = g.history
        done = len(self.seen[seat])
        if done < len(history):
            at = self.cursor
            if at is None or len(at.history) != done:
                # First ask (or after a pickle): from the start of the world of decision
                # `done` (the last sample taken by then; the seed's game before any).
                k, start = next(((k, w) for k, w in reversed(worlds) if k <= done),
                                (0, None))
                at = start.clone() if start is not None else \
                    Game(list(g.factions), g.seed, bundle=g.bundle, pure=not g.compiled)
                for a in history[k:done]:
                    at.apply(a)
            switch = {k: w for k, w in worlds if k >= done}  # the last of a k wins
            for i in range(done, len(history)):
                if i in switch:  # from here on, the sample's world
                    at = switch[i].clone()
                self.record(at, history[i])
                at.apply(history[i])
            self.cursor = at
        return self.seen[seat]

    def record(self, g: Game, action: int) -> None:
        actor = g.to_play
        for seat, row in enumerate(self.seen):
            saw = blake2b(g.observation_vector(seat).tobytes(), digest_size=8).hexdigest()
            row.append(f"{saw}/{actor}:{action if seat == actor else '?'}")


class RootState(pyspiel.State):
    """A position: the game so far and the decision cap."""

    def __init__(self, game: RootGame):
        super().__init__(game)
        self.position = _Position(game, (game.packs, game.map, game.deck),
                                  by_chance=game.deals > 0)
        self.max_decisions = game.max_decisions
        self.trail = _Trail([[] for _ in game.factions])

    @property
    def game(self) -> Game:
        return self.position.game

    # OpenSpiel asks current_player() and is_terminal() several times per decision
    # (four and six times in a random playout): both read the game's state directly.

    def current_player(self) -> int:
        g = self.position._game
        if g is None:
            if self.position.by_chance:
                return _CHANCE
            g = self.position.game
        if len(g._history) >= self.max_decisions:
            return _TERMINAL
        seat = g._core.deciding()  # -1 once the game is over
        return seat if seat >= 0 else _TERMINAL

    def is_terminal(self) -> bool:
        g = self.position._game
        if g is None:
            if self.position.by_chance:
                return False
            g = self.position.game
        return g._core.deciding() < 0 or len(g._history) >= self.max_decisions

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self.get_game().deals
        return [(k, 1.0 / deals) for k in range(deals)]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.game._core.legal_actions())

    def legal_actions(self, player: int | None = None) -> list[int]:
        """What pyspiel's ``State.legal_actions`` returns (none once terminal; the chance
        outcomes at the chance node, whoever asks; sorted for the seat to play, none for
        another), without
        its trips from C++ back into Python (``is_terminal``, ``current_player`` twice,
        ``_legal_actions``): from Python, a decision's listing costs a tenth of that.
        C++ callers (``legal_actions_mask``, OpenSpiel's C++ algorithms) go its own way,
        to the same answer."""
        current = self.current_player()
        if current == _TERMINAL:
            return []
        if current == _CHANCE:
            return [k for k, _ in self.chance_outcomes()]
        if player is None or player == current:
            return sorted(self.game._core.legal_actions())
        if player < 0:
            raise pyspiel.SpielError(f"legal_actions: player {player} is not to play")
        return []

    def _apply_action(self, action: int) -> None:
        if self.position.undealt:
            self.position.deal(self.get_game().deal(int(action)))
            return
        g = self.game
        if not g._core.apply(action):  # the common case is one call into the core
            g.apply(int(action))  # the error that says why
            return
        g._record(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {self.get_game().first_seed + int(action)}"
        g = self.game
        if not 0 <= player < g.num_players:
            player = 0
        text = g.space.notation(int(action), g.names["factions"].index(g.factions[player]))
        if text.startswith("battle "):  # name the defender by faction, as Game.notation
            head, seat = text.rsplit(" seat", 1)
            text = f"{head} {g.factions[int(seat)]}"
        return text

    def returns(self) -> list[float]:
        return outcome.outcome_rewards(self.game)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> RootState:
        """A state ``player_id`` cannot tell from this one: its information-state string
        is the same, and everything hidden from it (other hands, face-down zones, the
        deck's order, the dice to come) is dealt again consistently with what it has seen
        (``Game.determinize``), from ``probability_sampler()`` (a uniform draw)."""
        copy = self.clone()
        if self.position.undealt:
            return copy
        seed = int(float(probability_sampler()) * 2.0**53)
        copy.position.sampled(self.game.determinize(int(player_id), seed))
        return copy

    def __str__(self) -> str:
        # The seed and the decisions taken: with sampled chance, what they lead to past
        # the next die or shuffle is the state's own (a clone samples its own future),
        # so the string names no more than they fix.  observation_string shows a seat's
        # view of the position.
        if self.position.undealt:
            return "not dealt yet"
        g = self.game
        return f"seed {g.seed}, decisions: {' '.join(map(str, g.history))}"


class RootObserver:
    """Observation and information-state tensors and strings (see the module doc)."""

    def __init__(self, game: RootGame, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("Root has no observation with every player's private "
                             "information (hands are hidden)")
        self.public = iig_obs_type.public_info
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = iig_obs_type.perfect_recall
        self.tensor = np.zeros(game.observation_size, np.float32)
        self.dict = {name: self.tensor[off:off + size]
                     for name, (off, size) in game.observation_layout.items()}
        # Private information: the fields only their owner sees (visibility "owner" in
        # generator/tables.py OBSERVATION: the seat's own hand).
        self._private = np.zeros(game.observation_size, bool)
        for off, size in game.private_fields:
            self._private[off:off + size] = True
        self._vec = np.zeros(game.observation_size, np.int64)  # written by the core

    def _vector(self, state: RootState, player: int) -> np.ndarray:
        game = state.position.peek()
        if game is None:  # before the deal: nothing to see yet
            return np.zeros_like(self._vec)
        vec = game.observation_vector(player, self._vec)
        if self.public and self.private:
            return vec
        out = np.zeros_like(vec)
        if self.public:
            out[~self._private] = vec[~self._private]
        if self.private:
            out[self._private] = vec[self._private]
        return out

    def set_from(self, state: RootState, player: int) -> None:
        self.tensor[:] = self._vector(state, player)

    def string_from(self, state: RootState, player: int) -> str:
        text = ",".join(map(str, self._vector(state, player).tolist()))
        if self.perfect_recall:
            text += "|" + ",".join(state.trail.entries(state.game, player,
                                                       state.position.worlds))
        return f"p{player}:{text}"


def random_games(factions: list[str], games: int, seed: int) -> int:
    """The loop a tool writes over the OpenSpiel game (``rootlaw bench`` times it): the
    ``games`` initial states of a game loaded with ``seed`` (seeds seed, seed+1 ...),
    each played to its end by ``legal_actions()``, a pick of ``RandomAgent(its seed)``
    and ``apply_action()``; returns the decisions taken."""
    from ..agents import RandomAgent

    game = pyspiel.load_game(SHORT_NAME, {"factions": ":".join(factions), "seed": seed})
    n = 0
    for k in range(games):
        state = game.new_initial_state()
        agent = RandomAgent(seed + k)
        while not state.is_terminal():
            state.apply_action(agent.choose(None, state.legal_actions()))
            n += 1
    return n


pyspiel.register_game(GAME_TYPE, RootGame)
