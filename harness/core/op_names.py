"""Names of TFLite builtin ops for messages, read from the repository's schema (micro_runtime/schema).

The runtime only carries the names of the ops it implements (flash is scarce); for any other
code it prints the number. ``explain_unresolved`` turns such a line into one that names the op
and says what to do.
"""

from __future__ import annotations

import functools
import re

from harness import REPO_ROOT

SCHEMA = REPO_ROOT / "micro_runtime" / "schema" / "schema.fbs"
_ENUM = re.compile(r"enum BuiltinOperator\s*:\s*\w+\s*\{(?P<body>[^}]*)\}", re.S)
_MEMBER = re.compile(r"(?P<name>[A-Z][A-Z0-9_]*)\s*=\s*(?P<code>-?\d+)")
_UNRESOLVED = re.compile(r"Didn't find op for builtin opcode '(?P<code>-?\d+)' version '(?P<version>\d+)'")


@functools.cache
def builtin_names() -> dict[int, str]:
    """builtin code -> name, from the schema's ``enum BuiltinOperator``."""
    try:
        text = SCHEMA.read_text()
    except OSError:
        return {}
    match = _ENUM.search(text)
    if match is None:
        return {}
    body = re.sub(r"//[^\n]*", "", match["body"])
    return {int(m["code"]): m["name"] for m in _MEMBER.finditer(body)}


def explain_unresolved(line: str) -> str:
    """A runtime line about an op with no kernel, with the op's name and the fix; other lines as they are."""
    match = _UNRESOLVED.search(line)
    if match is None:
        return line
    code = int(match["code"])
    name = builtin_names().get(code)
    if name is None:
        return (f"{line} (builtin code {code} is not in TFLite's schema known here: the model may come from a "
                "newer TensorFlow than this runtime)")
    return (f"{line}: the model uses {name} (builtin code {code}, version {match['version']}), which "
            "micro_runtime does not implement; the ops it runs, by type, are listed in docs/ops.md; "
            f"replace {name} in the model, or register your own kernel for it with MicroMutableOpResolver")
