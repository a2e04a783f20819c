"""generate_<test>_project: the exported project holds just what the binary linked, and builds and
runs on its own in a folder outside the repository (host and bluepill)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board.board_mk_test import GEN, make, needs_arm, needs_qemu, records, run_qemu
from harness.board.boards import load_board
from harness.build.project_gen import archive_members, dependencies, source_of_object
from harness.core.run_token import TOKEN_ENV


def test_archive_members_are_read_from_the_map(tmp_path: Path) -> None:
    map_file = tmp_path / "x.map"
    map_file.write_text(
        "Archive member included to satisfy reference by file (symbol)\n\n"
        "/g/lib/libmicro_runtime.a(sin.cc.o)\n"
        "                              /g/obj/sin_test.cc.o (Register_SIN())\n"
        "/usr/lib/libm.a(lib_a-sf_sin.o)\n"
        "                              /g/lib/libmicro_runtime.a(sin.cc.o) (sinf)\n"
        "\nDiscarded input sections\n\n /g/lib/libmicro_runtime.a(other.cc.o)\n"
    )
    assert archive_members(map_file) == {
        ("/g/lib/libmicro_runtime.a", "sin.cc.o"),
        ("/usr/lib/libm.a", "lib_a-sf_sin.o"),
    }


def test_objects_map_back_to_sources() -> None:
    obj_dir = GEN / "bluepill" / "obj"
    assert source_of_object(obj_dir / "micro_runtime/kernels/sin.cc.o", obj_dir) == (
        REPO_ROOT / "micro_runtime/kernels/sin.cc"
    )
    assert source_of_object(obj_dir / "gen/models/micro_runtime/x/m_model_data.cc.o", obj_dir) == (
        GEN / "models/micro_runtime/x/m_model_data.cc"
    )


def test_dependency_file_is_parsed(tmp_path: Path) -> None:
    dep = tmp_path / "a.cc.d"
    dep.write_text("/o/a.cc.o: /s/a.cc \\\n /s/a.h /s/b.h\n/s/a.h:\n/s/b.h:\n")
    assert dependencies(dep) == [Path("/s/a.cc"), Path("/s/a.h"), Path("/s/b.h")]


def _export(target: str, test: str, tmp_path: Path, *extra: str, variant: str | None = None) -> Path:
    out = make(target, *extra, f"generate_{test}_project", variant=variant)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    project = tmp_path / f"{test}_{target}"
    shutil.copytree(GEN / (variant or target) / "prj" / test, project, symlinks=True)
    built = subprocess.run(["make", "-C", str(project), "-j2"], capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    assert str(REPO_ROOT) not in (project / "Makefile").read_text()  # nothing reaches back into the tree
    return project


def test_host_project_builds_and_runs_outside_the_tree(tmp_path: Path) -> None:
    project = _export("host", "hello_world_test", tmp_path)
    sources = {p.relative_to(project / "src").as_posix() for p in (project / "src").rglob("*") if p.is_file()}
    assert "micro_runtime/examples/hello_world/hello_world_test.cc" in sources
    assert "boards/host/platform.cc" in sources
    assert not any(s.startswith("boards/cortex_m/") for s in sources)  # another board's code
    assert "micro_runtime/kernels/softmax.cc" not in sources  # hello_world never links SOFTMAX
    assert not any(p.name.endswith("_test.cc") and "hello_world" not in p.name for p in project.rglob("*.cc"))
    env = {k: v for k, v in os.environ.items() if k != TOKEN_ENV}  # no run token: records signed with key 0
    run = subprocess.run([str(project / "hello_world_test")], capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 0 and records(run.stdout)[-1:] == ["DONE PASSED"], run.stdout


@needs_arm
@needs_qemu
@pytest.mark.emulator
def test_bluepill_project_with_tags_builds_and_runs_outside_the_tree(tmp_path: Path) -> None:
    project = _export("bluepill", "platform_test", tmp_path, "TAGS=dwt", variant="bluepill_dwt")
    assert (project / "src/boards/cortex_m/dwt/ticks.c").is_file()
    assert not (project / "src/boards/cortex_m/ticks.c").exists()  # the specialized variant only
    assert (project / "memory.ld").is_file() and (project / "cortex_m.ld").is_file()
    # bluepill links with LTO: the link map still lists the archive members pulled in, and the
    # exported Makefile keeps the LTO compile and link flags.
    makefile = (project / "Makefile").read_text()
    assert "-flto" in makefile and "-flto=auto" in makefile
    size = subprocess.run(["arm-none-eabi-size", str(project / "platform_test")], capture_output=True, text=True)
    assert size.returncode == 0, size.stderr
    code, log = run_qemu(load_board("bluepill"), project / "platform_test")
    assert code == 0 and "SUMMARY 5/5 tests passed" in records(log), log


def test_unknown_test_name_is_rejected() -> None:
    out = make("host", "generate_no_such_test_project")
    assert out.returncode != 0 and "no test binary named 'no_such_test'" in out.stderr
