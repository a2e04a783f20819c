"""harness.pytest.farm: which device a recorded result is blamed on."""

from __future__ import annotations

from harness.pytest.farm import _device_id


def test_a_result_is_on_its_map_device_else_on_this_hosts_emulator() -> None:
    assert _device_id({"hil_device": "bluepill-2"}, "hil:farm", "ci-3") == "bluepill-2"
    assert _device_id({}, "qemu", "ci-3") == "qemu@ci-3"
    assert _device_id({}, "host", "ci-3") == "host@ci-3"


def test_a_binary_that_never_reached_a_board_is_no_device_of_its_own() -> None:
    """Not a pseudo-device 'hil:farm@ci-3' that board health would then list as failing."""
    assert _device_id({}, "hil:farm", "ci-3") is None
    assert _device_id({"hil_device": ""}, "hil:pyocd", "ci-3") is None
