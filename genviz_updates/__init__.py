"""Course updates on a hub that deliver every fix and lose no student's work (issue #33).

Not part of the ``genviz`` library (it knows nothing of generative models): the machinery a
hub runs around nbgitpuller. ``notebooks`` merges notebooks cell by cell; ``driver`` is the
git merge driver that uses it; ``puller`` is nbgitpuller's ``GitPuller`` with the repairs that
keep a pull from wedging and the record of what a merge did not deliver; ``notices`` writes
and reads that record and words the notice; ``kernel`` is the IPython extension that prints it
(and imports the genviz of the student's clone); ``server`` is the Jupyter server extension
that installs the driver's git configuration, the puller and the pre-save safety net;
``seen`` and ``textsave`` are what a tab's save of a notebook or a text file is merged against.
:func:`git` is the one way every module runs git. Its design: genviz_updates/ARCHITECTURE.md.
"""

import os
import subprocess

__version__ = "1.0"


def git(repo, *args, text=True, check=False, input=None):
    """Run git in ``repo``; the CompletedProcess (stdout/stderr captured, C locale, at most
    120 s)."""
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=text,
                          check=check, input=input, env=dict(os.environ, LANG="C"),
                          timeout=120)
