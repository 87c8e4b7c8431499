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


def test_a_200000_item_list_is_read_and_located(tmp_path):
    # The line index once recounted newlines per value (minutes for this file).
    data = json.loads(GOOD.read_text(encoding="utf-8"))
    data["extra"] = list(range(200_000))
    f = tmp_path / "big.json"
    text = json.dumps(data, indent=1)
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
    from rootlaw.spec.schema import schema

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
