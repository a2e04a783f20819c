"""Building the model runner: link errors turned into "does not fit", and the bounded runner cache."""

from __future__ import annotations

from pathlib import Path

from harness.board.boards import load_board
from harness.build.model_runner import _does_not_fit, prune_runners


def test_linker_overflow_becomes_does_not_fit() -> None:
    board = load_board("host")
    output = ("ld: model_runner_x section `.bss' will not fit in region `RAM'\n"
              "ld: region `RAM' overflowed by 4242 bytes\n")
    reason = _does_not_fit(board, output)
    assert reason is not None
    assert "does not fit board 'host'" in reason and "RAM overflowed by 4242 bytes" in reason
    assert _does_not_fit(board, "undefined reference to `foo'") is None


def test_runner_cache_keeps_the_most_recently_used_and_the_running(tmp_path: Path) -> None:
    import fcntl
    import os

    gen = tmp_path / "gen" / "board"
    (gen / "bin").mkdir(parents=True)
    for age, name in enumerate(["m_new", "m_mid", "m_old", "m_running", "m_oldest"]):
        folder = gen / "model_runner" / name
        folder.mkdir(parents=True)
        (folder / "config").write_text(name)
        (folder / ".in_use").touch()  # as a run leaves it (creating it later would touch the folder)
        for path in (gen / "bin" / f"model_runner_{name}", gen / "bin" / f"model_runner_{name}.map", folder):
            if not path.exists():
                path.write_text("elf")
            os.utime(path, (1000 - age * 10, 1000 - age * 10))
    (gen / "bin" / "model_runner_orphan").write_text("no folder")
    (gen / "bin" / "add_test").write_text("not a runner")
    with (gen / "model_runner" / "m_running" / ".in_use").open("a") as held:
        fcntl.flock(held, fcntl.LOCK_SH)  # another process is running it
        assert sorted(prune_runners(gen, keep=2)) == ["m_old", "m_oldest"]
    assert sorted(p.name for p in (gen / "model_runner").iterdir()) == ["m_mid", "m_new", "m_running"]
    assert sorted(p.name for p in (gen / "bin").iterdir()) == [
        "add_test", "model_runner_m_mid", "model_runner_m_mid.map", "model_runner_m_new",
        "model_runner_m_new.map", "model_runner_m_running", "model_runner_m_running.map"]
    assert prune_runners(gen, keep=2) == ["m_running"]  # no longer running: the least recently used goes
