"""The run session: one place that resolves, builds, reads the binary's declarations, runs and judges."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.build.driver import BuildError, build_program
from harness.core.run_token import TOKEN_ENV
from harness.outcome import Outcome
from harness.session import RunOptions, run_binary

GUARDED = REPO_ROOT / "tests" / "fixtures" / "declared" / "guarded_cases_test.cc"


@pytest.fixture(scope="module")
def guarded() -> Path:
    built = build_program(load_board("host"), GUARDED, "session_guarded_test", progress=None)
    assert built.elf is not None, built.error
    return built.elf


def test_a_host_run_is_authenticated_and_held_against_the_compiled_cases(guarded: Path) -> None:
    report = run_binary(load_board("host"), guarded, source=GUARDED)
    assert report.outcome == Outcome.PASSED, report.summary
    assert report.records == "authenticated" and report.token_delivery == "environment"
    assert sorted(c.name for c in report.cases) == ["Always", "Kept"]  # CompiledOut is no case
    assert report.format == "micro_test"


def test_without_a_token_the_report_says_unauthenticated(guarded: Path) -> None:
    report = run_binary(load_board("host"), guarded, RunOptions(token=False))
    assert report.outcome == Outcome.PASSED and report.records == "unauthenticated"
    assert report.token_delivery is None


def test_every_run_gets_a_fresh_token(tmp_path: Path) -> None:
    script = tmp_path / "show_token"
    script.write_text(f"#!/bin/sh\necho ${TOKEN_ENV}\n")
    script.chmod(0o755)
    seen = {run_binary(load_board("host"), script).log.strip() for _ in range(3)}
    assert len(seen) == 3 and all(len(token) == 16 for token in seen)


def test_options_that_name_no_runner_are_a_usage_error(guarded: Path) -> None:
    report = run_binary(load_board("bluepill"), guarded, RunOptions(backend="no-such-backend"))
    assert report.outcome == Outcome.UNAVAILABLE and report.usage_error
    assert "unknown backend" in report.summary


def test_a_build_that_fails_is_a_build_error_not_a_run() -> None:
    def build() -> Path:
        raise BuildError("x_test.cc:3: error: expected ';'")

    report = run_binary(load_board("host"), build)
    assert report.outcome == Outcome.BUILD_ERROR and "expected ';'" in report.summary and report.run is None


def test_a_runner_that_raises_is_an_infra_error_with_its_message(guarded: Path) -> None:
    class Broken:
        name = "broken"

        def unavailable_reason(self, board: object) -> None:
            return None

        def run(self, *args: object, **kwargs: object) -> None:
            raise RuntimeError("probe unplugged")

    report = run_binary(load_board("host"), guarded, RunOptions(runner=Broken()))
    assert report.outcome == Outcome.INFRA_ERROR and "probe unplugged" in report.summary


def test_a_backend_can_have_its_own_time_limit_in_the_board_file() -> None:
    """[renode] timeout_s (Renode runs a binary several times slower than QEMU) applies to Renode runs only;
    --micro-timeout still wins over both."""
    from harness.board.boards import load_board
    from harness.session import RunOptions, timeout_for

    board = load_board("bluepill")
    assert timeout_for(board, RunOptions(), "renode") == board.section("renode")["timeout_s"] > \
        timeout_for(board, RunOptions(), "qemu") == board.section("run")["timeout_s"]
    assert timeout_for(board, RunOptions(timeout_s=5), "renode") == 5
