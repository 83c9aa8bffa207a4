"""The Jupyter server extension of course updates, loaded by every single-user server on a hub
(deploy/singleuser/etc/jupyter/jupyter_server_config.d/genviz_updates.json).

At load it

1. defines the git merge drivers for every git this server runs -- nbgitpuller's, and the
   terminals' -- through ``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n`` in
   its environment (git >= 2.31; no system file to write, so it works as an unprivileged user
   in a repo2docker image as on TLJH and the trial hub);
2. makes nbgitpuller's ``/git-pull/api`` handler use :class:`genviz_updates.puller.SafePuller`;
3. gives every notebook the contents API hands out with its content (a tab opening or
   reloading it) a token naming what the tab loaded (``genviz_updates.seen``);
4. registers a pre-save hook: a save is merged with what is on disk against what *that* tab
   last loaded or saved, so a tab opened before one or several course updates ("File
   Changed" > Overwrite, or an autosave) keeps every update, and a cell the student deleted
   or reverted in a tab that had the update stays deleted or reverted. A save with no token
   keeps both where it cannot tell, and says so in the notebook.
"""

from __future__ import annotations

import inspect
import os
from pathlib import Path

__all__ = ["pre_save_hook", "stale_model", "stamp_model", "wrap_get", "NOTE_ID"]

#: the id of the note cell a save that could not tell puts at the top of the notebook
NOTE_ID = "genviz-update-note"


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
    wrap_get(serverapp.contents_manager)
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


def _clone_path(contents_manager, path):
    """(top, git dir, path in the repository) of a contents path inside a clone, or None."""
    from genviz_updates.notices import find_repo

    os_path = Path(contents_manager._get_os_path(path))
    found = find_repo(os_path)
    if not found:
        return None
    try:
        rel = os_path.resolve().relative_to(found[0]).as_posix()
    except ValueError:
        return None
    if rel.startswith(".git/"):
        return None
    return found[0], found[1], rel, os_path


def stamp_model(model, contents_manager) -> str | None:
    """Give a notebook model with content (what a tab loads) its token; the token or None.
    A text file's model with content (the file editor opening or reloading it) is recorded
    as a load of that file (``textsave.record_text_load``: it dates what tabs can show)."""
    if isinstance(model, dict) and model.get("type") == "file" \
            and model.get("format") == "text" and isinstance(model.get("content"), str):
        _record_load(model, contents_manager)
        return None
    if not isinstance(model, dict) or model.get("type") != "notebook" \
            or not isinstance(model.get("content"), dict):
        return None
    from genviz_updates.seen import stamp

    where = _clone_path(contents_manager, model.get("path", ""))
    if where is None:
        return None
    try:
        return stamp(model["content"], where[1], where[2])
    except OSError:
        return None


def _record_load(model, contents_manager) -> None:
    from genviz_updates.textsave import record_text_load

    where = _clone_path(contents_manager, model.get("path", ""))
    if where is not None:
        try:
            record_text_load(where[1], where[2], model["content"])
        except OSError:
            pass


def wrap_get(contents_manager) -> None:
    """Make ``contents_manager.get`` (sync or async) stamp the notebooks it returns."""
    original = contents_manager.get

    def get(path, content=True, *args, **kwargs):
        result = original(path, content, *args, **kwargs)
        if not content:
            return result
        if inspect.isawaitable(result):
            async def stamped():
                model = await result
                _safe_stamp(model, contents_manager)
                return model
            return stamped()
        _safe_stamp(result, contents_manager)
        return result

    contents_manager.get = get


def _safe_stamp(model, contents_manager):
    try:
        stamp_model(model, contents_manager)
    except Exception:  # noqa: BLE001 (a tab must open whatever happens here)
        contents_manager.log.warning("genviz_updates: could not record what a tab loaded",
                                     exc_info=True)


def pre_save_hook(model, path, contents_manager, **kwargs):
    """Merge a save with the notebook on disk, against what that tab last loaded or saved;
    a text file's save against the click it shows nothing of (``genviz_updates.textsave``)."""
    if model.get("type") == "file" and model.get("format") == "text" \
            and isinstance(model.get("content"), str):
        return _save_text(model, path, contents_manager)
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    from genviz_updates.notebooks import read_notebook
    from genviz_updates.seen import (meta_snapshot, read_merges, read_token, snapshot,
                                     take_token, write_token)

    content = model["content"]
    token = take_token(content)
    where = _clone_path(contents_manager, path)
    if where is None:
        return
    top, gitdir, rel, os_path = where
    try:
        disk = read_notebook(os_path.read_bytes()) if os_path.is_file() else None
    except (OSError, ValueError, UnicodeDecodeError):
        disk = None  # nothing readable to merge with: the save is the student's
    snap = read_token(gitdir, token)
    if snap is not None and snap.get("path") != rel:
        snap = None  # a token issued for another notebook (Save As): as a tab with no token
    if snap is not None:
        result = None
        if disk is not None and (snapshot(disk) != snap["cells"]
                                 or meta_snapshot(disk) != snap.get("meta")):
            result = _merge_tab(snap["cells"], snap.get("meta"), content, disk,
                                read_merges(gitdir, rel), top, rel)
        write_token(gitdir, token, rel, snapshot(content), meta_snapshot(content))  # its base
    else:
        result = (_merge_stale(read_merges(gitdir, rel), content, disk, top, rel)
                  if disk is not None else None)
    if result is None:
        return
    merged, items = result
    model["content"] = merged
    if items:
        from genviz_updates.notices import add_items

        add_items(gitdir, rel, items, merged.get("cells", []))
    contents_manager.log.info("genviz_updates: %s was saved from a tab that did not show "
                              "what is on disk; merged (%d to tell)", path, len(items))


def _save_text(model, path, contents_manager):
    from genviz_updates.notices import add_file_note
    from genviz_updates.textsave import merge_text_save

    where = _clone_path(contents_manager, path)
    if where is None:
        return
    top, gitdir, rel, os_path = where
    try:
        disk = os_path.read_bytes().decode("utf-8") if os_path.is_file() else None
    except (OSError, UnicodeDecodeError):
        disk = None
    if disk is None:
        return
    result = merge_text_save(top, gitdir, rel, model["content"], disk)
    if result is None:
        return
    model["content"], notes = result
    for note in notes:
        add_file_note(gitdir, note)
    contents_manager.log.info("genviz_updates: %s was saved from a tab opened before a course "
                              "update, or one that removed it; merged%s", path,
                              "".join(f" ({n['kind']})" for n in notes))


def _course_items(items, merges, disk, by_id=True):
    """The items about a change a recorded course merge brought (the cell on disk is as a
    click left it, or a click removed it; for ``output-not-updated``, its outputs are as a
    click left them), not another tab's. ``by_id`` False: by the course cell's content."""
    from genviz_updates.notebooks import cell_hash
    from genviz_updates.seen import introduced, introduced_parts, output_hash

    if not by_id:
        return _course_items_by_content(items, merges, disk)
    brought = set().union(*(introduced(m) for m in merges)) if merges else set()
    outputs = {p for m in merges for p in introduced_parts(m) if p[0][0] == "o"}
    cells = {c.get("id"): c for c in disk.get("cells", [])}
    on_disk = {cid: cell_hash(c) for cid, c in cells.items()}
    gone = set().union(*({c[0] for c in m["before"]} - {c[0] for c in m["after"]}
                         for m in merges)) if merges else set()

    def course(i):
        cid = i.get("id")
        if i["kind"] in ("kept-deleted", "not-deleted"):
            return cid in gone
        if i["kind"] == "output-not-updated":
            return cid in cells and (("o", cid), output_hash(cells[cid])) in outputs
        return (cid, on_disk.get(cid)) in brought

    return [i for i in items if course(i)]


def _course_items_by_content(items, merges, disk):
    """:func:`_course_items` where ids cannot be used (an item has no id): the disk's cell of
    the item's course source is a version a click brought (for ``output-not-updated``, with
    the outputs it brought); a deletion, where a click removed a cell of that type."""
    from genviz_updates.notebooks import cell_hash, source
    from genviz_updates.seen import output_hash

    def union(sets):
        return set().union(*sets) if merges else set()

    brought = union({c[2] for c in m["after"]} - {c[2] for c in m["before"]} for m in merges)
    outputs = union({(c[2], c[3]) for c in m["after"]} - {(c[2], c[3]) for c in m["before"]}
                    for m in merges)
    removed = union({(c[1], c[2]) for c in m["before"]} - {(c[1], c[2]) for c in m["after"]}
                    for m in merges)

    def course(i):
        if i["kind"] in ("kept-deleted", "not-deleted"):
            return any(kind == i.get("cell_type") for kind, _ in removed)
        cells = [c for c in disk.get("cells", []) if c.get("cell_type") == i.get("cell_type")
                 and source(c) == i.get("course")]
        if i["kind"] == "output-not-updated":
            return any((cell_hash(c), output_hash(c)) in outputs for c in cells)
        return any(cell_hash(c) in brought for c in cells)

    return [i for i in items if course(i)]


#: what a save's merge tells: the tab's version of a cell kept over a course change to it
TOLD = ("kept-yours", "you-deleted", "kept-deleted", "output-not-updated")


def _merge_tab(cells, meta, content, disk, merges, top=None, rel=None):
    from genviz_updates.notebooks import merge_notebooks
    from genviz_updates.pairing import keyed_by_id
    from genviz_updates.seen import base_notebook

    by_id = keyed_by_id([c[0] for c in cells], content, disk)
    base = base_notebook(_cells(cells, by_id), content, disk, meta,
                         () if by_id else _older(top, rel, merges))
    merged = merge_notebooks(base, content, disk)
    items = [i for i in _missed(base, content, disk, merged, by_id) if i["kind"] in TOLD]
    return merged, _course_items(items, merges, disk, by_id)


def _older(top, rel, merges):
    """The notebook before each recorded merge, newest first (read lazily from git): where
    cells are paired by content, a base cell both sides changed since must have its text (by
    id, a placeholder that differs from both did; by content it paired with nothing, and the
    tab's old version of a cell the course fixed came out beside the fix, untold)."""
    from genviz_updates import git_object
    from genviz_updates.notebooks import read_notebook

    for m in reversed(merges if top else []):
        done = git_object(top, "-p", f"{m.get('merge')}^1:{rel}")
        if done.returncode == 0:
            try:
                yield read_notebook(done.stdout)
            except (ValueError, UnicodeDecodeError):
                continue


def _cells(snap, by_id):
    """A snapshot's cells for the base of a save's merge. Where ids cannot be used
    (``pairing.keyed_by_id``: the tab loaded cells without ids, or has other ids than the
    disk), their ids are left out: each base cell is found by its content (by id, one the
    disk has under that id with other content became a placeholder, which pairs with
    nothing), the base has no ids, so every cell is paired by content, and the merge's cells
    take the disk's ids where the disk has them, else the tab's, else new ones. Before, the
    save was merged by id and the tab's old version of a cell the course fixed was kept as
    an extra cell, unmarked and untold."""
    return snap if by_id else [[None] + list(c[1:]) for c in snap]


def _missed(base, content, disk, merged, by_id):
    """``missed_changes`` of a save's merge (by content where ids cannot be used)."""
    from genviz_updates.notebooks import missed_changes
    from genviz_updates.pairing import without_ids

    if by_id:
        return missed_changes(base, content, disk, merged)
    return missed_changes(base, content, without_ids(disk), without_ids(merged))


def _merge_stale(merges, content, disk, top=None, rel=None):
    """A save with no known token: merged against the merge the tab shows nothing of; what
    the merge kept that the tab lacks is kept *and* marked, with a note (it cannot tell)."""
    import copy

    from genviz_updates.notebooks import cell_hash, merge_notebooks
    from genviz_updates.seen import KEY, base_notebook, by_content, introduced, stale_since

    since = stale_since(merges, content.get("cells", []), content.get("metadata"))
    if since is None:
        return None
    tab = {c.get("id"): c for c in content.get("cells", [])}
    by_id = not by_content(merges, set(tab) - {None})
    base = base_notebook(_cells(since["before"], by_id), content, disk, since.get("before_meta"),
                         () if by_id else _older(top, rel, merges[merges.index(since):]))
    merged = merge_notebooks(base, content, disk)
    later = merges[merges.index(since):]
    brought = set().union(*(introduced(m) for m in later))
    if not by_id:  # the cells a merge brought, by content (what the tab's ids cannot say)
        brought = {(c.get("id"), cell_hash(c)) for c in merged["cells"]
                   if cell_hash(c) in {h for _, h in brought}}
    have_copy = {(c.get("metadata", {}).get(KEY) or {}).get("your_version_of"): cell_hash(c)
                 for c in merged["cells"]}
    if by_id:
        tab_of = {k: tab[c.get("id")] for k, c in enumerate(merged["cells"]) if c.get("id") in tab}
    else:  # the tab's cell of each merged cell, by content (the merge kept the disk's ids)
        from genviz_updates.pairing import align

        pairs = align(merged["cells"], content["cells"], range(len(merged["cells"])),
                      range(len(content["cells"])))
        tab_of = {k: content["cells"][j] for k, j in pairs.items()}
    cells, kept = [], 0
    for k, cell in enumerate(merged["cells"]):
        cells.append(cell)
        cid, mine = cell.get("id"), tab_of.get(k)
        if (cid, cell_hash(cell)) not in brought or (mine is not None and cell_hash(mine)
                                                     == cell_hash(cell)):
            continue
        kept += 1
        cell.setdefault("metadata", {})[KEY] = {"kept": "course update; your tab did not show it"}
        if cid and mine is not None and have_copy.get(cid) != cell_hash(mine):
            mine = copy.deepcopy(mine)  # the tab's version too: both kept
            mine["id"] = f"{cid[:40]}-yours-{cell_hash(mine)[:8]}"
            mine.setdefault("metadata", {})[KEY] = {"your_version_of": cid}
            cells.append(mine)
    if kept and not any(c.get("id") == NOTE_ID for c in cells):
        cells.insert(0, {"id": NOTE_ID, "cell_type": "markdown", "metadata": {KEY: {"note": True}},
                         "source": NOTE_TEXT})
    merged["cells"] = cells
    # told as after a tab with a token: a cell the tab ran whose stored output a course
    # merge changed (the tab's run is kept), a cell it deleted that a course merge changed
    ran = _course_items([i for i in _missed(base, content, disk, merged, by_id)
                         if i["kind"] in ("output-not-updated", "you-deleted")], later, disk,
                        by_id)
    if not kept:
        return merged, ran
    return merged, [{"kind": "kept-both", "id": NOTE_ID, "index": 1, "cell_type": "markdown",
                     "course": "", "first_line": "Course update"}] + ran


NOTE_TEXT = ("**Course update (genviz):** this notebook was saved from a browser tab that did "
             "not show the latest course update, so the cells the update brought were kept "
             "(marked `kept` in their metadata), and where the tab had an older version of a "
             "cell, that version is kept as well, right below it. If you had removed or "
             "reverted them on purpose: File > Reload Notebook from Disk, remove them again, "
             "save, and delete this note.")
