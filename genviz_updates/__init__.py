"""Course updates on a hub that deliver every fix and lose no student's work (issue #33).

Not part of the ``genviz`` library (it knows nothing of generative models): the machinery a
hub runs around nbgitpuller. ``notebooks`` merges notebooks cell by cell; ``driver`` is the
git merge driver that uses it; ``puller`` is nbgitpuller's ``GitPuller`` with the repairs that
keep a pull from wedging and the record of what a merge did not deliver; ``notices`` writes
and reads that record and words the notice; ``kernel`` is the IPython extension that prints it
(and imports the genviz of the student's clone); ``server`` is the Jupyter server extension
that installs the driver's git configuration, the puller and the pre-save safety net;
``seen`` and ``textsave`` are what a tab's save of a notebook or a text file is merged against.
:func:`git` is the one way every module runs git (:func:`git_object` for an object named by
its id, read once). Its design: genviz_updates/ARCHITECTURE.md.
"""

import collections
import os
import re
import subprocess

__version__ = "1.0"


def git(repo, *args, text=True, check=False, input=None):
    """Run git in ``repo``; the CompletedProcess (stdout/stderr captured, C locale, at most
    120 s)."""
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=text,
                          check=check, input=input, env=dict(os.environ, LANG="C"),
                          timeout=120)


#: an object named by its full id, alone or with a path in it (``<commit>:<path>``)
_OBJECT_ID = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?(?::|$)")
_OBJECTS: collections.OrderedDict = collections.OrderedDict()
#: at most 64 reads kept, each up to 4 MB and 16 MB in all: the cache lives in every student's
#: Jupyter server, and saved notebooks with figures weigh megabytes
_OBJECTS_KEPT, _OBJECT_MAX_BYTES, _OBJECTS_MAX_TOTAL = 64, 4 << 20, 16 << 20


def git_object(repo, *args):
    """``git(repo, "cat-file", *args, text=False)``; when the object is named by its full id
    (``cat-file blob <id>``, ``cat-file -p <commit id>:<path>``: bytes that never change), a
    successful read is kept (the last 64, each up to 4 MB, 16 MB in all) and not read again: a
    pull's record and every save of a tab read the same blobs several times, a git process
    each."""
    spec = args[-1] if args else ""
    if not _OBJECT_ID.match(spec):
        return git(repo, "cat-file", *args, text=False)
    key = (os.path.realpath(repo), args)
    if key in _OBJECTS:
        _OBJECTS.move_to_end(key)
        return _OBJECTS[key]
    done = git(repo, "cat-file", *args, text=False)
    if done.returncode == 0 and len(done.stdout) <= _OBJECT_MAX_BYTES:
        _OBJECTS[key] = done
        while len(_OBJECTS) > _OBJECTS_KEPT or \
                sum(len(d.stdout) for d in _OBJECTS.values()) > _OBJECTS_MAX_TOTAL:
            _OBJECTS.popitem(last=False)
    return done
