"""TFLM's own models run bit-exact: its 127 SEANet int16 (16x8) integration models against the golden outputs
TFLM ships with them, and its person-detection example (MobileNetV1 int8, the model whose bias quantization
LiteRT refuses) through ``harness run-model``, as a user would run them.

Models and data are copies in benchmarks/models/tflm/ (``import_tflm_models.py``): ``seanet.npz`` holds each
SEANet model's bytes, its input CSVs and TFLM's golden output CSV from tflite-micro's
``integration_tests/seanet/``. Every output must equal TFLM's exactly (tolerance 0).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from harness_helpers import requires_mcu, run_model_exactly

from harness import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
from tflm_models import TFLM_DIR as MODELS
from tflm_models import family as op_family
from tflm_models import seanet, seanet_case, write_cases

SEANET_OPS = ["add", "conv", "leaky_relu", "pad", "quantize", "strided_slice", "sub", "transpose_conv"]


def test_the_seanet_data_holds_every_family() -> None:
    families = {op_family(stem) for stem in seanet()}
    assert families == set(SEANET_OPS)
    assert len(seanet()) == 127
    assert all({"model", "input0", "golden"} <= set(entry) for entry in seanet().values())


@pytest.mark.parametrize("family", SEANET_OPS)
def test_seanet_int16_models_match_tflm_golden_on_host(family: str, tmp_path: Path) -> None:
    from harness.build.model_runner import host_file_runner
    from harness.cli.run_model import RunModelError, run_host_files

    host_file_runner(build=True)
    stems = sorted((s for s in seanet() if op_family(s) == family), key=lambda s: int(s[len(family):]))
    assert stems
    failures = []
    for stem in stems:
        model, inputs, golden = seanet_case(stem, tmp_path)
        try:
            result = run_host_files(model, [inputs], tmp_path / stem)
        except RunModelError as error:  # report every model, not only the first
            failures.append(f"{stem}: {' / '.join(str(error).strip().splitlines()[-3:])}")
            continue
        (output,) = result["cases"][0]["outputs"]
        got = np.asarray(output["data"], dtype=output["dtype"]).ravel()
        if output["dtype"] != str(golden.dtype) or got.shape != golden.shape:
            failures.append(f"{stem}: output {output['dtype']} x {got.size} vs golden {golden.dtype} x {golden.size}")
        elif not np.array_equal(got, golden):
            bad = np.flatnonzero(got != golden)
            failures.append(f"{stem}: {bad.size} of {golden.size} outputs differ from TFLM's golden "
                            f"(first at {bad[0]}: {got[bad[0]]} vs {golden[bad[0]]})")
    assert failures == [], "\n".join(failures)


# On the targets: the largest model of each family on netduinoplus2 (the most arithmetic per model; 1 MB of
# flash), the smallest on the 64 KB Blue Pill (the larger conv and transpose-conv weights do not fit it).
def _pick(family: str, board: str) -> str:
    stems = [s for s in seanet() if op_family(s) == family]
    by_size = sorted(stems, key=lambda s: (seanet()[s]["model"].size, s))
    return by_size[0] if board == "bluepill" else by_size[-1]


# Every SEANet TRANSPOSE_CONV model needs more arena than the Blue Pill's 20 KB of RAM leaves (the smallest
# 15,808 B of 14,336 B); TRANSPOSE_CONV int16 runs on the Blue Pill in its kernel and differential tests.
TARGET_CASES = [(family, board) for board in ("bluepill", "netduinoplus2") for family in SEANET_OPS
                if (family, board) != ("transpose_conv", "bluepill")]


@pytest.mark.slow
@pytest.mark.emulator
@requires_mcu
@pytest.mark.parametrize(("family", "board"), TARGET_CASES, ids=[f"{f}-{b}" for f, b in TARGET_CASES])
def test_seanet_int16_model_matches_tflm_golden_on_target(family: str, board: str, tmp_path: Path) -> None:
    stem = _pick(family, board)
    model, inputs, golden = seanet_case(stem, tmp_path)
    cases = write_cases(inputs, golden, model, tmp_path / "cases.json")
    run_model_exactly(model, cases, board)


@pytest.mark.slow
@pytest.mark.parametrize("board", ["host", pytest.param("netduinoplus2", marks=[requires_mcu, pytest.mark.emulator])])
def test_person_detect_is_bit_exact_through_run_model(board: str) -> None:
    """TFLM's person_detect.tflite (MobileNetV1 int8, 96x96 grey): its conv biases carry a per-channel
    quantized_dimension of 3 on a 1-D tensor, which LiteRT refuses and TFLM ignores; so do we."""
    result = run_model_exactly(MODELS / "person_detect.tflite", MODELS / "person_detect_cases.json", board)
    assert len(result["cases"]) == 3
