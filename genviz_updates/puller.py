"""nbgitpuller's ``GitPuller`` with the repairs that keep a pull from wedging, and the record.

nbgitpuller's ``update()`` runs: fetch; ``rename_local_untracked``; ``reset_deleted_files``;
``git reset --mixed``; commit the student's changes; ``merge`` (``git merge -Xours``). This
subclass keeps that flow and nbgitpuller's own commands, and overrides three of its steps:

- ``rename_local_untracked``: also (1) makes the merge drivers apply from the first merge on
  (``.git/info/attributes``: a ``.gitattributes`` arriving *with* an update is not used by
  that merge), (2) moves aside whatever is in the way of a course path -- a student's file
  where the course adds a folder or a file, a folder where the course adds a file -- and a
  tracked file the course turns into a folder is copied and restored to the course's last
  version, each to ``NAME.student-YYYYMMDD.EXT``;
- ``reset_deleted_files``: a file the student deleted that the course has since renamed or
  removed is restored to the course version the student last had, so the course's rename or
  removal merges cleanly (nbgitpuller's ``git checkout origin/BRANCH -- FILE`` fails on every
  click then: the file is not in origin);
- ``merge``: a tab's save that lands after nbgitpuller's commit of the student's changes (git
  refuses to merge over it) is committed too and the merge tried again; if ``git merge``
  still fails, the merge is abandoned, every file the student changed (committed, or saved
  since) is kept as a copy, and the student's copy becomes the course's version (a merge
  commit, so the next update merges normally); then :func:`genviz_updates.notices.record_update`
  writes what the update did not deliver.

No step raises for a repair it could not make: the worst case is the copy-and-take-the-course
rescue, never a traceback on every click.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from nbgitpuller.errors import BranchExistError
from nbgitpuller.pull import GitPuller, execute_cmd

from genviz_updates.notices import _course_changes, git, kept_name, record_update

__all__ = ["SafePuller", "ATTRIBUTES"]

#: the merge attributes the drivers need (also the course repository's .gitattributes)
ATTRIBUTES = "*.ipynb merge=genviz-notebook\ngenviz/data/** merge=genviz-course\n"
#: merges tried again when a tab's save landed during the click (git refuses to overwrite it)
SAVED_DURING_CLICK_RETRIES = 3
IDENTITY = ["-c", "user.email=nbgitpuller@nbgitpuller.link", "-c", "user.name=nbgitpuller"]


class SafePuller(GitPuller):
    """A ``GitPuller`` whose pulls end in a working tree, kept copies and a record."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.kept: list[dict] = []
        self.notes: list[dict] = []
        self.day = time.strftime("%Y%m%d")

    def branch_exists(self, branch):
        """nbgitpuller's check that the course has ``branch`` (a head or a tag), with one
        ``git ls-remote`` for both instead of one each: a round trip to the course's server
        (and, for a local course, three processes) less per click."""
        out = subprocess.run(["git", "ls-remote", "--heads", "--tags", "--", self.git_url],
                             capture_output=True, text=True, check=True).stdout
        if branch not in {line.split()[1].split("/", 2)[2] for line in out.splitlines()}:
            raise BranchExistError()

    # --- helpers ------------------------------------------------------------------------------
    @property
    def upstream(self) -> str:
        return f"origin/{self.branch_name}"

    def _git(self, *args, **kw):
        return git(self.repo_dir, *args, **kw)

    def _lines(self, *args) -> list[str]:
        r = self._git(*args)
        return [x for x in r.stdout.split("\0" if "-z" in args else "\n") if x] \
            if r.returncode == 0 else []

    def _keep(self, rel: str, why: str, move: bool) -> str:
        src = Path(self.repo_dir) / rel
        dst = kept_name(src, self.day)
        if move:
            os.rename(src, dst)
        elif src.is_dir():
            shutil.copytree(src, dst, symlinks=True)
        else:
            shutil.copy2(src, dst)
        copy = dst.relative_to(Path(self.repo_dir)).as_posix()
        self.kept.append({"path": rel, "copy": copy, "why": why})
        return f"genviz: kept your {rel} as {copy} ({why})\n"

    # --- nbgitpuller's steps, overridden --------------------------------------------------------
    def rename_local_untracked(self):
        try:
            yield from self._prepare()
        except Exception as exc:  # noqa: BLE001 (the rescue in merge() still applies)
            yield f"genviz: could not prepare the pull ({exc}); going on\n"

    def _prepare(self):
        info = Path(self.repo_dir) / ".git" / "info"
        info.mkdir(parents=True, exist_ok=True)
        attributes = info / "attributes"
        old = attributes.read_text() if attributes.exists() else ""
        if ATTRIBUTES not in old:
            attributes.write_text(old + ("\n" if old and not old.endswith("\n") else "")
                                  + ATTRIBUTES)
        new = self._lines("diff", "--name-only", "-z", "--no-renames", "--diff-filter=AMT",
                          "HEAD", self.upstream)
        if not new:  # nothing the course adds or changes can be in the way
            return
        tracked = set(self._lines("ls-tree", "-r", "-z", "--name-only", "HEAD"))
        root = Path(self.repo_dir)
        for path in sorted(new):
            parts = path.split("/")
            for k in range(1, len(parts)):
                prefix = "/".join(parts[:k])
                full = root / prefix
                if os.path.lexists(full) and not full.is_dir():
                    if prefix in tracked:
                        # the course turned this file into a folder and the student changed it
                        yield self._keep(prefix, "the course made a folder of this name", False)
                        self._restore(prefix, self._git("merge-base", "HEAD",
                                                        self.upstream).stdout.strip())
                    else:
                        yield self._keep(prefix, "the course added a folder of this name", True)
                    break
            full = root / path
            if path in tracked:
                continue
            if full.is_dir() and not full.is_symlink():
                yield self._keep(path, "the course added a file of this name", True)
            elif os.path.lexists(full):
                yield self._keep(path, "the course added a file of this name", True)

    def _restore(self, rel, base):
        """Put the course version the student last had at ``rel`` (or HEAD's)."""
        data = self._git("cat-file", "-p", f"{base}:{rel}", text=False) if base else None
        if data is None or data.returncode != 0:
            data = self._git("cat-file", "-p", f"HEAD:{rel}", text=False)
        if data.returncode == 0:
            target = Path(self.repo_dir) / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data.stdout)

    def reset_deleted_files(self):
        yield from self.ensure_lock()
        deleted = self._lines("ls-files", "--deleted", "-z")
        if not deleted:  # the usual click: nothing to put back
            return
        course = set(self._lines("ls-tree", "-r", "-z", "--name-only", self.upstream))
        base = self._git("merge-base", "HEAD", self.upstream).stdout.strip()
        renames = {old: new for s, old, new in _course_changes(self.repo_dir, base or "HEAD",
                                                                self.upstream) if s == "R"}
        for filename in deleted:
            if filename in course:
                # nbgitpuller's own behaviour: a deleted file comes back as the course's version
                yield from execute_cmd(["git", "checkout", self.upstream, "--", filename],
                                       cwd=self.repo_dir)
                continue
            self._restore(filename, base)
            if filename in renames:
                self.notes.append({"path": filename, "what": f"you had deleted it; the course "
                                   f"renamed it to {renames[filename]}, which you now have."})
            yield f"genviz: {filename} is gone from the course too; restored for the merge\n"

    def merge(self):
        for attempt in range(SAVED_DURING_CLICK_RETRIES + 1):
            before = self._git("rev-parse", "HEAD").stdout.strip()
            try:
                yield from super().merge()
                break
            except subprocess.CalledProcessError as exc:
                if attempt < SAVED_DURING_CLICK_RETRIES and self._saved_meanwhile():
                    # a tab saved after nbgitpuller's commit of the student's changes: git
                    # refused to overwrite it; commit that save too and merge again
                    yield "genviz: a file was saved during the update; merging with it\n"
                    yield from self.commit_all()
                    continue
                yield f"genviz: the merge stopped ({exc}); keeping your versions as copies\n"
                yield from self._rescue(before)
                break
        try:
            state = record_update(self.repo_dir, before, self.upstream, kept=self.kept,
                                  notes=self.notes)
        except Exception as exc:  # noqa: BLE001 (the pull itself succeeded)
            yield f"genviz: could not record what this update did not deliver ({exc})\n"
            return
        if state:
            n = sum(len(e.get("items", [])) for e in state["notebooks"].values())
            n += len(state["files"])
            if n:
                yield (f"genviz: {n} thing{'s' if n > 1 else ''} to tell you; each notebook "
                       f"concerned says what when you run a cell\n")

    def _saved_meanwhile(self) -> bool:
        """No merge under way, and a tracked file differs from HEAD in the working tree (what
        a save landing after nbgitpuller's commit leaves, and git's merge refuses to touch)."""
        if self._git("rev-parse", "-q", "--verify", "MERGE_HEAD").returncode == 0:
            return False
        return self._git("diff-files", "--quiet").returncode == 1

    def _rescue(self, before):
        """Take the course's version; keep every file the student changed as a copy (those
        committed before the click and those saved since, which the reset would overwrite)."""
        self._git("merge", "--abort")
        self._git("reset", "--mixed")
        base = self._git("merge-base", before, self.upstream).stdout.strip()
        mine = self._lines("diff", "--name-only", "-z", "--no-renames", base, before) \
            if base else self._lines("ls-tree", "-r", "-z", "--name-only", before)
        mine = list(dict.fromkeys(mine + self._lines("diff", "--name-only", "-z",
                                                     "--no-renames", before)))
        for rel in mine:
            if (Path(self.repo_dir) / rel).is_file():
                yield self._keep(rel, "the update could not be merged with your version", False)
        course = set(self._lines("ls-tree", "-r", "-z", "--name-only", self.upstream))
        for rel in self._lines("ls-files", "--others", "-z"):
            if rel in course:  # untracked, where the course has a file: reset would overwrite
                yield self._keep(rel, "the course added a file of this name", True)
        tree = self._git("rev-parse", f"{self.upstream}^{{tree}}").stdout.strip()
        commit = self._git(*IDENTITY, "commit-tree", tree, "-p", before, "-p", self.upstream,
                           "-m", "genviz: the course's version, the student's kept as copies")
        self._git("reset", "--hard", commit.stdout.strip())
        yield "genviz: your copy is now the course's version; your files are kept as copies\n"
