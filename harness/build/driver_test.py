"""first_error_line: a failed build is summed up at the user's own line, not inside the harness's headers."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.build.diagnostics import first_error_line
from harness.core import project

HEADER = REPO_ROOT / "micro_runtime" / "micro_test.h"


@contextmanager
def _in_use(proj: project.Project) -> Iterator[None]:
    """``proj`` is the project in use, then the one before it again (this process's, e.g. the checkout's)."""
    before = project.current()
    project.use(proj)
    try:
        yield
    finally:
        project.use(before)


@pytest.fixture
def user(tmp_path: Path) -> Iterator[Path]:
    """A user's project with one test; the project in use while the test runs."""
    root = tmp_path / "firmware"
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.micro-harness]\n")
    source = root / "tests" / "cmp_test.cc"
    source.write_text("// the test\n")
    with _in_use(project.load(root)):
        yield source


def test_an_error_in_a_harness_macro_is_placed_at_the_users_expansion(user: Path) -> None:
    output = f"""In file included from {user}:1:
{user}: In function 'int main(int, char**)':
{HEADER}:287:68: error: comparison of integer expressions of different signedness: 'int' and 'unsigned int' \
[-Werror=sign-compare]
  287 | #define TF_LITE_MICRO_EXPECT_EQ(x, y) TF_LITE_MICRO_COMPARE_(x, y, ==)
{HEADER}:281:15: note: in definition of macro 'TF_LITE_MICRO_COMPARE_'
{user}:7:3: note: in expansion of macro 'TF_LITE_MICRO_EXPECT_EQ'
    7 |   TF_LITE_MICRO_EXPECT_EQ(-1, u);
cc1plus: all warnings being treated as errors
"""
    assert first_error_line(output, user) == (
        "tests/cmp_test.cc:7:3: error: comparison of integer expressions of different signedness: 'int' and "
        "'unsigned int' [-Werror=sign-compare] (micro_runtime/micro_test.h:287, in expansion of macro "
        "'TF_LITE_MICRO_EXPECT_EQ')")


def test_an_error_in_a_harness_template_is_placed_where_the_user_instantiated_it(user: Path) -> None:
    output = f"""{HEADER}: In instantiation of 'static void micro_test::ValueKind<T>::Format(char*, int, T)':
{HEADER}:181:23:   required from 'void micro_test::ReportComparisonFailure(...) [with A = S; B = S]'
{user}:8:3:   required from here
{HEADER}:152:9: error: no matching function for call to 'S::S(int)'
  152 |     if (static_cast<T>(-1) < static_cast<T>(0)) {{
{user}:2:8: note: candidate: 'S::S()'
"""
    assert first_error_line(output, user) == (
        "tests/cmp_test.cc:8:3: error: no matching function for call to 'S::S(int)' (micro_runtime/micro_test.h:152, "
        "required from here)")


def test_the_first_error_in_the_users_code_wins_and_includes_do_not_count(user: Path) -> None:
    helper = user.parent.parent / "src" / "helper.h"
    output = f"""In file included from {user}:1:
/usr/include/c++/12/bits/stl_algo.h:10:2: error: something in a system header
{helper}:4:9: error: 'x' was not declared in this scope
{user}:3:15: error: expected primary-expression before ';' token
"""
    # The system header's error has no user context (the include line is not one); a project file is the user's.
    assert first_error_line(output, user) == "src/helper.h:4:9: error: 'x' was not declared in this scope"


def test_without_any_user_line_the_first_error_is_kept(user: Path) -> None:
    output = f"""make: entering
{HEADER}:12:1: error: broken harness header
/usr/bin/ld: main.o: in function `main': undefined reference to `Missing()'
"""
    assert first_error_line(output, user) == f"{HEADER}:12:1: error: broken harness header"
    linker = "g++ -o x a.o\n/usr/bin/ld: a.o: in function `main':\na.cc:(.text+0x5): undefined reference to `Foo()'\n"
    assert first_error_line(linker, user) == "a.cc:(.text+0x5): undefined reference to `Foo()'"
    assert first_error_line("", user) == ""


def test_in_the_checkout_only_the_test_itself_is_the_users() -> None:
    with _in_use(project.load(REPO_ROOT)):
        test = REPO_ROOT / "micro_runtime" / "kernels" / "add_test.cc"
        output = f"""{HEADER}:287:68: error: comparison of integer expressions of different signedness
micro_runtime/micro_test.h:281:15: note: in definition of macro 'TF_LITE_MICRO_COMPARE_'
kernels/add_test.cc:40:3: note: in expansion of macro 'TF_LITE_MICRO_EXPECT_EQ'
"""
        assert first_error_line(output, test).startswith(
            "micro_runtime/kernels/add_test.cc:40:3: error: comparison of integer expressions")
        assert first_error_line(output, None) == output.splitlines()[0]
