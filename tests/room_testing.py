"""What the tests of the prediction boxes and the lecture room share: a stand-in explorer and a
fixture that makes every network call fail the test (off the hub nothing may be sent)."""

from __future__ import annotations

import socket
import time
import urllib.request

import pytest


class FakeExplorer:
    """An explorer as the boxes read it: ``values()`` and ``view.state`` only."""

    def __init__(self, values, state):
        self._values = dict(values)
        self.view = type("View", (), {"state": dict(state)})()

    def values(self):
        return dict(self._values)


@pytest.fixture()
def no_network(monkeypatch):
    """Sockets, connections and ``urlopen`` raise; the list of the calls tried is returned."""
    calls = []

    def refuse(*args, **kwargs):
        calls.append(args)
        raise AssertionError("a network call off the hub")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    return calls


def wait_for(predicate, timeout=15) -> bool:
    """Poll ``predicate()`` every 50 ms until it is true (True) or ``timeout`` s pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False
