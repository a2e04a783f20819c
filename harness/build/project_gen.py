"""Stand-alone project generation: ``make TARGET=<t> generate_<name>_project``.

Copies exactly the sources one binary was linked from into
``micro_runtime/gen/<t>/prj/<name>/`` with a plain Makefile that rebuilds it on
its own (no Python, no board files, no harness):

- the binary's own objects (test source, example sources, generated model data)
  and the board-support objects, which are always linked;
- of the runtime and testing libraries only the members the linker pulled in,
  read from the binary's link map (so after TAGS specialization, the chosen
  variant and nothing else);
- every header the compiler read (from the ``.d`` dependency files) that lives
  in the repository or in gen/ (schema header, model data, board_config.h);
- the linker script and memory map of MCU boards.

The flatbuffers headers are not copied: like the main build, the project
reaches the system headers (FLATBUFFERS_HEADERS, default /usr/include/flatbuffers)
through a folder holding only a link to them, so cross compilers never see
/usr/include.

Invoked by micro_runtime/Makefile with the flags it used for the binary.
"""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
import sys
from pathlib import Path

from harness import REPO_ROOT

GEN_ROOT = REPO_ROOT / "micro_runtime" / "gen"

_MEMBER = re.compile(r"^(\S+\.a)\(([^)]+)\)")


class ProjectError(Exception):
    """The binary's build outputs are missing or inconsistent; the message says how to fix it."""


def archive_members(map_file: Path) -> set[tuple[str, str]]:
    """(archive path, member name) pairs the linker pulled in, from a GNU ld map."""
    members: set[tuple[str, str]] = set()
    in_section = False
    for line in map_file.read_text(errors="replace").splitlines():
        if line.startswith("Archive member included"):
            in_section = True
            continue
        if in_section:
            if line and not line[0].isspace() and not _MEMBER.match(line):
                break  # next section of the map
            match = _MEMBER.match(line)
            if match:
                members.add((match.group(1), match.group(2)))
    return members


def source_of_object(obj: Path, obj_dir: Path) -> Path:
    """Inverse of the Makefile's obj_of: gen/<t>/obj/<rel>.o -> <repo>/<rel>, obj/gen/<rel>.o -> gen/<rel>."""
    rel = obj.relative_to(obj_dir)
    name = rel.name[: -len(".o")]
    if rel.parts[0] == "gen":
        return GEN_ROOT.joinpath(*rel.parts[1:-1], name)
    return REPO_ROOT.joinpath(*rel.parts[:-1], name)


def dependencies(dep_file: Path) -> list[Path]:
    """Files listed as prerequisites in a gcc -MMD dependency file."""
    if not dep_file.is_file():
        raise ProjectError(f"{dep_file} is missing; rebuild the binary (make clean for this target, then make)")
    text = dep_file.read_text().replace("\\\n", " ")
    first_rule = text.split("\n", 1)[0]
    _, _, prerequisites = first_rule.partition(": ")
    return [Path(p) for p in prerequisites.split()]


def project_path(source: Path, gen_dir: Path) -> Path | None:
    """Where a source/header goes inside the project's src/ tree, None for system files.

    Generated files land where their include path resolves them: gen/schema/X and
    gen/models/X become X, gen/<target>/board_config.h becomes board_config.h.
    """
    source = source.resolve() if not source.is_absolute() else source
    for root in (GEN_ROOT / "schema", GEN_ROOT / "models", gen_dir):
        if root in source.parents:
            return source.relative_to(root)
    if GEN_ROOT in source.parents:
        return None  # e.g. the flatbuffers link folder: stays a system dependency
    if REPO_ROOT in source.parents:
        return source.relative_to(REPO_ROOT)
    return None


_FLAGS_DROPPED = ("-I", "-MMD", "-MP", "-fmacro-prefix-map=")


def _portable_flags(flags: list[str]) -> list[str]:
    """Compile flags without include paths, dependency generation and the checkout's path map (the project
    sets its own include paths and names no checkout)."""
    return [f for f in flags if not f.startswith(_FLAGS_DROPPED)]


def generate(
    name: str,
    target: str,
    elf: Path,
    out: Path,
    objects: list[Path],
    obj_dir: Path,
    library_sources: list[Path],
    tools: dict[str, str],
    flags: dict[str, list[str]],
    gen_dir: Path | None = None,
) -> list[Path]:
    """Writes the project; returns the copied source files (project-relative).

    ``gen_dir`` is the build's output folder (gen/<target>, or gen/<target>_<variant>).
    """
    map_file = elf.with_name(elf.name + ".map")
    if not elf.is_file() or not map_file.is_file():
        raise ProjectError(f"{elf} or its link map is missing; build it first: make TARGET={target} {name}")
    gen_dir = gen_dir or GEN_ROOT / target
    by_member: dict[str, list[Path]] = {}
    for source in library_sources:
        by_member.setdefault(source.name + ".o", []).append(source)

    compiled: list[Path] = [source_of_object(o, obj_dir) for o in objects]
    for archive, member in sorted(archive_members(map_file)):
        if Path(archive).resolve().parent.parent != gen_dir.resolve():
            continue  # libm/libgcc: toolchain libraries, linked by name
        candidates = by_member.get(member)
        if not candidates:
            raise ProjectError(f"{archive}({member}) has no known source; rebuild: make TARGET={target} {name}")
        compiled.extend(candidates)  # same basename twice: both go in, the linker picks again

    files: set[Path] = set()
    for source in compiled:
        obj = obj_dir / "gen" / source.relative_to(GEN_ROOT) if GEN_ROOT in source.parents else None
        if obj is None:
            obj = obj_dir / source.relative_to(REPO_ROOT)
        dep_file = obj.with_name(obj.name + ".d")
        files.update(dependencies(dep_file))
        files.add(source)

    if out.exists():
        shutil.rmtree(out)
    src_root = out / "src"
    copied: list[Path] = []
    for file in sorted(files):
        dest = project_path(file, gen_dir)
        if dest is None:
            continue
        (src_root / dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(file, src_root / dest)
        copied.append(Path("src") / dest)
    compiled_rel = sorted(str(Path("src") / p) for s in compiled if (p := project_path(s, gen_dir)) is not None)

    ldflags: list[str] = []
    for flag in flags["ldflags"]:
        if flag.startswith("-T"):
            script = Path(flag[2:])
            shutil.copy2(script, out / script.name)
            ldflags.append(f"-T{script.name}")
        elif flag.startswith("-L") and (Path(flag[2:]) / "memory.ld").is_file():
            shutil.copy2(Path(flag[2:]) / "memory.ld", out / "memory.ld")
            ldflags.append("-L.")
        else:
            ldflags.append(flag)

    (out / "Makefile").write_text(
        _makefile(name, target, compiled_rel, tools, flags, ldflags),
    )
    return copied


def _makefile(
    name: str, target: str, sources: list[str], tools: dict[str, str], flags: dict[str, list[str]], ldflags: list[str]
) -> str:
    def words(items: list[str]) -> str:
        return " ".join(shlex.quote(i) for i in items)

    source_lines = " \\\n  ".join(sources)
    return f"""# Stand-alone build of {name} for board {target}, generated by
# `make TARGET={target} generate_{name}_project` (harness/build/project_gen.py).
# Needs only the compiler and the flatbuffers headers:
#   make                      -> ./{name}
#   make FLATBUFFERS_HEADERS=/path/to/include/flatbuffers
CC := {tools["cc"]}
CXX := {tools["cxx"]}
FLATBUFFERS_HEADERS ?= /usr/include/flatbuffers

CFLAGS := {words(_portable_flags(flags["cflags"]))}
CXXFLAGS := {words(_portable_flags(flags["cxxflags"]))}
LDFLAGS := {words(ldflags)}
LIBS := {words(flags["libs"])}
INCLUDES := -Isrc -Iflatbuffers_include

SRCS := \\
  {source_lines}
OBJS := $(patsubst src/%,obj/%.o,$(SRCS))

{name}: $(OBJS)
\t$(CXX) $(OBJS) $(LDFLAGS) $(LIBS) -o $@

# Cross compilers must not see /usr/include: only a link to the flatbuffers headers.
flatbuffers_include/flatbuffers:
\t@test -d $(FLATBUFFERS_HEADERS) || {{ echo "error: no flatbuffers headers at $(FLATBUFFERS_HEADERS); \\
install libflatbuffers-dev or set FLATBUFFERS_HEADERS" >&2; exit 1; }}
\t@mkdir -p flatbuffers_include
\t@ln -sfn $(FLATBUFFERS_HEADERS) $@

obj/%.cc.o: src/%.cc | flatbuffers_include/flatbuffers
\t@mkdir -p $(dir $@)
\t$(CXX) $(CXXFLAGS) $(INCLUDES) -c $< -o $@

obj/%.c.o: src/%.c
\t@mkdir -p $(dir $@)
\t$(CC) $(CFLAGS) $(INCLUDES) -c $< -o $@

clean:
\trm -rf obj flatbuffers_include {name}

.PHONY: clean
"""


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.build.project_gen", description=__doc__.splitlines()[0])
    parser.add_argument("--name", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--gen-dir", type=Path, help="the build's output folder (default gen/<target>)")
    parser.add_argument("--elf", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--obj-dir", type=Path, required=True)
    parser.add_argument("--objects", default="", help="objects linked directly (space separated)")
    parser.add_argument("--library-sources", default="", help="sources of the runtime/testing archives")
    parser.add_argument("--cc", required=True)
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--cflags", default="")
    parser.add_argument("--cxxflags", default="")
    parser.add_argument("--ldflags", default="")
    parser.add_argument("--libs", default="")
    args = parser.parse_args(argv[1:])
    try:
        copied = generate(
            args.name,
            args.target,
            args.elf,
            args.out,
            [Path(o) for o in args.objects.split()],
            args.obj_dir,
            [Path(s) for s in args.library_sources.split()],
            {"cc": args.cc, "cxx": args.cxx},
            {
                "cflags": shlex.split(args.cflags),
                "cxxflags": shlex.split(args.cxxflags),
                "ldflags": shlex.split(args.ldflags),
                "libs": shlex.split(args.libs),
            },
            args.gen_dir,
        )
    except (ProjectError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"generate_{args.name}_project: {len(copied)} files in {args.out}; build with: make -C {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
