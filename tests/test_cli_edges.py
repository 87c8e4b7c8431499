"""The CLI at its edges: Ctrl-C, --save with many games, missing folders, limits that
make no sense, help text for every option."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from rootlaw.runtime import Game
from rootlaw.runtime.cli import build_parser, main


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


# ---------------------------------------------------------------------- Ctrl-C


def test_ctrl_c_during_play_json_prints_the_games_finished_so_far(capsys, monkeypatch):
    import rootlaw.runtime.log as log

    rc, out, _ = run(capsys, "play", "--seed", "3", "--games", "2", "--json")
    assert rc == 0
    whole = json.loads(out)

    real = log.play_game
    calls = []

    def interrupted_on_the_third(*a, **kw):
        calls.append(a)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(log, "play_game", interrupted_on_the_third)
    rc, out, _ = run(capsys, "play", "--seed", "3", "--games", "10", "--json")
    assert rc == 130
    part = json.loads(out)
    assert part.pop("interrupted") is True
    assert part == whole  # exactly the two games that finished, seeds 3 and 4


def test_ctrl_c_before_any_game_still_prints_a_summary(capsys, monkeypatch):
    import rootlaw.runtime.log as log

    def interrupt(*a, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(log, "play_game", interrupt)
    rc, out, _ = run(capsys, "play", "--games", "5", "--json")
    data = json.loads(out)
    assert rc == 130 and data["games"] == 0 and data["seeds"] == [] and data["interrupted"]


def test_ctrl_c_during_quiet_play_says_how_many_games_finished(capsys, monkeypatch):
    import rootlaw.runtime.log as log

    real, calls = log.play_game, []

    def interrupted_on_the_second(*a, **kw):
        calls.append(a)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(log, "play_game", interrupted_on_the_second)
    rc, out, _ = run(capsys, "play", "--games", "4", "--quiet")
    lines = out.splitlines()
    assert rc == 130 and len(lines) == 2
    assert lines[0].startswith("game 1: winner: ")
    assert lines[1].startswith("wins: ") and "(interrupted after 1 games)" in lines[1]


# ---------------------------------------------------------------------- --save


def test_save_with_many_games_saves_each_under_its_own_name(capsys, tmp_path):
    target = tmp_path / "game.json"
    rc, out, err = run(capsys, "play", "--seed", "11", "--games", "3", "--quiet",
                       "--save", target)
    assert rc == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        ["game-11.json", "game-12.json", "game-13.json"]
    for seed, line in zip((11, 12, 13), out.splitlines(), strict=False):
        g = Game.load(tmp_path / f"game-{seed}.json")
        assert g.seed == seed and g.is_over
        assert f"winner: {g.winner_faction} seed={seed} " in line


def test_save_with_one_game_uses_the_name_given(capsys, tmp_path):
    target = tmp_path / "game.json"
    assert run(capsys, "play", "--seed", "2", "--quiet", "--save", target)[0] == 0
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert Game.load(target).seed == 2


@pytest.mark.parametrize("option", ["--save", "--log"])
def test_output_into_a_missing_folder_is_a_located_io_error_before_any_game(
        capsys, tmp_path, option):
    target = tmp_path / "no-such-folder" / "game.json"
    rc, out, err = run(capsys, "play", "--seed", "1", option, target)
    assert rc == 1 and out == ""  # refused before a game was played
    assert err.startswith(f"rootlaw: {target}: IO-ERROR: {option}: no folder ")
    assert not target.parent.exists()


@pytest.mark.parametrize("command", [["schema"], ["catalogue"], ["validate", "--list-checks"]])
def test_out_into_a_missing_folder_is_a_located_io_error(capsys, tmp_path, command):
    target = tmp_path / "missing" / "x.md"
    rc, _, err = run(capsys, *command, "--out", target)
    assert rc == 1 and err.startswith(f"rootlaw: {target}: IO-ERROR: ")
    assert "Traceback" not in err


# ---------------------------------------------------------------------- limits


@pytest.mark.parametrize("argv", [
    ["play", "--games", "0"], ["play", "--games", "-3"], ["play", "--max-decisions", "0"],
    ["play", "--games", "many"], ["bench", "--games", "0"], ["bench", "--min-seconds", "-1"],
    ["check", "--games", "-1"], ["check", "--agreement", "-1"],
    ["check", "--max-decisions", "0"], ["perft", "--depth", "0"], ["perft", "--after", "-1"],
])
def test_counts_and_limits_below_their_minimum_are_refused_by_the_parser(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {argv[1]}: " in err
    assert "must be at least" in err or "is not a number" in err


def _options(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for opt in _options(sub):
                    yield (name, *opt)
        elif not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            yield (action.dest, action.help)


def test_every_option_of_every_command_has_help_text():
    options = list(_options(build_parser()))
    assert len(options) > 40  # the walk reaches the subcommands
    missing = [opt[:-1] for opt in options if not opt[-1] or opt[-1] == argparse.SUPPRESS]
    assert not missing, f"options without help: {missing}"


def test_every_command_has_help_text():
    sub = next(a for a in build_parser()._actions
               if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: c.help for c in sub._choices_actions}
    assert set(helps) == set(sub.choices) and all(helps.values())


def test_the_save_of_a_many_game_run_is_documented():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert "game-<seed>.json" in readme
