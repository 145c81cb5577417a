"""Item 1: every bad file gets a clear error, never a traceback — in ``replay``,
``replay --json``, ``deal --out`` and the record API (load, replay, new_state_for)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from decklab.cli import app
from decklab.engine import records
from decklab.engine.errors import EXCERPT_CHARS, MESSAGE_CHARS, RecordError

RECORDS = Path(__file__).parent / "records"
runner = CliRunner()
GOOD = json.loads((RECORDS / "corporation_p9.json").read_text(encoding="utf-8"))


def _with(**change: object) -> str:
    record = dict(GOOD)
    record.update(change)
    return json.dumps(record, ensure_ascii=False)


# name → (what to write into the file: bytes, or a callable making the path), expected words
BAD_FILES: dict[str, tuple[bytes | Callable[[Path], Path], str]] = {
    "not_utf8": (b"\xff{}", "not UTF-8"),
    "latin1_inside": (_with(note="caf\u00e9").encode("latin-1"), "not UTF-8"),
    "deep_nesting": (b"[" * 100_000 + b"]" * 100_000, "nests deeper"),
    "deep_object": (b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "nests deeper"),
    "huge_int_top": (b'{"seed": ' + b"9" * 5000 + b"}", "longer than"),
    "huge_int_in_options": (_with(options={"target": int("7" * 50)}).encode(), "longer than"),
    "huge_int_in_actions": (
        b'{"game":"cabin","seats":["p1"],"actions":[' + b"1" * 5000 + b"]}",
        "longer than",
    ),
    "infinity_option": (
        _with().replace('"options": {', '"options": {"target": Infinity, ', 1).encode(),
        "Infinity",
    ),
    "nan_option": (
        _with().replace('"options": {', '"options": {"target": NaN, ', 1).encode(),
        "NaN",
    ),
    "huge_float_option": (
        _with().replace('"options": {', '"options": {"target": 1e999, ', 1).encode(),
        "too large",
    ),
    "binary_garbage": (bytes(range(256)) * 40, "not UTF-8"),
    "nul_bytes": (b"\x00" * 100, "not valid JSON"),
    "empty": (b"", "empty"),
    "only_spaces": (b"   \n\t ", "empty"),
    "a_list": (b"[1, 2, 3]", "JSON object"),
    "truncated": (_with().encode()[:-20], "not valid JSON"),
    "directory": (lambda tmp: tmp, "folder"),
    "missing": (lambda tmp: tmp / "nope.json", "no such file"),
    "too_big": (
        lambda tmp: _sparse(tmp / "big.json", records.MAX_RECORD_BYTES + 1),
        "at most",
    ),
}


def _sparse(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that takes no disk (a hole): refused from its size."""
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


def _make(tmp_path: Path, content: bytes | Callable[[Path], Path]) -> Path:
    if callable(content):
        return content(tmp_path)
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    return path


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_item1_record_api_gives_a_clear_error_for_every_bad_file(name: str, tmp_path: Path) -> None:
    content, words = BAD_FILES[name]
    path = _make(tmp_path, content)
    with pytest.raises(RecordError) as info:
        records.replay(records.load(path))
    assert words in str(info.value)
    assert len(str(info.value)) <= MESSAGE_CHARS


@pytest.mark.parametrize("name", sorted(BAD_FILES))
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_item1_replay_command_exits_2_without_traceback(
    name: str, as_json: bool, tmp_path: Path
) -> None:
    content, words = BAD_FILES[name]
    path = _make(tmp_path, content)
    result = runner.invoke(app, ["replay", str(path), *(["--json"] if as_json else [])])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    if as_json:
        error = json.loads(result.stdout)["error"]
        assert set(error) == {"index", "action", "reason"} and words in error["reason"]
    else:
        assert words in result.output


def test_item1_huge_file_is_refused_without_reading_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused from ``stat`` alone: open() is never called on the big file."""
    path = _sparse(tmp_path / "big.json", 100 * 1024 * 1024)
    opened: list[object] = []
    real_open = open

    def spy(file: object, *args: object, **kwargs: object) -> object:
        opened.append(file)
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", spy)
    with pytest.raises(RecordError, match="not read"):
        records.load(path)
    assert str(path) not in map(str, opened)


def test_item1_unbounded_stream_is_read_only_up_to_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file whose size stat does not know (a device) is read at most limit+1 bytes."""
    if not Path("/dev/zero").exists():
        pytest.skip(reason="this system has no /dev/zero to stand for an endless stream")
    monkeypatch.setattr(records, "MAX_RECORD_BYTES", 4096)
    with pytest.raises(RecordError, match="more than"):
        records.read_text("/dev/zero", limit=4096)


def test_item1_record_api_on_objects_refuses_non_finite_and_huge_values() -> None:
    """The API taking a dict (not a file) is just as strict: no OverflowError, no
    ValueError from the digit limit, no RecursionError."""
    for options in ({"target": float("inf")}, {"target": float("nan")}, {"target": 10**5000}):
        record = dict(GOOD, options=options)
        with pytest.raises(RecordError):
            records.new_state_for(record)
        with pytest.raises(RecordError):
            records.replay(record)
    nested: object = []
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(RecordError, match="nests deeper"):
        records.replay(dict(GOOD, note=nested))
    with pytest.raises(RecordError, match="JSON data"):
        records.replay(dict(GOOD, note=object()))


def test_item1_errors_quote_only_an_excerpt_of_a_huge_action_line(tmp_path: Path) -> None:
    line = "p1 play " + "9" * 300_000
    path = tmp_path / "long.json"
    path.write_text(_with(actions=[line]), encoding="utf-8")
    with pytest.raises(RecordError) as info:
        records.replay(records.load(path))
    assert info.value.index == 0
    assert info.value.action is not None and len(info.value.action) < EXCERPT_CHARS + 40
    assert len(str(info.value)) <= MESSAGE_CHARS
    for as_json in (False, True):
        result = runner.invoke(app, ["replay", str(path), *(["--json"] if as_json else [])])
        assert result.exit_code == 2 and len(result.output) < 2000


def test_item1_errors_quote_only_an_excerpt_of_a_huge_card_or_option(tmp_path: Path) -> None:
    for change in (
        {"options": {"target": "x" * 300_000}},
        {"options": {"x" * 300_000: 1}},
        {"game": "g" * 300_000},
        {"seats": ["p" * 300_000]},
        {"setup": {"grid": ["Z" * 300_000]}, "game": "lonely-face", "seats": ["p1", "p2"]},
        {"actions": ["p1 " + "é" * 300_000]},
        {"actions": [["nested"] * 50_000]},
    ):
        with pytest.raises(RecordError) as info:
            records.replay(dict(GOOD, **change))
        assert len(str(info.value)) <= MESSAGE_CHARS, change.keys()


def test_item1_deal_out_to_a_missing_folder_or_a_folder_is_a_clear_error(tmp_path: Path) -> None:
    missing = runner.invoke(
        app, ["deal", "cabin", "--seed", "1", "--out", str(tmp_path / "no" / "x.json")]
    )
    assert missing.exit_code == 2 and "no folder" in missing.output
    folder = runner.invoke(app, ["deal", "cabin", "--seed", "1", "--out", str(tmp_path)])
    assert folder.exit_code == 2 and "is a folder" in folder.output
    ok = runner.invoke(app, ["deal", "cabin", "--seed", "1", "--out", str(tmp_path / "d.json")])
    assert ok.exit_code == 0 and records.load(tmp_path / "d.json")["game"] == "cabin"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere: no unwritable folder")
def test_item1_deal_out_to_an_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    result = runner.invoke(app, ["deal", "cabin", "--out", str(locked / "x.json")])
    assert result.exit_code == 2 and "cannot write" in result.output


def test_item1_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + _with().encode())
    state, _ = records.replay(records.load(path))
    assert state.info.name == "corporation"


@pytest.mark.parametrize("text", ["p1 [/x] play", "p1 [bold]play", "p1 [/]"])
def test_item1_markup_like_text_in_a_record_is_shown_as_text(text: str, tmp_path: Path) -> None:
    """Error messages quote the file; Rich markup in it must not break the printing."""
    path = tmp_path / "markup.json"
    path.write_text(_with(actions=[text]), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert text.split()[1] in result.output
    folder = runner.invoke(app, ["deal", "cabin", "--out", str(tmp_path / "[/x]" / "a.json")])
    assert folder.exit_code == 2 and "[/x]" in folder.output
