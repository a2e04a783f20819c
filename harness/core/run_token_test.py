"""The run token: the Python authenticator agrees with micro_test.h's, tokens are fresh, the block is checked."""

from __future__ import annotations

import re

from harness import REPO_ROOT
from harness.core.run_token import KNOWN_KEY, KNOWN_MAC, TOKEN_MAGIC, RunToken, record_mac


def test_known_mac_is_the_one_micro_test_test_checks() -> None:
    assert KNOWN_MAC == 0xECCDBF2F
    source = (REPO_ROOT / "micro_runtime" / "micro_test_test.cc").read_text()
    assert re.search(r"EXPECT_EQ\(0xECCDBF2Fu, micro_test::RecordMac\(key, 5, \"BEGIN Case\"\)\)", source)
    header = (REPO_ROOT / "micro_runtime" / "micro_test.h").read_text()
    assert "0x9E3779B1u" in header and "0x01000193u" in header  # the same constants on both sides


def test_mac_depends_on_key_sequence_and_every_byte() -> None:
    base = record_mac(KNOWN_KEY, 5, "END A PASSED")
    assert record_mac(KNOWN_KEY, 6, "END A PASSED") != base
    assert record_mac((KNOWN_KEY[0] ^ 1, KNOWN_KEY[1]), 5, "END A PASSED") != base
    assert record_mac((KNOWN_KEY[0], KNOWN_KEY[1] ^ 0x80000000), 5, "END A PASSED") != base
    assert record_mac(KNOWN_KEY, 5, "END A FAILED") != base
    assert record_mac(KNOWN_KEY, 5, "END A PASSED ") != base


def test_tokens_are_fresh_and_never_the_unkeyed_key() -> None:
    tokens = {RunToken.fresh().key for _ in range(200)}
    assert len(tokens) == 200 and (0, 0) not in tokens
    token = RunToken((0x01234567, 0x89ABCDEF))
    assert token.hex == "0123456789abcdef"
    magic, k0, k1, check = token.memory_words()
    assert (magic, k0, k1) == (TOKEN_MAGIC, 0x01234567, 0x89ABCDEF)
    assert check == ~(magic ^ k0 ^ k1) & 0xFFFFFFFF
