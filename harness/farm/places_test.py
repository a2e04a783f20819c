"""harness.farm.places without a coordinator: why a place is unusable names what is gone."""

from __future__ import annotations

import socket

from harness.farm.places import Place, unreachable_reason


def test_a_place_whose_exporter_is_gone_says_so() -> None:
    place = Place("bluepill-2", {"board": "bluepill", "host": "rack-b"}, None, resources={})
    assert unreachable_reason(place) == ("its exporter on host rack-b is gone: the coordinator has no available "
                                         "GDBServer resource for the place (restart the exporter)")


def test_a_place_whose_gdb_server_does_not_answer_names_the_address() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    place = Place("bluepill-1", {"board": "bluepill"}, None,
                  resources={"GDBServer": {"host": "127.0.0.1", "port": port}})
    assert unreachable_reason(place) == (f"GDB server 127.0.0.1:{port} not reachable (its exporter is up; the server "
                                         "is not)")


def test_a_place_whose_gdb_server_answers_is_usable() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        place = Place("bluepill-1", {"board": "bluepill"}, None,
                      resources={"GDBServer": {"host": "127.0.0.1", "port": server.getsockname()[1]}})
        assert unreachable_reason(place) is None
