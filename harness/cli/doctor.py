"""``harness doctor``: is this machine ready to build and run micro tests? Each gap comes with its fix.

Required pieces (make, host compiler, flatc + headers, the arm toolchain with newlib and
libstdc++, QEMU, pytest + xdist) make the exit status non-zero when missing; optional ones
(Renode, gdb-multiarch, pyOCD + attached probes, pyserial, and the Python packages of each extra:
numpy + flatbuffers for run-model, labgrid for the farm, robotframework for Robot) are reported only.
Python hints name the extra as this installation gets it (``harness.core.extras.install_hint``): ``pip install
'micro-harness[model]'`` from a wheel, the editable install or ``.ci/install-deps`` in a checkout.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from harness.board.boards import BoardError, available_boards, load_board
from harness.build.driver import ARM_PACKAGES
from harness.core.extras import EXTRAS, install_hint, is_checkout, missing
from harness.runners import REGISTRY, backend_module, missing_package
from harness.runners.base import tool_check


@dataclass
class Check:
    name: str
    ok: bool
    detail: str  # version/path when ok, the fix when not
    required: bool = True


def _tool(name: str, fix: str, required: bool = True) -> Check:
    found = tool_check(name, fix, required)
    return Check(found.name, found.ok, found.detail, found.required)


def _backends() -> list[Check]:
    """What each registered backend needs on this machine (its module's ``check_tools()``)."""
    checks = []
    for name in REGISTRY:
        try:
            module = backend_module(name)
        except ModuleNotFoundError as error:
            checks.append(Check(f"backend {name}", False, missing_package(name, error.name), required=False))
            continue
        check_tools = getattr(module, "check_tools", None)
        if check_tools is not None:
            checks += [Check(c.name, c.ok, c.detail, c.required) for c in check_tools()]
    return checks


def _arm_library(compiler: str, library: str, fix: str) -> Check:
    """The cross compiler finds the library only when the newlib packages are installed."""
    name = f"{library} for {compiler}"
    if shutil.which(compiler) is None:
        return Check(name, False, f"needs {compiler} first; install: {fix}")
    out = subprocess.run([compiler, "-mcpu=cortex-m3", "-mthumb", f"-print-file-name={library}"],
                         capture_output=True, text=True, check=False)
    found = out.stdout.strip()
    if not found or found == library or not Path(found).is_file():
        return Check(name, False, f"not found; install: {fix}")
    return Check(name, True, found)


def _python_module(module: str, fix: str, required: bool) -> Check:
    spec = importlib.util.find_spec(module)
    if spec is None:
        return Check(f"python: {module}", False, f"not importable; install: {fix}", required)
    return Check(f"python: {module}", True, spec.origin or "namespace package", required)


def _extra(name: str) -> Check:
    """An extra's Python packages (optional: only the commands that use them need them)."""
    extra = EXTRAS[name]
    label = f"python: {', '.join(extra.packages)} for {extra.used_for}"
    absent = missing(name)
    if absent:
        return Check(label, False, f"{' and '.join(absent)} not importable; install: {install_hint(name)}",
                     required=False)
    found = [importlib.util.find_spec(module) for module in extra.modules]
    return Check(label, True, ", ".join(s.origin or "namespace package" for s in found if s is not None),
                 required=False)


def gather() -> list[Check]:
    checks = [
        _tool("make", "apt-get install make"),
        _tool("g++", "apt-get install g++"),
        _tool("flatc", "apt-get install flatbuffers-compiler"),
    ]
    header = Path("/usr/include/flatbuffers/flatbuffers.h")
    checks.append(Check("flatbuffers headers", header.is_file(),
                        str(header) if header.is_file() else "not found; install: apt-get install libflatbuffers-dev"))
    compilers = set()
    for name in available_boards():
        try:
            board = load_board(name)
        except BoardError as error:
            checks.append(Check(f"board {name}", False, str(error)))
            continue
        if not board.is_host:
            compilers.add((board.cxx, board.toolchain_prefix))
    for compiler, prefix in sorted(compilers):
        fix = ARM_PACKAGES if prefix == "arm-none-eabi-" else f"the {prefix.rstrip('-')} toolchain"
        checks.append(_tool(compiler, fix))
        checks.append(_arm_library(compiler, "libc.a", fix))
        checks.append(_arm_library(compiler, "libstdc++.a", fix))
        checks.append(_tool(f"{prefix}addr2line", f"apt-get install binutils-{prefix.rstrip('-')}"))
    checks += _backends()
    checks += [
        _tool("gdb-multiarch", "apt-get install gdb-multiarch", required=False),
        _python_module("pytest", "pip install pytest", True),
        _python_module("xdist", "pip install pytest-xdist", True),
        _extra("model"),
        _extra("farm"),
        _extra("robot"),
    ]
    return checks


def run_checks(verbose: bool = True) -> int:
    checks = gather()
    missing_required = [c for c in checks if not c.ok and c.required]
    for check in checks:
        if check.ok and not verbose:
            continue
        mark = "ok     " if check.ok else ("MISSING" if check.required else "absent ")
        suffix = "" if check.required or check.ok else " (optional)"
        print(f"{mark} {check.name}{suffix}: {check.detail}")
    absent = [c for c in checks if not c.ok and not c.required]
    if missing_required:
        everything = " (or .ci/install-deps)" if is_checkout() else ""
        print(f"\n{len(missing_required)} required piece(s) missing; run the install commands above{everything}",
              file=sys.stderr)
        return 1
    print("\nall required tools found" + (f" ({len(absent)} optional piece(s) absent, see above)" if absent else ""))
    return 0
