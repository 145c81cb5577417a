"""Build hook: compile the modules listed in ``decklab._native.COMPILED`` with mypyc.

``make build`` (and so ``make test`` / ``make play``) runs
``python setup.py build_ext --inplace`` in the virtual environment, which puts
the extensions beside their sources and writes ``src/decklab/_native.json``
(the source hashes the import-time check compares). Without mypyc or a C
compiler, or with ``DECKLAB_PURE=1``, the package is plain Python: every
command works the same, only slower. All metadata is in ``pyproject.toml``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"


def _load_native() -> Any:
    """``decklab._native`` by path: the list and the hashing, without importing the package."""
    spec = importlib.util.spec_from_file_location("_decklab_native", SRC / "decklab" / "_native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


native = _load_native()


def _why_pure() -> str | None:
    if os.environ.get(native.PURE_ENV, "") not in ("", "0"):
        return f"{native.PURE_ENV} is set"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    return None


def _remove_old_extensions() -> None:
    """Delete extensions of an earlier in-place build, so none outlives its module."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    for path in [*SRC.glob(f"*__mypyc{suffix}"), *(SRC / "decklab").rglob(f"*{suffix}")]:
        path.unlink()
    (SRC / "decklab" / native.MANIFEST).unlink(missing_ok=True)


class BuildNative(build_ext):
    """build_ext that compiles C files in parallel and writes the manifest of what it built.

    mypyc puts nearly all the code in one extension (the group library, one C
    file per module with ``multi_file``), and setuptools compiles the files of one
    extension one after another; here they go to a pool of ``os.cpu_count()``
    compilers (``DECKLAB_BUILD_JOBS`` overrides it).
    """

    def build_extension(self, ext: Any) -> None:
        jobs = int(os.environ.get("DECKLAB_BUILD_JOBS", "0")) or os.cpu_count() or 1
        compiler = self.compiler
        serial = compiler.compile

        def compile_parallel(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            if jobs < 2 or len(sources) < 2:
                return list(serial(sources, *args, **kwargs))
            # the largest files first, so that no long one starts last
            order = sorted(sources, key=lambda s: -Path(s).stat().st_size)
            with ThreadPoolExecutor(jobs) as pool:
                done = dict(
                    zip(order, pool.map(lambda s: serial([s], *args, **kwargs), order), strict=True)
                )
            return [obj for source in sources for obj in done[source]]

        compiler.compile = compile_parallel
        try:
            super().build_extension(ext)
        finally:
            compiler.compile = serial

    def run(self) -> None:
        if self.inplace:
            _remove_old_extensions()
        super().run()
        target = SRC if self.inplace else Path(self.build_lib)
        (target / "decklab" / native.MANIFEST).write_text(
            json.dumps(SOURCES, indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )


def _extensions() -> list[Any]:
    reason = _why_pure()
    if reason is not None:
        print(f"decklab: pure Python build ({reason})", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    paths = [str(native.source_path(m, Path("src"))) for m in native.COMPILED]
    return mypycify(
        ["--config-file", "pyproject.toml", *paths],
        opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
        multi_file=os.environ.get("MYPYC_MULTI_FILE", "1") != "0",
        group_name="decklab_native",
    )


SOURCES = native.manifest_data(native.COMPILED, SRC)
"""The sources' hashes, taken before mypyc reads them: an edit during the build makes it stale."""
ext_modules = _extensions()
setup(
    ext_modules=ext_modules,
    cmdclass={"build_ext": BuildNative} if ext_modules else {},
)
