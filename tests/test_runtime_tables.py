"""Consistency of the runtime's hand-kept tables, read from the C++ sources and the schema.

The options parser (micro_runtime/builtin_parser.cc) reads the fields its MR_FIELD list names straight out
of the model's flatbuffer; only the verifier (micro_runtime/model_verifier.cc) makes those reads safe, by
checking every field of its per-table lists against the buffer's bounds (options tables with the same layout
share one list, through kOptionTables). A field parsed but not verified reads past the model: the fuzzer
found Conv2DOptions/FullyConnectedOptions quantized_bias_type so.
"""

from __future__ import annotations

import re

from harness import REPO_ROOT

RUNTIME = REPO_ROOT / "micro_runtime"

# Bytes each field type of the schema takes in a table.
SIZES = {"bool": 1, "byte": 1, "ubyte": 1, "int8": 1, "uint8": 1, "short": 2, "int16": 2, "ushort": 2, "int": 4,
         "int32": 4, "uint": 4, "uint32": 4, "float": 4, "long": 8, "int64": 8, "ulong": 8, "uint64": 8}


def _schema_slots() -> dict[tuple[str, str], tuple[int, int | None]]:
    """(table, VT_FIELD) -> (vtable slot, scalar size or None), from micro_runtime/schema/schema.fbs."""
    text = re.sub(r"//[^\n]*", "", (RUNTIME / "schema" / "schema.fbs").read_text())
    enums = {m[1]: m[2] for m in re.finditer(r"enum\s+(\w+)\s*:\s*(\w+)", text)}
    unions = set(re.findall(r"union\s+(\w+)", text))
    slots = {}
    for table in re.finditer(r"table\s+(\w+)\s*\{(.*?)\}", text, re.S):
        slot = 4
        body = re.sub(r"\([^)]*\)", "", table[2])  # attributes such as (deprecated) or (force_align: 16)
        for field in re.finditer(r"(\w+)\s*:\s*(\[?\w+\]?)", body):
            name = f"VT_{field[1].upper()}"
            if field[2] in unions:  # a union field is two: its type (a ubyte), then its value
                slots[(table[1], f"{name}_TYPE")] = (slot, 1)
                slot += 2
            slots[(table[1], name)] = (slot, SIZES.get(enums.get(field[2], field[2])))
            slot += 2
    return slots


def _verified_slots() -> dict[str, set[int]]:
    """Options table -> vtable slots the verifier checks for it."""
    # The verifier: its semantic checks and (since issue 20) the field tables in model_structure.cc.
    text = "".join((RUNTIME / name).read_text() for name in ("model_verifier.cc", "model_structure.cc"))
    slots = _schema_slots()
    enum = text[text.index("enum TableId"):]
    table_ids = re.findall(r"^\s*(k\w+T),", enum[:enum.index("};")], re.M)
    fields = text[text.index("constexpr FieldSpec kFields[]"):]
    fields = fields[:fields.index("};")]
    lists: list[set[int]] = [set()]
    for entry in re.finditer(r"\{(tflite::(\w+)::(VT_\w+)|0), [^}]*\}", fields):
        if entry[1] == "0":
            lists.append(set())
        else:
            lists[-1].add(slots[(entry[2], entry[3])][0])
    by_id = dict(zip(table_ids, lists, strict=False))
    option_tables = re.findall(r"BuiltinOptions::(\w+)\), (k\w+T)\}", text)
    return {table: by_id[table_id] for table, table_id in option_tables}


def test_every_parsed_options_field_is_verified() -> None:
    text = (RUNTIME / "builtin_parser.cc").read_text()
    parsed = {(m[1], m[2]) for m in re.finditer(r"MR_FIELD\(\s*(\w+),\s*(VT_\w+),", text)}
    assert len(parsed) > 40, "no MR_FIELD entries found in builtin_parser.cc; update this test to its new form"
    slots = _schema_slots()
    verified = _verified_slots()
    unverified = sorted((table, field) for table, field in parsed
                        if slots[(table, field)][0] not in verified.get(table, set()))
    assert unverified == []


def test_the_slot_reader_sees_known_fields() -> None:
    """The checker's own ground truth: a few slots TFLite's generated code fixes."""
    slots = _schema_slots()
    assert slots[("Conv2DOptions", "VT_PADDING")] == (4, 1)
    assert slots[("Conv2DOptions", "VT_QUANTIZED_BIAS_TYPE")][0] == 16
    assert slots[("FullyConnectedOptions", "VT_QUANTIZED_BIAS_TYPE")][0] == 12
    assert slots[("Buffer", "VT_OFFSET")] == (6, 8)  # after data (force_align is an attribute, not a field)
    assert slots[("QuantizationParameters", "VT_DETAILS")][0] == 14  # a union: its type at 12
    assert _verified_slots()["AddOptions"] == {4}
