"""The Jupyter server extension of course updates, loaded by every single-user server on a hub
(deploy/singleuser/etc/jupyter/jupyter_server_config.d/genviz_updates.json).

At load it

1. defines the git merge drivers for every git this server runs -- nbgitpuller's, and the
   terminals' -- through ``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n`` in
   its environment (git >= 2.31; no system file to write, so it works as an unprivileged user
   in a repo2docker image as on TLJH and the trial hub);
2. makes nbgitpuller's ``/git-pull/api`` handler use :class:`genviz_updates.puller.SafePuller`;
3. registers a pre-save hook: a save from a JupyterLab tab that still shows a notebook as it
   was before the merge ("File Changed" > Overwrite, or an autosave) is merged with what is on
   disk -- the student's edits kept, the update kept -- instead of reverting the update.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["pre_save_hook", "stale_model"]


def _jupyter_server_extension_points():
    return [{"module": "genviz_updates.server"}]


def _load_jupyter_server_extension(serverapp):
    from genviz_updates.driver import git_config_env

    os.environ.update(git_config_env(os.environ))
    try:
        import nbgitpuller.handlers

        from genviz_updates.puller import SafePuller

        nbgitpuller.handlers.GitPuller = SafePuller
    except ImportError:
        serverapp.log.warning("genviz_updates: nbgitpuller is not installed")
    serverapp.contents_manager.register_pre_save_hook(pre_save_hook)
    serverapp.log.info("genviz_updates: notebook merge driver, safe pulls and pre-save merge on")


load_jupyter_server_extension = _load_jupyter_server_extension


def stale_model(cells, delivered) -> bool:
    """Whether ``cells`` (a notebook's being saved) lack every change a merge delivered."""
    if not delivered or not any(delivered.get(k) for k in ("inserted", "changed", "deleted")):
        return False
    from genviz_updates.notebooks import _hash, source

    by_id = {c.get("id"): c for c in cells if c.get("id")}
    if not by_id:
        return False
    if any(cid in by_id for cid in delivered.get("inserted", [])):
        return False
    if any(cid in by_id and _hash(source(by_id[cid])) == h
           for cid, h in delivered.get("changed", {}).items()):
        return False
    if not delivered.get("inserted") and not delivered.get("changed"):
        return any(cid in by_id for cid in delivered.get("deleted", []))
    return True


def pre_save_hook(model, path, contents_manager, **kwargs):
    """Merge a save based on the pre-merge notebook with the merged one on disk."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    from genviz_updates.notebooks import merge_notebooks, read_notebook
    from genviz_updates.notices import find_repo, git, read_state

    os_path = Path(contents_manager._get_os_path(path))
    found = find_repo(os_path) if os_path.is_file() else None
    if not found:
        return
    top, gitdir = found
    state = read_state(gitdir)
    entry = (state or {}).get("notebooks", {}).get(os_path.resolve().relative_to(top).as_posix())
    if not entry or not stale_model(model["content"].get("cells", []),
                                    entry.get("delivered")):
        return
    before = git(top, "cat-file", "-p", entry["ours_blob"])
    if before.returncode != 0:
        return
    merged = merge_notebooks(read_notebook(before.stdout), model["content"],
                             read_notebook(os_path.read_bytes()))
    model["content"] = merged
    contents_manager.log.info("genviz_updates: %s was saved from a tab opened before the "
                              "course update; merged with the update on disk", path)
