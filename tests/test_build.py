"""The two builds: compiled (mypyc) and pure Python behave identically; a stale build never runs.

The compiled build is made by ``make build`` (``make test`` runs it). Tests that
need it say why they skip when it is missing, unless ``DECKLAB_REQUIRE_COMPILED=1``
(set by ``.ci/run``), where a missing or stale build is a failure.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import decklab
from decklab import _native
from decklab.engine.chance import (
    Rng,
    _shuffle_bigint,
    _shuffle_words,
    std_below,
    std_choice,
    std_shuffle,
)

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = os.environ.get("DECKLAB_REQUIRE_COMPILED", "") not in ("", "0")


def _compiled_build_present() -> bool:
    return _native.stale_reason() is None


def need_compiled() -> None:
    """Skip (saying why) when there is no current compiled build, unless CI requires one."""
    if _compiled_build_present():
        return
    reason = f"no current compiled build ({_native.stale_reason()}); `make build` makes one"
    if REQUIRED:
        pytest.fail(f"DECKLAB_REQUIRE_COMPILED is set but there is {reason[3:]}")
    pytest.skip(reason)


def run_python(code: str, env_extra: dict[str, str], pythonpath: Path | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("DECKLAB_PURE", "PYTHONPATH")}
    env.update(env_extra)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout + done.stderr


# ------------------------------------------------------------ which build runs
def test_the_suite_runs_the_compiled_build_when_ci_asks_for_it() -> None:
    if not REQUIRED:
        why = "DECKLAB_REQUIRE_COMPILED is not set (only .ci/run's compiled pass sets it)"
        pytest.skip(reason=why)
    assert decklab.BUILD == "compiled", _native.REASON
    from decklab.engine import state

    assert not state.__file__.endswith(".py")


def test_pure_env_runs_every_module_from_its_source() -> None:
    code = (
        "import decklab, decklab.engine.state as s, decklab.bots.search as b;"
        "print(decklab.BUILD, s.__file__.endswith('.py'), b.__file__.endswith('.py'))"
    )
    assert run_python(code, {"DECKLAB_PURE": "1"}).split() == ["pure", "True", "True"]


def test_compiled_list_names_existing_modules_and_no_package() -> None:
    # Every entry is a module with a source file; new modules are not on it by default.
    for module in _native.COMPILED:
        assert _native.source_path(module).is_file(), module
        assert not module.endswith("__init__")
    assert "decklab._native" not in _native.COMPILED  # the check itself is never compiled
    assert not any(m.startswith(("decklab.play", "decklab.lab")) for m in _native.COMPILED)


def _copy_tree(tmp_path: Path) -> Path:
    """A copy of ``src/`` with its extensions and manifest: a second checkout to break."""
    src = ROOT / "src"
    dest = tmp_path / "src"
    shutil.copytree(src / "decklab", dest / "decklab", ignore=shutil.ignore_patterns("__pycache__"))
    for lib in src.glob("*__mypyc*"):
        shutil.copy2(lib, dest / lib.name)
    return dest


PROBE = (
    "import warnings; warnings.simplefilter('always');"
    "import decklab, decklab.cards as c;"
    "print('BUILD', decklab.BUILD, c.__file__.endswith('.py'), hasattr(c, 'EDITED_FOR_TEST'))"
)


def _probe(output: str) -> list[str]:
    line = next(x for x in output.splitlines() if x.startswith("BUILD "))
    return line.split()[1:]


def test_a_current_build_runs_compiled(tmp_path: Path) -> None:
    need_compiled()
    src = _copy_tree(tmp_path)
    assert _probe(run_python(PROBE, {}, src)) == ["compiled", "False", "False"]


def test_an_edited_source_is_never_shadowed_by_its_stale_extension(tmp_path: Path) -> None:
    need_compiled()
    src = _copy_tree(tmp_path)
    with (src / "decklab" / "cards.py").open("a", encoding="utf-8") as f:
        f.write("\nEDITED_FOR_TEST = 1\n")
    output = run_python(PROBE, {}, src)
    # All modules fall back to their sources (a mix would run old code natively).
    assert _probe(output) == ["pure", "True", "True"]
    assert "StaleBuildWarning" in output and "cards.py changed" in output


def test_a_changed_module_list_or_interpreter_invalidates_the_build(tmp_path: Path) -> None:
    need_compiled()
    src = _copy_tree(tmp_path)
    manifest = src / "decklab" / _native.MANIFEST
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["modules"].pop("decklab.cards")
    manifest.write_text(json.dumps(data), encoding="utf-8")
    assert _probe(run_python(PROBE, {}, src))[:2] == ["pure", "True"]
    data = json.loads((ROOT / "src" / "decklab" / _native.MANIFEST).read_text(encoding="utf-8"))
    data["interpreter"] = "cpython-399"
    manifest.write_text(json.dumps(data), encoding="utf-8")
    output = run_python(PROBE, {}, src)
    assert _probe(output)[:2] == ["pure", "True"] and "cpython-399" in output


def test_no_build_at_all_is_pure_python_without_a_warning(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(
        ROOT / "src" / "decklab",
        src / "decklab",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", _native.MANIFEST),
    )
    output = run_python(PROBE, {}, src)
    assert _probe(output) == ["pure", "True", "False"]
    assert "StaleBuildWarning" not in output


# -------------------------------------------------------- identical behaviour
def test_same_seed_gives_the_same_moves_from_every_bot_on_both_builds() -> None:
    need_compiled()
    script = str(ROOT / "tests" / "same_moves.py")
    outputs = {}
    for build, env in (("compiled", "0"), ("pure", "1")):
        envs = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        # this checkout's sources and build (the ones need_compiled checked), not whatever
        # checkout the interpreter has installed (a worktree shares its venv with main)
        envs["PYTHONPATH"] = str(ROOT / "src")
        envs["DECKLAB_PURE"] = env
        done = subprocess.run(
            [sys.executable, script, "--quick"],
            env=envs,
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        lines = done.stdout.splitlines()
        assert json.loads(lines[-1]) == {"build": build}
        outputs[build] = lines[:-1]
    compiled, pure = outputs["compiled"], outputs["pure"]
    assert len(compiled) == len(pure) > 5 * 2 * 6
    for a, b in zip(compiled, pure, strict=True):
        assert a == b


def test_std_helpers_draw_exactly_what_the_standard_library_draws() -> None:
    # The searches' determinizations use them in place of random.Random's methods:
    # every seeded bot keeps its moves only if they are the same draws.
    for seed in range(60):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (0, 1, 2, 3, 7, 13, 52, 64, 65, 104):
            a, b = list(range(n)), list(range(n))
            std_shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b
            if n:
                assert std_choice(ours, a) == theirs.choice(b)
                assert std_below(ours, n) == theirs.randrange(n)
        assert ours.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        std_choice(random.Random(0), [])


def test_both_ways_of_shuffling_give_the_same_permutation_and_draws() -> None:
    # Rng.shuffle divides X as a Python int interpreted and word by word compiled:
    # every deal of every game depends on the two agreeing (both run on either build).
    for seed in (0, 1, 7, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15):
        a_rng, b_rng = Rng(seed), Rng(seed)
        for n in [*range(0, 70), 103, 104, 156, 300]:
            a, b = list(range(n)), list(range(n))
            _shuffle_bigint(a_rng, a)
            _shuffle_words(b_rng, b)
            assert a == b, (seed, n)
            assert a_rng.s == b_rng.s
    moved = list(range(52))
    Rng(3).shuffle(moved)
    assert sorted(moved) == list(range(52)) and moved != list(range(52))


def test_rng_copy_continues_the_same_stream_independently() -> None:
    rng = Rng(12345)
    rng.next64()
    twin = rng.copy()
    assert [twin.next64() for _ in range(5)] == [rng.next64() for _ in range(5)]
    twin.next64()
    assert twin.s != rng.s
