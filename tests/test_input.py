"""Any input, however broken, gets a coded error: content files, scenarios, saves, logs.

One reading path (rootlaw.spec.jsonio) serves them all: a size cap, UTF-8, JSON proper
(no NaN), a nesting limit, keys named twice.  Big inputs are generated in tmp_path.
No test here measures time; the timings are checked by hand (see the report of the
change that added this file).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rootlaw.spec import SpecError, load_file
from rootlaw.spec.jsonio import (
    CONTENT_MAX_BYTES,
    MAX_DEPTH,
    JsonInputError,
    parse,
    read_json_lines,
)

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "tests" / "data" / "content" / "good-faction.json"


def codes(path: Path) -> list[tuple[str, str]]:
    with pytest.raises(SpecError) as e:
        load_file(path)
    return [(d.code, d.pointer) for d in e.value.diagnostics]


def line_of(text: str, needle: str) -> int:
    assert text.count(needle) == 1
    return text[: text.index(needle)].count("\n") + 1


# ---------------------------------------------------------------------- content files


def test_json_nested_100000_deep_is_json_depth(tmp_path):
    f = tmp_path / "deep.json"
    f.write_text("[" * 100_000 + "]" * 100_000)
    assert codes(f) == [("JSON-DEPTH", "")]


def test_json_nested_just_past_the_limit_is_json_depth_at_the_value(tmp_path):
    f = tmp_path / "deep.json"
    f.write_text('{"kind": "map", "x": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}")
    [(code, ptr)] = codes(f)
    assert code == "JSON-DEPTH"
    assert ptr == "/x" + "/0" * (MAX_DEPTH - 1)  # the first array one level too deep


def test_json_at_the_limit_is_read(tmp_path):
    data = {"a": 1}
    for _ in range(MAX_DEPTH - 1):
        data = {"a": data}
    assert parse(json.dumps(data)).data == data


def test_brackets_inside_strings_do_not_count_as_nesting():
    text = json.dumps({"a": "[" * 100 + '\\"{' * 100, "b": ["]]]", {"c": "\\"}]})
    assert parse(text).data == json.loads(text)
    deep = '{"s": "]]]]", "x": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}"
    with pytest.raises(JsonInputError) as e:
        parse(deep)
    assert e.value.code == "JSON-DEPTH"


def test_a_200000_item_list_is_read_and_located(tmp_path):
    # The line index once recounted newlines per value (minutes for this file).
    data = json.loads(GOOD.read_text(encoding="utf-8"))
    data["extra"] = [0] * 200_000
    f = tmp_path / "big.json"
    text = json.dumps(data, indent=0)  # a line per value: 200,000 lines, under the cap
    f.write_text(text)
    with pytest.raises(SpecError) as e:
        load_file(f)
    [d] = e.value.diagnostics
    assert (d.code, d.pointer, d.line) == ("KEY-UNKNOWN", "/extra", line_of(text, '"extra"'))


def test_a_binary_file_is_file_encoding(tmp_path):
    f = tmp_path / "bin.json"
    f.write_bytes(bytes(range(256)) * 400)
    assert codes(f) == [("FILE-ENCODING", "")]


def test_a_file_over_the_cap_is_file_too_big(tmp_path):
    f = tmp_path / "huge.json"
    f.write_text('{"kind": "map", "name": "' + "x" * (50 * 2**20) + '"}')
    assert codes(f) == [("FILE-TOO-BIG", "")]
    assert f.stat().st_size > CONTENT_MAX_BYTES


def test_a_folder_where_a_file_is_expected(tmp_path):
    assert codes(tmp_path) == [("FILE-MISSING", "")]


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(tmp_path, token):
    text = GOOD.read_text(encoding="utf-8").replace('"setup_order": 5', f'"setup_order": {token}')
    assert f'"setup_order": {token}' in text
    f = tmp_path / "nan.json"
    f.write_text(text)
    with pytest.raises(SpecError) as e:
        load_file(f)
    [d] = e.value.diagnostics
    assert d.code == "JSON-SYNTAX" and token.lstrip("-") in d.message
    assert d.line == line_of(text, '"setup_order"')


def test_a_number_too_long_to_read_is_json_syntax(tmp_path):
    text = GOOD.read_text(encoding="utf-8").replace('"setup_order": 5',
                                                    '"setup_order": ' + "9" * 5000)
    f = tmp_path / "long.json"
    f.write_text(text)
    with pytest.raises(SpecError) as e:
        load_file(f)
    [d] = e.value.diagnostics
    assert d.code == "JSON-SYNTAX" and d.line == line_of(text, '"setup_order"')


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    f = tmp_path / "bom.json"
    f.write_bytes(b"\xef\xbb\xbf" + GOOD.read_bytes())
    assert load_file(f).id == "test-otters"


def test_a_key_named_twice_is_key_dup_at_the_second(tmp_path):
    text = GOOD.read_text(encoding="utf-8").replace(
        '"setup_order": 5,', '"setup_order": 5,\n  "setup_order": 6,')
    f = tmp_path / "dup.json"
    f.write_text(text)
    with pytest.raises(SpecError) as e:
        load_file(f)
    [d] = e.value.diagnostics
    assert (d.code, d.pointer) == ("KEY-DUP", "/setup_order")
    assert d.line == line_of(text, '"setup_order": 6')


def test_a_piece_named_twice_is_key_dup(tmp_path):
    data = GOOD.read_text(encoding="utf-8")
    first = data.index('"otter-warrior": {')
    end = data.index("}", first) + 1
    text = data[:end] + ",\n    " + data[first:end] + data[end:]
    f = tmp_path / "dup.json"
    f.write_text(text)
    assert codes(f) == [("KEY-DUP", "/pieces/otter-warrior")]


@pytest.mark.parametrize("where, value", [
    (("setup_order",), "5"), (("setup_order",), True), (("setup_order",), 5.0),
    (("pieces", "otter-warrior", "count"), "25"), (("pieces", "otter-warrior", "count"), True),
])
def test_strings_and_booleans_where_integers_go(tmp_path, where, value):
    """The loader agrees with the exported JSON Schema: no coercion of "25" or true."""
    data = json.loads(GOOD.read_text(encoding="utf-8"))
    node = data
    for k in where[:-1]:
        node = node[k]
    node[where[-1]] = value
    f = tmp_path / "x.json"
    f.write_text(json.dumps(data, indent=2))
    assert codes(f) == [("VALUE-INVALID", "/" + "/".join(where))]


def test_an_integer_where_a_boolean_goes(tmp_path):
    data = json.loads(GOOD.read_text(encoding="utf-8"))
    piece = next(iter(data["pieces"]))
    data["pieces"][piece]["permanent_removal"] = 1
    f = tmp_path / "x.json"
    f.write_text(json.dumps(data, indent=2))
    assert codes(f) == [("VALUE-INVALID", f"/pieces/{piece}/permanent_removal")]


def test_the_json_schema_rejects_the_same_strings_and_booleans():
    jsonschema = pytest.importorskip("jsonschema")
    from rootlaw.spec.json_schema import schema

    validator = jsonschema.Draft202012Validator(schema())
    data = json.loads(GOOD.read_text(encoding="utf-8"))
    data.pop("$schema", None)
    assert not list(validator.iter_errors(data))
    for value in ("5", True):
        assert list(validator.iter_errors({**data, "setup_order": value}))


# ---------------------------------------------------------------------- JSON lines


def test_json_lines_are_read_as_a_stream_with_a_cap_per_line(tmp_path):
    f = tmp_path / "log.jsonl"
    f.write_text('{"a": 1}\n[2]\n' + '"' + "x" * 100_000 + '"\n')
    it = read_json_lines(f)
    assert next(it) == (1, {"a": 1})
    assert next(it) == (2, [2])
    with pytest.raises(JsonInputError) as e:
        next(it)
    assert (e.value.code, e.value.diagnostic.line) == ("FILE-TOO-BIG", 3)


def test_a_json_line_nested_too_deep_names_its_line(tmp_path):
    f = tmp_path / "log.jsonl"
    f.write_text('{"a": 1}\n' + "[" * 20_000 + "]" * 20_000 + "\n")
    with pytest.raises(JsonInputError) as e:
        list(read_json_lines(f))
    assert (e.value.code, e.value.diagnostic.line) == ("JSON-DEPTH", 2)


# ---------------------------------------------------------------------- saves


@pytest.fixture
def save_data(tmp_path) -> tuple[Path, dict]:
    from rootlaw.runtime import Game

    g = Game(["marquise", "eyrie"], 3)
    for _ in range(12):
        g.apply(g.legal_actions()[0])
    path = tmp_path / "s.json"
    g.save(path)
    return path, json.loads(path.read_text(encoding="utf-8"))


def save_error(path: Path, code: str = "SAVE-CORRUPT"):
    """Game.load must raise SaveError with this code, naming the file; nothing else."""
    from rootlaw.runtime import Game, SaveError

    try:
        Game.load(path)
    except SaveError as e:
        assert e.code == code and str(path) in str(e), str(e)
        return e
    except BaseException as e:  # noqa: BLE001 -- the point is that nothing else escapes
        pytest.fail(f"Game.load raised {type(e).__name__}: {e}")
    pytest.fail("a broken save loaded")


BROKEN_SAVES = {
    "deep": lambda d: "[" * 100_000 + "]" * 100_000,
    "deep-inside": lambda d: json.dumps({**d, "actions": []})[:-1] + ', "x": ' +
    "[" * 70 + "]" * 70 + "}",
    "nan": lambda d: json.dumps(d).replace('"seed": 3', '"seed": NaN'),
    "long-number": lambda d: json.dumps(d).replace('"seed": 3', '"seed": ' + "7" * 5000),
    "key-twice": lambda d: json.dumps(d)[:-1] + ', "seed": 4}',
    "huge-actions": lambda d: json.dumps({**d, "actions": [0] * 200_000}),
    "format-true": lambda d: json.dumps({**d, "format": True}),
    "bundle-list": lambda d: json.dumps({**d, "bundle": [d["bundle"]]}),
    "seed-too-big": lambda d: json.dumps({**d, "seed": 2**70}),
    "seed-bool": lambda d: json.dumps({**d, "seed": True}),
    "state-strings": lambda d: json.dumps({**d, "state": [str(v) for v in d["state"]]}),
    "factions-nested": lambda d: json.dumps({**d, "factions": [["marquise"], "eyrie"]}),
    "actions-object": lambda d: json.dumps({**d, "actions": {"0": 1}}),
}


@pytest.mark.parametrize("kind", sorted(BROKEN_SAVES))
def test_a_broken_save_is_a_save_error(save_data, kind):
    path, data = save_data
    path.write_text(BROKEN_SAVES[kind](data), encoding="utf-8")
    e = save_error(path)
    if kind in ("key-twice", "seed-too-big", "seed-bool"):
        assert "#/seed" in str(e)
    if kind == "bundle-list":
        assert "#/bundle" in str(e)


def test_a_binary_save_and_a_save_over_the_cap(save_data):
    from rootlaw.spec.jsonio import SAVE_MAX_BYTES

    path, _ = save_data
    path.write_bytes(bytes(range(256)) * 1000)
    assert "not UTF-8" in str(save_error(path))
    path.write_text('{"actions": [' + "0," * (SAVE_MAX_BYTES // 2) + "0]}")
    assert "too big" in str(save_error(path))


def test_from_json_of_something_else_is_a_save_error():
    from rootlaw.runtime import Game, SaveError

    for text in (b"{}", None, "[" * 100_000):
        with pytest.raises(SaveError):
            Game.from_json(text)  # type: ignore[arg-type]


def test_save_into_a_missing_folder_is_a_located_io_error(tmp_path):
    from rootlaw.runtime import FileError, Game, RootlawError

    target = tmp_path / "no-such-folder" / "game.json"
    with pytest.raises(FileError) as e:
        Game(["marquise", "eyrie"], 1).save(target)
    assert isinstance(e.value, RootlawError) and isinstance(e.value, OSError)
    assert e.value.code == "IO-ERROR" and str(target) in str(e.value)
    assert not target.parent.exists(), "the folder must not be created"


def test_save_onto_a_folder_is_a_located_io_error(tmp_path):
    from rootlaw.runtime import FileError, Game

    with pytest.raises(FileError) as e:
        Game(["marquise", "eyrie"], 1).save(tmp_path)
    assert str(tmp_path) in str(e.value) and e.value.code == "IO-ERROR"


# ---------------------------------------------------------------------- logs


@pytest.fixture(scope="module")
def log_lines(tmp_path_factory) -> list[str]:
    from rootlaw.runtime.log import play_game
    from rootlaw.spec import resolve

    log = tmp_path_factory.mktemp("log") / "g.jsonl"
    play_game(resolve(), ["marquise", "eyrie"], 5, log_path=str(log), max_decisions=40)
    return log.read_text(encoding="utf-8").splitlines()


def replay_error(capsys, path: Path, line: int | None, code: str = "LOG-INVALID") -> str:
    from rootlaw.runtime.cli import main

    rc = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert rc == 1 and out == "", out + err
    where = f"{path}:{line}" if line else f"{path}"
    assert err.startswith(f"rootlaw: {where}: {code}: "), err
    return err


def write_log(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_log_fixture_replays(capsys, log_lines, tmp_path):
    from rootlaw.runtime.cli import main

    assert main(["replay", str(write_log(tmp_path / "g.jsonl", log_lines))]) == 0
    assert "(40 decisions)" in capsys.readouterr().out


def _edit(line: str, **changes) -> str:
    return json.dumps({**json.loads(line), **changes})


@pytest.mark.parametrize("n, change", [
    (2, {"notation": ["clearing 1"]}),      # a list where a string goes (was a TypeError)
    (2, {"notation": {"a": 1}}),
    (2, {"action": True}),                  # true == 1 in Python
    (2, {"action": "1"}),
    (2, {"type": ["decision"]}),
    (1, {"seed": 2**70}),
    (1, {"factions": "marquise,eyrie"}),
])
def test_wrong_types_in_a_log_are_log_invalid_at_their_line(capsys, log_lines, tmp_path,
                                                             n, change):
    lines = list(log_lines)
    lines[n - 1] = _edit(lines[n - 1], **change)
    replay_error(capsys, write_log(tmp_path / "bad.jsonl", lines), n)


@pytest.mark.parametrize("kind", ["deep", "binary", "long-line", "not-object", "second-header",
                                  "after-result", "stopped-not-bool", "nan"])
def test_a_broken_log_is_log_invalid(capsys, log_lines, tmp_path, kind):
    lines = list(log_lines)
    last = len(lines)
    path = tmp_path / "bad.jsonl"
    if kind == "deep":
        lines[2] = "[" * 100_000 + "]" * 100_000
        line: int | None = 3
    elif kind == "binary":
        path.write_bytes(lines[0].encode() + b"\n" + bytes(range(128, 256)) * 10 + b"\n")
        replay_error(capsys, path, 2)
        return
    elif kind == "long-line":
        lines[1] = json.dumps({"type": "decision", "notation": "x" * 200_000})
        line = 2
    elif kind == "not-object":
        lines[3], line = "[1, 2]", 4
    elif kind == "second-header":
        lines.insert(5, lines[0])
        line = 6
    elif kind == "after-result":
        lines.append(lines[1])
        line = last + 1
    elif kind == "stopped-not-bool":
        lines[-1] = _edit(lines[-1], stopped="yes")
        line = last
    else:
        lines[1] = lines[1].replace('"action": ', '"action": NaN, "x": ')
        line = 2
    replay_error(capsys, write_log(path, lines), line)


def test_a_log_that_is_a_folder_or_missing(capsys, tmp_path):
    replay_error(capsys, tmp_path, None)
    replay_error(capsys, tmp_path / "nope.jsonl", None)


# ---------------------------------------------------------------------- scenarios


@pytest.mark.parametrize("kind, code", [("deep", "JSON-DEPTH"), ("binary", "FILE-ENCODING"),
                                        ("big", "FILE-TOO-BIG"), ("nan", "JSON-SYNTAX"),
                                        ("key-twice", "KEY-DUP")])
def test_a_broken_scenario_file_gets_a_coded_error(capsys, tmp_path, kind, code):
    from rootlaw.runtime.cli import main

    f = tmp_path / "s.json"
    if kind == "deep":
        f.write_text("[" * 100_000 + "]" * 100_000)
    elif kind == "binary":
        f.write_bytes(bytes(range(256)) * 100)
    elif kind == "big":
        f.write_text('{"name": "' + "x" * (2 * 2**20) + '"}')
    elif kind == "nan":
        f.write_text('{"seed": NaN}')
    else:
        f.write_text('{"seed": 1, "seed": 2}')
    rc = main(["scenario", str(f)])
    out, err = capsys.readouterr()
    assert rc == 1 and "Traceback" not in err
    assert f"FAIL {f}" in out and f"{code}" in out


def test_a_scenario_that_is_not_an_object(capsys, tmp_path):
    from rootlaw.runtime.cli import main

    f = tmp_path / "s.json"
    f.write_text("[1, 2]")
    assert main(["scenario", str(f)]) == 1
    assert "SCENARIO-INVALID" in capsys.readouterr().out


def test_a_file_broken_everywhere_lists_its_first_hundred_problems(tmp_path):
    from rootlaw.spec import BASE_PACK

    data = json.loads((BASE_PACK / "autumn.json").read_text(encoding="utf-8"))
    data["paths"] = [[1, "x"]] * 50_000
    f = tmp_path / "m.json"
    text = json.dumps(data, indent=0)
    f.write_text(text)
    with pytest.raises(SpecError) as e:
        load_file(f)
    diags = e.value.diagnostics
    assert len(diags) == 101
    assert {(d.code, d.pointer) for d in diags[:100]} == \
        {("VALUE-INVALID", f"/paths/{i}/1") for i in range(100)}
    paths_line = text[:text.index('"paths"')].count("\n") + 1
    assert diags[99].line == paths_line + 3 + 4 * 99  # the "x" of the 100th path
    assert diags[100].code == "TOO-MANY" and "49900 more" in diags[100].message


def test_a_manifest_listing_its_files_thousands_of_times(tmp_path):
    # Found by fuzzing: each entry was read, parsed and located again (20,000 entries:
    # 11 s, 20,000 findings).  A file listed twice is an ID-DUP at the extra entry, read
    # once; the manifest's problems are capped like any file's.
    import shutil

    from rootlaw.spec import BASE_PACK, load_pack

    names = ["autumn.json", "standard-deck.json"]
    for n in names:
        shutil.copy(BASE_PACK / n, tmp_path / n)
    data = {"kind": "pack", "id": "p", "name": "p", "content": names * 500}
    text = json.dumps(data, indent=1)
    (tmp_path / "pack.json").write_text(text)
    with pytest.raises(SpecError) as e:
        load_pack(tmp_path)
    diags = e.value.diagnostics
    assert len(diags) == 101
    assert [(d.code, d.pointer) for d in diags[:2]] == \
        [("ID-DUP", "/content/2"), ("ID-DUP", "/content/3")]
    assert "'autumn.json' is listed twice (first at /content/0)" in diags[0].message
    assert diags[0].line == line_of(text, '"content"') + 3
    assert diags[100].code == "TOO-MANY" and "898 more" in diags[100].message


def test_a_manifest_listing_a_file_twice_under_two_names(tmp_path):
    import shutil

    from rootlaw.spec import BASE_PACK, load_pack

    shutil.copy(BASE_PACK / "autumn.json", tmp_path / "autumn.json")
    (tmp_path / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "p", "name": "p", "content": ["autumn.json", "./autumn.json"]}))
    with pytest.raises(SpecError) as e:
        load_pack(tmp_path)
    assert [(d.code, d.pointer) for d in e.value.diagnostics] == [("ID-DUP", "/content/1")]


@pytest.mark.parametrize("key, items", [("requires", 65), ("content", 1001)])
def test_a_manifest_naming_thousands_of_packs_or_files_is_refused_at_once(tmp_path, key,
                                                                           items):
    # Each required pack is looked for on the discovery path and each file opened:
    # 2,000 requirements took 4 s, 110,000 files 11 s.  The schema bounds both lists.
    from rootlaw.spec import load_pack

    data = {"kind": "pack", "id": "p", "name": "p", "content": []}
    data[key] = [f"x{i}" for i in range(items)]
    (tmp_path / "pack.json").write_text(json.dumps(data))
    with pytest.raises(SpecError) as e:
        load_pack(tmp_path)
    assert [(d.code, d.pointer) for d in e.value.diagnostics] == [("VALUE-INVALID", f"/{key}")]
    del data[key][-1]
    (tmp_path / "pack.json").write_text(json.dumps(data))
    with pytest.raises(SpecError) as e:  # at the bound: read, and each entry missing
        load_pack(tmp_path) if key == "content" else validate_pack(tmp_path)
    assert e.value.diagnostics[0].code == ("FILE-MISSING" if key == "content" else
                                           "PACK-MISSING")


def validate_pack(folder: Path) -> None:
    from rootlaw.spec.bundle import collect

    collect([folder], search=False)


def test_a_manifest_listing_a_name_with_a_nul_byte(tmp_path):
    from rootlaw.spec import load_pack

    (tmp_path / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "p", "name": "p", "content": ["a\u0000b.json"]}))
    with pytest.raises(SpecError) as e:
        load_pack(tmp_path)
    assert [(d.code, d.pointer) for d in e.value.diagnostics] == \
        [("VALUE-INVALID", "/content/0")]
    with pytest.raises(JsonInputError) as e2:
        load_file("a\u0000b.json")
    assert e2.value.code == "FILE-MISSING"
