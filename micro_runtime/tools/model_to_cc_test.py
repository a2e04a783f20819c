"""Tests for model_to_cc.py: the generated C++ compiles and holds exactly the model's bytes."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parent


def _load_tool():  # the tools folder is not a package; load the script by path
    spec = importlib.util.spec_from_file_location("model_to_cc", TOOLS / "model_to_cc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


model_to_cc = _load_tool()

HELLO_WORLD = TOOLS.parent / "examples" / "hello_world" / "models" / "hello_world_int8.tflite"


def _fake_model(size: int = 100) -> bytes:
    # Any bytes with the flatbuffer file identifier pass the tool's check.
    body = bytes((i * 37 + 11) % 256 for i in range(size))
    return body[:4] + b"TFL3" + body[8:]


def _compile_and_dump(tmp_path: Path, name: str) -> bytes:
    """Builds a tiny program that prints the array and checks size and alignment."""
    main_cc = tmp_path / "main.cc"
    main_cc.write_text(
        f'#include "{name}_model_data.h"\n'
        "#include <cstdio>\n#include <cstdint>\n"
        "int main() {\n"
        f"  if (reinterpret_cast<uintptr_t>(g_{name}_model_data) % 16 != 0) return 2;\n"
        f"  fwrite(g_{name}_model_data, 1, g_{name}_model_data_size, stdout);\n"
        "  return 0;\n}\n"
    )
    exe = tmp_path / "dump"
    subprocess.run(
        ["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", f"-I{tmp_path}", str(main_cc),
         str(tmp_path / f"{name}_model_data.cc"), "-o", str(exe)],
        check=True,
    )
    return subprocess.run([str(exe)], check=True, capture_output=True).stdout


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
@pytest.mark.parametrize("size", [8, 12, 13, 1000])
def test_generated_source_holds_model_bytes(tmp_path: Path, size: int) -> None:
    data = _fake_model(size)
    model = tmp_path / "m.tflite"
    model.write_bytes(data)
    assert model_to_cc.main([str(model), "--out-dir", str(tmp_path), "--name", "my_model"]) == 0
    assert _compile_and_dump(tmp_path, "my_model") == data


@pytest.mark.skipif(shutil.which("g++") is None or not HELLO_WORLD.exists(), reason="needs g++ and the example")
def test_real_model_round_trips(tmp_path: Path) -> None:
    model_to_cc.convert(HELLO_WORLD, tmp_path, "hello")
    assert _compile_and_dump(tmp_path, "hello") == HELLO_WORLD.read_bytes()


def test_header_declares_symbols_with_guard(tmp_path: Path) -> None:
    model = tmp_path / "x.tflite"
    model.write_bytes(_fake_model())
    h_path, cc_path = model_to_cc.convert(model, tmp_path, "x")
    header = h_path.read_text()
    assert "#ifndef MICRO_RUNTIME_MODEL_X_MODEL_DATA_H_" in header
    assert "extern const unsigned char g_x_model_data[];" in header
    assert "extern const unsigned int g_x_model_data_size;" in header
    assert "alignas(16) const unsigned char g_x_model_data[]" in cc_path.read_text()


@pytest.mark.parametrize(
    ("raw", "ident"),
    [("hello-world 2", "hello_world_2"), ("9lives", "m_9lives"), ("ok_name", "ok_name"), ("a.b", "a_b")],
)
def test_names_become_c_identifiers(raw: str, ident: str) -> None:
    assert model_to_cc.c_identifier(raw) == ident


def test_sanitized_name_used_for_files(tmp_path: Path) -> None:
    model = tmp_path / "x.tflite"
    model.write_bytes(_fake_model())
    h_path, cc_path = model_to_cc.convert(model, tmp_path, "my-model")
    assert h_path.name == "my_model_model_data.h"
    assert cc_path.name == "my_model_model_data.cc"


def test_missing_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = model_to_cc.main([str(tmp_path / "nope.tflite"), "--out-dir", str(tmp_path), "--name", "n"])
    assert rc == 1
    assert "no such file" in capsys.readouterr().err


def test_non_tflite_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.tflite"
    bad.write_bytes(b"\x00" * 4 + b"PK\x03\x04" + b"\x00" * 20)
    rc = model_to_cc.main([str(bad), "--out-dir", str(tmp_path), "--name", "bad"])
    assert rc == 1
    err = capsys.readouterr().err
    assert "not a TensorFlow Lite model" in err and "TFL3" in err
    assert not (tmp_path / "bad_model_data.cc").exists()


def test_too_short_is_a_clear_error(tmp_path: Path) -> None:
    short = tmp_path / "short.tflite"
    short.write_bytes(b"TFL")
    with pytest.raises(model_to_cc.ModelToCcError, match="too short"):
        model_to_cc.convert(short, tmp_path, "short")
