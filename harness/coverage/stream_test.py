"""The gcov stream read back: whole, cut short, over the log, or not a stream at all."""

from __future__ import annotations

import pytest

from harness.coverage.stream import StreamError, encode, from_log, parse

FILES = {"/b/obj/a.cc.gcda": b"adcg" + bytes(range(40)), "/b/obj/b.c.gcda": b"adcg\x00\x01"}


def test_a_whole_stream_gives_every_file() -> None:
    stream = parse(encode(FILES))
    assert stream.complete and stream.files == FILES and not stream.problem


def test_a_stream_without_its_end_is_incomplete() -> None:
    data = encode(FILES, end=False)
    for cut in (len(data), len(data) - 3):
        stream = parse(data[:cut])
        assert not stream.complete and "before its end record" in stream.problem


def test_an_end_record_that_counts_other_objects_is_incomplete() -> None:
    data = encode(FILES)[:-4] + (5).to_bytes(4, "little")
    stream = parse(data)
    assert not stream.complete and "counts 5 objects but 2 came" in stream.problem


def test_data_in_several_records_is_joined() -> None:
    whole = encode({"/x.gcda": b"abcdef"})
    # The firmware sends a file's data in many DATA records: split this one in two.
    head, tail = whole.split(b"DATA")
    length = int.from_bytes(tail[:4], "little")
    body = tail[4:4 + length]
    rest = tail[4 + length:]
    split = (head + b"DATA" + (2).to_bytes(4, "little") + body[:2] + b"DATA" + (4).to_bytes(4, "little") + body[2:]
             + rest)
    assert parse(split).files == {"/x.gcda": b"abcdef"}


def test_not_a_stream() -> None:
    with pytest.raises(StreamError, match="no MGCV header"):
        parse(b"hello world")
    with pytest.raises(StreamError, match="version 9"):
        parse(b"MGCV" + (9).to_bytes(4, "little"))


def test_the_log_carries_it_in_hex_lines_among_other_text() -> None:
    data = encode(FILES)
    hexed = data.hex()
    lines = [f"~~~GCOV {hexed[i:i + 64]}" for i in range(0, len(hexed), 64)]
    log = ("~~~MT 9 00000000 DONE PASSED\r\n" + "\r\n".join(lines) + "\r\n").encode()
    found = from_log(log)
    assert found == data and parse(found).complete
    assert from_log(b"no coverage here\n") is None
