"""A Python-level device test of the project: the `dut` fixture (from micro-harness) runs the project's
own test binary on each --board and talks about its output while it runs."""


def test_the_model_test_reports_its_case(dut):
    dut.start("tests/sine_model_test")  # the project's tests/sine_model_test.cc, built for the board first
    dut.expect_exact("ModelLoadsAndPredictsASine", timeout=30)
    dut.wait()
    assert dut.report().outcome == "passed"
