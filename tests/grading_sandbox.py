"""Shared by the grading tests that run notebooks in the sandbox: skip (with the reason and the
remedy) on a machine where no sandbox works; CI installs bubblewrap (.ci/run), so they run there."""

import functools

import pytest


@functools.lru_cache(maxsize=1)
def sandbox_problem() -> str | None:
    from course.sandbox import Sandbox, SandboxUnavailable

    try:
        Sandbox().probe()
    except SandboxUnavailable as err:
        return str(err).splitlines()[0] + " (apt-get install bubblewrap)"
    return None


def need_sandbox():
    problem = sandbox_problem()
    if problem:
        pytest.skip(problem)
