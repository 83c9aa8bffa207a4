"""One simulated student: a browser tab of JupyterLab on the hub, reduced to its messages.

Logs in (dummy authenticator: the login form), starts a server (the hub's REST API and its
progress stream, as the spawn-pending page does), opens JupyterLab (which completes the hub's
OAuth and sets the server's cookies), creates a notebook session (``/user/<name>/api/sessions``),
connects the kernel websocket through the proxy with the v1 subprotocol, runs every code cell,
plays genviz's explorer front end (:mod:`.protocol`), drags a kernel-path slider and then a
gridded one.
"""

from __future__ import annotations

import asyncio
import json
import time
import traceback
import uuid

import aiohttp

from .protocol import (WS_PROTOCOL, ExplorerFrontEnd, MoveLatency, comm_msg, make_msg, pack_ws,
                       unpack_ws)


class StudentError(Exception):
    """A failure with the stage it happened in (login, spawn, kernel, cell N, drag)."""

    def __init__(self, stage: str, reason: str):
        super().__init__(f"{stage}: {reason}")
        self.stage, self.reason = stage, reason


class Student:
    def __init__(self, base_url: str, name: str, notebook: str, *, slider: str | None = None,
                 log=print):
        self.base = base_url.rstrip("/")
        self.name = name
        self.notebook = notebook
        self.slider_name = slider
        self.log = log
        self.t = {}  # timings (s): spawn, kernel, run_all
        self.failure: StudentError | None = None
        self.session_id = uuid.uuid4().hex
        self.models: dict = {}  # comm_id -> widget state (jupyter.widget comms)
        self.explorers: dict = {}  # comm_id -> ExplorerFrontEnd
        self.latency = MoveLatency()
        self.slider_id: str | None = None  # the explorer's comm id
        self.control: str | None = None     # the kernel-path slider dragged
        self.grid_control: str | None = None
        self.control_start = None  # the kernel-path slider's first position (the grid's base)
        self.explorer_sends = 0  # custom messages sent to explorers (a gridded drag's count)
        self.grid_messages: int | None = None  # messages sent by one gridded drag
        self.ws = None
        self.http: aiohttp.ClientSession | None = None
        self._waiters: dict = {}  # msg_id -> Future resolved on (reply, idle)
        self._replies: dict = {}
        self._idle: set = set()
        self._reader: asyncio.Task | None = None
        self.last_activity = None
        self.messages_in = 0
        self.bytes_in = 0
        self.dragging = False
        self.drag_kinds: dict = {}  # message kind -> count, during the drag

    # -- HTTP -----------------------------------------------------------------------------
    def _xsrf(self, path="/") -> str:
        for c in self.http.cookie_jar:
            if c.key == "_xsrf" and path.startswith(c["path"] or "/"):
                return c.value
        return ""

    async def login(self) -> None:
        async with self.http.get(f"{self.base}/hub/login") as r:
            await r.read()
        data = {"username": self.name, "password": "x", "_xsrf": self._xsrf("/hub/")}
        async with self.http.post(f"{self.base}/hub/login?next=", data=data,
                                  allow_redirects=False) as r:
            if r.status not in (302, 303):
                raise StudentError("login", f"HTTP {r.status}: {(await r.text())[:200]}")

    async def spawn(self, timeout: float) -> None:
        t0 = time.monotonic()
        hdr = {"X-XSRFToken": self._xsrf("/hub/")}
        async with self.http.post(f"{self.base}/hub/api/users/{self.name}/server",
                                  headers=hdr, json={}) as r:
            if r.status not in (201, 202):
                raise StudentError("spawn", f"HTTP {r.status}: {(await r.text())[:300]}")
        if r.status == 202:
            await self._follow_progress(timeout - (time.monotonic() - t0))
        self.t["spawn"] = time.monotonic() - t0

    async def _follow_progress(self, timeout: float) -> None:
        url = f"{self.base}/hub/api/users/{self.name}/server/progress"
        last = ""
        try:
            async with asyncio.timeout(timeout):
                async with self.http.get(url) as r:
                    async for raw in r.content:
                        line = raw.decode().strip()
                        if not line.startswith("data:"):
                            continue
                        ev = json.loads(line[5:])
                        last = ev.get("message", last)
                        if ev.get("ready"):
                            return
                        if ev.get("failed"):
                            raise StudentError("spawn", last or "failed")
        except TimeoutError:
            raise StudentError("spawn", f"not ready after {timeout:.0f} s (last: {last})")
        raise StudentError("spawn", f"progress stream ended: {last}")

    async def open_lab(self) -> None:
        """GET /user/<name>/lab: the hub's OAuth round trip, then the page (sets _xsrf)."""
        async with self.http.get(f"{self.base}/user/{self.name}/lab") as r:
            await r.read()
            if r.status != 200:
                raise StudentError("kernel", f"JupyterLab page: HTTP {r.status}")

    async def _api(self, method, path, **kw):
        url = f"{self.base}/user/{self.name}/api/{path}"
        hdr = {"X-XSRFToken": self._xsrf(f"/user/{self.name}/")}
        async with self.http.request(method, url, headers=hdr, **kw) as r:
            body = await r.text()
            if r.status >= 400:
                raise StudentError("kernel", f"{method} {path}: HTTP {r.status}: {body[:300]}")
            return json.loads(body) if body else None

    # -- kernel websocket -------------------------------------------------------------------
    async def start_kernel(self, timeout: float) -> None:
        t0 = time.monotonic()
        sess = await self._api("POST", "sessions", json={
            "path": self.notebook, "name": self.notebook.rsplit("/", 1)[-1], "type": "notebook",
            "kernel": {"name": "python3"}})
        kid = sess["kernel"]["id"]
        ws_url = (f"{self.base.replace('http', 'ws', 1)}/user/{self.name}/api/kernels/{kid}"
                  f"/channels?session_id={self.session_id}")
        self.ws = await self.http.ws_connect(ws_url, protocols=[WS_PROTOCOL], max_msg_size=0,
                                             heartbeat=None)
        if self.ws.protocol != WS_PROTOCOL:
            raise StudentError("kernel", f"server chose websocket protocol {self.ws.protocol!r}")
        self._reader = asyncio.create_task(self._read())
        reply = await self.request("kernel_info_request", {}, timeout=timeout, channel="shell")
        if reply["content"].get("status") != "ok":
            raise StudentError("kernel", f"kernel_info: {reply['content']}")
        self.t["kernel"] = time.monotonic() - t0

    async def send(self, msg) -> None:
        self.last_activity = time.time()
        await self.ws.send_bytes(pack_ws(msg))

    async def request(self, msg_type, content, *, timeout, channel="shell"):
        msg = make_msg(msg_type, content, session=self.session_id, channel=channel)
        fut = asyncio.get_running_loop().create_future()
        self._waiters[msg["header"]["msg_id"]] = fut
        await self.send(msg)
        try:
            async with asyncio.timeout(timeout):
                return await fut
        finally:
            self._waiters.pop(msg["header"]["msg_id"], None)

    async def _read(self) -> None:
        try:
            async for wsmsg in self.ws:
                if wsmsg.type != aiohttp.WSMsgType.BINARY:
                    continue
                now = time.monotonic()
                self.messages_in += 1
                self.bytes_in += len(wsmsg.data)
                msg = unpack_ws(wsmsg.data)
                if self.dragging:
                    k = message_kind(msg, self.explorers)
                    self.drag_kinds[k] = self.drag_kinds.get(k, 0) + 1
                await self._dispatch(msg, now)
        except Exception as exc:  # noqa: BLE001 - reported as the student's failure
            if self.failure is None:
                self.failure = StudentError("websocket", f"{type(exc).__name__}: {exc}")
        finally:
            for fut in self._waiters.values():
                if not fut.done():
                    fut.set_exception(StudentError("websocket", "connection closed"))

    async def _dispatch(self, msg, now) -> None:
        parent = msg["parent_header"].get("msg_id")
        kind = msg["msg_type"]
        content = msg["content"]
        if msg["channel"] == "shell" and kind.endswith("_reply"):
            self._replies[parent] = msg
            self._settle(parent)
        elif kind == "status" and content.get("execution_state") == "idle":
            self._idle.add(parent)
            self._settle(parent)
        elif kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            state = content.get("data", {}).get("state", {})
            self.models[content["comm_id"]] = state
            if state.get("_model_name") == "AnyModel" and "spec" in state:
                fe = self.explorers[content["comm_id"]] = ExplorerFrontEnd(
                    state, buffer_paths=content.get("data", {}).get("buffer_paths", []),
                    buffers=msg["buffers"])
                for data in fe.opened():
                    await self._send_explorer(content["comm_id"], data)
        elif kind == "comm_msg":
            cid = content.get("comm_id")
            data = content.get("data", {})
            if cid in self.explorers:
                fe = self.explorers[cid]
                before = fe.frames
                outs = fe.on_message(data, msg["buffers"])
                if fe.frames > before:
                    self.latency.frame(parent, now)
                for out in outs:
                    await self._send_explorer(cid, out)
            if cid in self.models and isinstance(data, dict) and data.get("method") in (
                    "update", "echo_update"):
                self.models[cid].update(data.get("state", {}))

    def _settle(self, msg_id) -> None:
        fut = self._waiters.get(msg_id)
        if fut is None or fut.done():
            return
        reply = self._replies.get(msg_id)
        if reply is not None and msg_id in self._idle:
            fut.set_result(reply)
            self._replies.pop(msg_id, None)
            self._idle.discard(msg_id)

    async def run_all(self, timeout: float) -> None:
        t0 = time.monotonic()
        nb = await self._api("GET", f"contents/{self.notebook}?content=1")
        cells = [c for c in nb["content"]["cells"] if c["cell_type"] == "code"]
        for i, cell in enumerate(cells):
            src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            left = timeout - (time.monotonic() - t0)
            try:
                reply = await self.request("execute_request", {
                    "code": src, "silent": False, "store_history": True,
                    "user_expressions": {}, "allow_stdin": False, "stop_on_error": True},
                    timeout=max(left, 1))
            except TimeoutError:
                raise StudentError(f"cell {i}", f"no reply within the run-all budget "
                                                f"({timeout:.0f} s)")
            c = reply["content"]
            if c.get("status") != "ok":
                raise StudentError(f"cell {i}", f"{c.get('ename')}: {c.get('evalue')}")
        self.t["run_all"] = time.monotonic() - t0

    # -- the slider -------------------------------------------------------------------------
    def pick_slider(self) -> dict:
        """The explorer and its kernel-path slider to drag (``--slider``: by label; default
        the first slider whose states are not precomputed), and a gridded slider."""
        for cid, fe in self.explorers.items():
            sliders = [c for c in fe.spec.get("controls", []) if c["kind"] == "slider"]
            kernel = [c for c in sliders if not c["grid"]]
            if self.slider_name:
                kernel = [c for c in sliders if c["label"] == self.slider_name]
            if kernel:
                self.slider_id, self.control = cid, kernel[0]["name"]
                self.control_start = fe.values.get(self.control)
                grid = [c for c in sliders if c["grid"]]
                self.grid_control = grid[0]["name"] if grid else None
                c = kernel[0]
                return {"min": 0, "max": c["n"], "step": 1, "value": fe.values[c["name"]],
                        "_model_name": "IntSliderModel"}
        raise StudentError("drag", f"no explorer slider"
                                   f"{f' {self.slider_name!r}' if self.slider_name else ''}"
                                   f" among {len(self.explorers)} explorers")

    async def wait_first_frame(self, timeout: float) -> None:
        try:
            async with asyncio.timeout(timeout):
                while not any(fe.frames for fe in self.explorers.values()):
                    await asyncio.sleep(0.05)
        except TimeoutError:
            raise StudentError("drag", f"no explorer frame within {timeout:.0f} s of run-all")

    async def _send_explorer(self, cid: str, data: dict) -> None:
        msg = comm_msg(cid, data, session=self.session_id)
        self.explorer_sends += 1
        content = data.get("content", {})
        if content.get("type") == "update" and content.get("frame") and cid == self.slider_id:
            self.latency.carried(msg["header"]["msg_id"], len(self.latency.moves) - 1)
        await self.send(msg)

    async def drag(self, values, interval: float, settle: float = 10.0) -> None:
        """Move the kernel-path slider through ``values``, one every ``interval`` s (lecture
        pace), then wait up to ``settle`` s for the last frames; then drag the gridded slider
        as far (drawn locally: messages counted)."""
        fe = self.explorers[self.slider_id]
        t_next = time.monotonic()
        self.dragging = True
        for v in values:
            t_next += interval
            self.latency.moved(time.monotonic())
            for out in fe.move(self.control, v):
                await self._send_explorer(self.slider_id, out)
            await asyncio.sleep(max(0.0, t_next - time.monotonic()))
        try:
            async with asyncio.timeout(settle):
                while self.latency.unanswered() or fe.in_flight:
                    await asyncio.sleep(0.02)
        except TimeoutError:
            pass
        if self.grid_control is not None:
            # the kernel-path slider back where it started (where the grid was built, its
            # base): explorer.js draws a gridded move only where the grid covers the values
            if self.control_start is not None and fe.values.get(self.control) != self.control_start:
                for out in fe.move(self.control, self.control_start):
                    await self._send_explorer(self.slider_id, out)
                try:
                    async with asyncio.timeout(settle):
                        while fe.in_flight or fe.pending:
                            await asyncio.sleep(0.02)
                except TimeoutError:
                    pass
            n = fe.control(self.grid_control)["n"]
            before = self.explorer_sends  # the kernel's answers' follow-ups counted too
            for k in range(len(values)):
                for out in fe.grid_move(self.grid_control, k % (n + 1)):
                    await self._send_explorer(self.slider_id, out)  # not covered: the kernel
                await asyncio.sleep(interval)
            for out in fe.grid_release():
                await self._send_explorer(self.slider_id, out)
            try:  # moves the kernel drew: their buffered follow-ups count too
                async with asyncio.timeout(settle):
                    while fe.in_flight or fe.pending:
                        await asyncio.sleep(0.02)
            except TimeoutError:
                pass
            self.grid_messages = self.explorer_sends - before
        self.dragging = False

    async def close_tab(self) -> None:
        """Close the websocket as a closed browser tab does (the kernel keeps running)."""
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            try:
                async with asyncio.timeout(5):
                    await self._reader
            except (TimeoutError, Exception):  # noqa: BLE001
                self._reader.cancel()
        self.last_activity = time.time()

    async def server_running(self) -> bool:
        async with self.http.get(f"{self.base}/hub/api/user") as r:
            if r.status != 200:
                return False
            info = await r.json()
        return bool(info.get("servers", {}).get(""))


def message_kind(msg: dict, explorers) -> str:
    """A short name for a message from the kernel: ``status:busy``, ``comm_msg:echo_update``,
    ``explorer:frame`` (a state update with a recorded frame), ``explorer:update`` ..."""
    kind = msg["msg_type"]
    c = msg["content"]
    if kind == "status":
        return f"status:{c.get('execution_state')}"
    if kind == "comm_msg":
        data = c.get("data", {})
        if c.get("comm_id") in explorers and data.get("method") == "update":
            paths = [tuple(p) for p in data.get("buffer_paths", [])]
            return "explorer:frame" if ("frame",) in paths else "explorer:update"
        return f"comm_msg:{data.get('method')}"
    return kind


def slider_values(state: dict, n: int) -> list:
    """``n`` slider positions a student's drag passes through: steps of 4 slider steps from
    the start value, turning at the ends (every move changes the value)."""
    lo, hi = float(state["min"]), float(state["max"])
    step = float(state.get("step") or (hi - lo) / 100) * 4
    v, direction, out = float(state["value"]), 1, []
    for _ in range(n):
        if not lo <= v + direction * step <= hi:
            direction = -direction
        v = round(v + direction * step, 10)
        out.append(int(v) if state.get("_model_name") == "IntSliderModel" else v)
    return out


def describe_exc(exc: BaseException) -> str:
    if isinstance(exc, StudentError):
        return str(exc)
    stage = getattr(exc, "stage", None)
    if stage:
        return f"{stage}: {type(exc).__name__}: {exc}"
    return f"{type(exc).__name__}: {exc} ({traceback.format_exc(limit=2).splitlines()[-1]})"
