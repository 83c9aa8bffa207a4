"""The lecture page under load (issue #37): N phones join a lecture through the hub's login and
the poll service's OAuth, load the page, and vote within 10 s -- no single-user server.

    python benchmarks/bench_lecture.py                       # N = 30 100 300 -> benchmarks/lecture.md
    python benchmarks/bench_lecture.py --n 300 --out /tmp/lecture.md

The hub is started as ``make hub`` starts it (deploy/run_hub.py via tests/hub_testing.py's
TrialHub: free 127.0.0.1 ports, a temporary state directory, stopped by PID at the end), with
the course's lecture bundle (``--bundle``, default ``build/lecture_bundle.json``) copied to
the service's state directory. Every request goes through the hub's proxy
(configurable-http-proxy), as a phone's would.

A phone is an aiohttp session with its own cookie jar, starting at a random moment within
``--within`` s (seeded) of the lecturer opening the question's first vote:

1. opens ``/services/genviz-poll/lecture/`` (``Sec-Fetch-Mode: navigate``): redirected to the
   hub's OAuth authorize, then to the hub's login page; logs in there (the trial hub's dummy
   login: user name, the page's ``_xsrf``), is redirected through authorize to the service's
   ``oauth_callback`` and back to the page;
2. reads the page's XSRF token and fetches the state (``lecture/api/state``): *join* is from
   step 1 to this answer (login -> page drawn, without a browser's rendering time);
3. loads the question's explorer as the page does when the bundle has one
   (``lecture/api/explorer/<id>`` and explorer.js/css, cold, gzip as sent);
4. votes (``POST lecture/api/vote``, 10 % change their mind 0.5-2 s later), then follows the
   lecture by long poll until the phase ends.

``--returning``: the phones logged in before the lecture (a student who joined once keeps
the service's cookie; untimed, 4 at a time), so the timed phase is the page with the cookie,
the state and the vote -- the hub is asked nothing new (the service's HubOAuth keeps a token's
owner for 5 min; after that it asks the hub's ``/hub/api/user`` once per phone).
``--existing-users``: the hub knows the users already (a class list), the login is timed.

*Bytes per phone* are the bytes of the response bodies as sent (``Accept-Encoding: gzip``,
not decompressed by the client), the hub's login page included; request and header bytes are
not counted. Beside the phones, in the same run, ``--kernels`` (20) students vote the way a
kernel does (``POST api/votes`` with a hub token of the service's scope, minted by the admin;
no kernel is started, so this is the service's side of a kernel vote, not a kernel's cost).
``--real-kernels`` (e.g. 20) adds, in the first phase, students who vote as they did before the
lecture page: each logs in, has the hub spawn a single-user server, opens JupyterLab (the
server's OAuth) and starts a kernel (benchmarks/class_bench/student.py, JupyterLab's messages
without a browser), and the kernel sends the vote through the prediction boxes' hook
(``genviz.widgets.room.send_stage``); their *vote -> chart* runs from the execute request to
the first chart answer sent after it with enough voters (a kernel's acknowledgement, the execute
reply, reaches the client after the chart's answer does). Reported beside the table: login -> kernel ready, vote -> chart by who voted, and
the servers' and kernels' CPU and PSS at the end of the phase.

*Vote -> chart* is, as in bench_votes.py, the time from sending a vote to the first answer of
the lecturer's long poll (``api/questions/<q>?since=&wait=20``) received after the vote was
acknowledged whose number of voters includes it. Every vote is checked counted at the end
(the lecturer's final counts against each voter's last vote). CPU (``utime + stime``) of the
hub, the proxy and the service over the phase; their PSS sampled every 0.25 s (peak). Servers
started: the hub's ``/hub/api/users`` (any user with a server) and the processes below the hub
whose command line is ``jupyterhub-singleuser``, both at the end of each phase.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import gzip
import json
import os
import platform
import random
import re
import shutil
import sys
import time
from pathlib import Path
from urllib.parse import urljoin

import aiohttp
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_votes import (cpu_s, lecturer_chart, load_arguments, percentile,  # noqa: E402
                         poll_tokens, pss_mb, run_and_append)
from class_bench.student import Student, describe_exc  # noqa: E402
from hub_testing import TrialHub  # noqa: E402

NAV = {"Sec-Fetch-Mode": "navigate", "Accept-Encoding": "gzip"}
#: what a real kernel runs to vote (``--real-kernels``): the prediction boxes' hook on the hub
KERNEL_VOTE = """\
from genviz.widgets import room
_sent = room.send_stage({qid!r}, "vote1", {option})
assert _sent is not None, "not on the hub: no GENVIZ_POLL_URL or JUPYTERHUB_API_TOKEN"
_outcome = _sent.result(timeout=50)
assert _outcome.ok, f"{{_outcome.status}} {{_outcome.message}}"
"""
FETCH = {"Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin", "Accept-Encoding": "gzip"}


class PhoneError(Exception):
    pass


def _text(body: bytes, headers) -> str:
    if headers.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    return body.decode("utf-8", "replace")


class Phone:
    def __init__(self, base: str, name: str):
        self.base, self.name = base, name
        self.page = f"{base}/services/genviz-poll/lecture/"
        self.bytes = 0
        self.requests = 0
        self.xsrf = None
        self.http: aiohttp.ClientSession | None = None
        self.explorer_loaded = False

    async def _get(self, url, headers):
        async with self.http.get(url, headers=headers, allow_redirects=False) as r:
            body = await r.read()
            self.bytes += len(body)
            self.requests += 1
            return r.status, r.headers, body, str(r.url)

    def _cookie(self, key):
        for c in self.http.cookie_jar:
            if c.key == key:
                return c.value
        return None

    async def join(self) -> None:
        """Login -> page -> first state; raises PhoneError naming the stage."""
        url = self.page
        for _ in range(12):
            status, headers, body, at = await self._get(url, NAV)
            if status in (301, 302, 303):
                url = urljoin(at, headers["Location"])
                continue
            if status != 200:
                raise PhoneError(f"GET {url[:80]}: HTTP {status}")
            if "/hub/login" in at:  # the hub's own login page: log in, then follow `next`
                data = {"username": self.name, "password": "x", "_xsrf": self._cookie("_xsrf")}
                async with self.http.post(at, data=data, headers=NAV,
                                          allow_redirects=False) as r:
                    self.bytes += len(await r.read())
                    self.requests += 1
                    if r.status not in (302, 303):
                        raise PhoneError(f"login: HTTP {r.status}")
                    url = urljoin(at, r.headers["Location"])
                continue
            text = _text(body, headers)
            m = re.search(r'<meta name="xsrf" content="([^"]+)"', text)
            if not m:
                raise PhoneError(f"no lecture page at {at[:80]}")
            self.xsrf = m.group(1)
            break
        else:
            raise PhoneError("too many redirects")
        self.state = await self.get_state()

    async def get_state(self, since=None, wait=0):
        query = "" if since is None else f"?since={since}&wait={wait}"
        async with self.http.get(self.page + "api/state" + query,
                                 headers={**FETCH, "X-XSRFToken": self.xsrf},
                                 timeout=aiohttp.ClientTimeout(total=wait + 30)) as r:
            body = await r.read()
            self.bytes += len(body)
            self.requests += 1
            if r.status != 200:
                raise PhoneError(f"state: HTTP {r.status}")
            return json.loads(_text(body, r.headers))

    async def load_explorer(self) -> None:
        """What the page fetches when it shows a question with an explorer: the explorer (its
        own resource) and, once, explorer.js + explorer.css -- as a cold phone, compressed."""
        q = (self.state or {}).get("question") or {}
        if not q.get("explorer"):
            return
        # a phone asks for its own layout (the page's lecture.js: narrow below 600 px)
        urls = [self.page + f"api/explorer/{q['id']}?v={q['explorer']}&layout=narrow"]
        if q.get("explorer_module"):
            js, css = q["explorer_module"]
            urls += [self.page + f"static/explorer.js?v={js}",
                     self.page + f"static/explorer.css?v={css}"]
        for url in urls:
            async with self.http.get(url, headers={**FETCH, "X-XSRFToken": self.xsrf}) as r:
                body = await r.read()
                self.bytes += len(body)
                self.requests += 1
                if r.status != 200:
                    raise PhoneError(f"explorer: HTTP {r.status} for {url[-60:]}")
        self.explorer_loaded = True

    async def vote(self, qid, rnd, option):
        async with self.http.post(self.page + "api/vote", json={
                "question": qid, "round": rnd, "option": option},
                headers={**FETCH, "X-XSRFToken": self.xsrf}) as r:
            body = await r.read()
            self.bytes += len(body)
            self.requests += 1
            if r.status != 200:
                raise PhoneError(f"vote: HTTP {r.status} {body[:120]!r}")


class Bench:
    def __init__(self, hub: TrialHub, admin: str):
        self.hub, self.admin = hub, admin
        # the lecturer's kernel and the students' kernels reach the service directly
        # (GENVIZ_POLL_URL: its own port); phones go through the hub's proxy
        self.poll = f"http://127.0.0.1:{hub.port + 3}/services/genviz-poll/"
        procs = {p: " ".join(psutil.Process(p).cmdline()) for p in hub.processes()}
        self.service_pid = next(p for p, c in procs.items() if "genviz_poll.py" in c)
        self.proxy_pids = [p for p, c in procs.items() if "configurable-http-proxy" in c]
        self.hub_pid = hub.hub_pid()

    def pids(self):
        return {"hub": [self.hub_pid], "proxy": self.proxy_pids, "service": [self.service_pid]}

    async def kernel_tokens(self, http, prefix, n):
        return await poll_tokens(http, self.hub.base, self.admin, prefix, n, note="bench",
                                 concurrency=1)

    async def create_users(self, http, names):
        """The class list, as a hub has it after the first week (``--existing-users``)."""
        hdr = {"Authorization": f"token {self.admin}"}
        for i in range(0, len(names), 100):
            async with http.post(f"{self.hub.base}/hub/api/users", headers=hdr,
                                 json={"usernames": names[i:i + 100]}) as r:
                assert r.status in (201, 409), await r.text()

    async def servers_started(self, http):
        async with http.get(f"{self.hub.base}/hub/api/users",
                            headers={"Authorization": f"token {self.admin}"}) as r:
            users = await r.json()
        by_api = sum(1 for u in users if u.get("servers") or u.get("server"))
        procs = 0
        for pid in self.hub.processes():
            try:
                if "jupyterhub-singleuser" in " ".join(psutil.Process(pid).cmdline()):
                    procs += 1
            except psutil.Error:
                pass
        return by_api, procs

    def student_processes(self) -> dict:
        """The single-user servers and the kernels below the hub: {"server": pids, "kernel": pids}."""
        found = {"server": [], "kernel": []}
        for pid in self.hub.processes():
            try:
                cmd = " ".join(psutil.Process(pid).cmdline())
            except psutil.Error:
                continue
            if "jupyterhub-singleuser" in cmd:
                found["server"].append(pid)
            elif "ipykernel" in cmd:
                found["kernel"].append(pid)
        return found

    async def phase(self, n, n_kernels, qid, options, within, seed, existing_users=False,
                    returning=False, observe=False, real_kernels=0):
        rng = random.Random(seed)
        hdr = {"Authorization": f"token {self.admin}"}
        warm: dict = {}  # returning phones: logged in before the lecture (not timed)
        async with aiohttp.ClientSession() as http:
            ktokens = await self.kernel_tokens(http, f"k{n}-", n_kernels) if n_kernels else {}
            if existing_users or returning:
                await self.create_users(http, [f"p{n}-{i:03d}" for i in range(n)])
            if returning:
                sem = asyncio.Semaphore(4)

                async def warm_up(i):
                    async with sem:
                        p = Phone(self.hub.base, f"p{n}-{i:03d}")
                        p.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                                       auto_decompress=False)
                        await p.join()
                        warm[i] = p

                await asyncio.gather(*(warm_up(i) for i in range(n)))
            async with http.put(f"{self.poll}api/questions/{qid}", headers=hdr,
                                json={"options": options, "open": 1, "revealed": False}) as r:
                assert r.status == 200, await r.text()
            stop = asyncio.Event()
            seen: list = []
            pss = {k: [] for k in self.pids()}
            cpu0 = {k: sum(cpu_s(p) for p in v) for k, v in self.pids().items()}

            async def sample():
                while not stop.is_set():
                    for k, v in self.pids().items():
                        pss[k].append(sum(pss_mb(p) for p in v))
                    try:
                        await asyncio.wait_for(stop.wait(), 0.25)
                    except asyncio.TimeoutError:
                        pass

            acks: list = []   # (t_sent, t_ack, who): who is "phone", "token" or "kernel"
            kjoins: list = []  # real kernels: login -> server spawned -> kernel ready (s)
            observing, observed, t_observe = asyncio.Event(), [], [0.0]
            last: dict = {}   # voter -> last option
            joins, bytes_, reqs, errors = [], [], [], []
            t_start = time.monotonic()

            async def phone(i):
                await asyncio.sleep(rng.uniform(0, within))
                p = warm.get(i) or Phone(self.hub.base, f"p{n}-{i:03d}")
                p.bytes = p.requests = 0
                jar = aiohttp.CookieJar(unsafe=True)
                async with (p.http or aiohttp.ClientSession(cookie_jar=jar,
                                                            auto_decompress=False)) as s:
                    p.http = s
                    t0 = time.monotonic()
                    try:
                        await p.join()
                        joins.append(time.monotonic() - t0)
                        await p.load_explorer()  # the page shows the question's explorer
                        option = rng.randrange(options)
                        t = time.monotonic()
                        await p.vote(qid, 1, option)
                        acks.append((t, time.monotonic(), "phone"))
                        last[p.name] = option
                        if rng.random() < 0.1:
                            await asyncio.sleep(rng.uniform(0.5, 2.0))
                            option = (option + 1) % options
                            await p.vote(qid, 1, option)
                            last[p.name] = option
                        version = p.state["version"]
                        while not stop.is_set():  # follow the lecture, as the page does
                            try:
                                st = await asyncio.wait_for(p.get_state(version, 20), 25)
                                version = st["version"]
                            except asyncio.TimeoutError:
                                continue
                            if observing.is_set() and not p.explorer_loaded:
                                # the observation round: the page shows the explorer now
                                p.state = st
                                await p.load_explorer()
                                if p.explorer_loaded:
                                    observed.append(time.monotonic() - t_observe[0])
                    except (PhoneError, aiohttp.ClientError, asyncio.TimeoutError) as e:
                        errors.append(f"{p.name}: {e}")
                    except asyncio.CancelledError:
                        pass
                    finally:
                        bytes_.append(p.bytes)
                        reqs.append(p.requests)

            async def kernel(name, token):
                await asyncio.sleep(rng.uniform(0, within))
                option = rng.randrange(options)
                t = time.monotonic()
                async with http.post(f"{self.poll}api/votes", json={
                        "question": qid, "option": option, "round": 1},
                        headers={"Authorization": f"token {token}"}) as r:
                    if r.status == 200:
                        acks.append((t, time.monotonic(), "token"))
                        last[name] = option
                    else:
                        errors.append(f"{name}: HTTP {r.status}")

            async def real_kernel(i):
                # a student as today: the hub's login, a single-user server spawned, JupyterLab
                # opened (the server's OAuth), a kernel started through the server's sessions
                # API and its websocket, then the vote sent BY THE KERNEL, as a committed
                # prediction box sends it (genviz.widgets.room.send_stage, the boxes' hook)
                await asyncio.sleep(rng.uniform(0, within))
                name = f"r{n}-{i:03d}"
                option = rng.randrange(options)
                async with aiohttp.ClientSession(
                        cookie_jar=aiohttp.CookieJar(unsafe=True),
                        timeout=aiohttp.ClientTimeout(total=None, sock_connect=30)) as s:
                    st = Student(self.hub.base, name, "vote.ipynb", log=lambda *a: None)
                    st.http = s
                    t0 = time.monotonic()
                    try:
                        await st.login()
                        await st.spawn(240)
                        await st.open_lab()
                        await st.start_kernel(120)
                        # the notebook's first cells ran before the student commits: the vote
                        # below is timed from the press, not from the import of genviz
                        await st.request("execute_request", {
                            "code": "from genviz.widgets import room", "silent": False,
                            "store_history": False, "user_expressions": {},
                            "allow_stdin": False, "stop_on_error": True}, timeout=120)
                        kjoins.append(time.monotonic() - t0)
                        t = time.monotonic()
                        reply = await st.request("execute_request", {
                            "code": KERNEL_VOTE.format(qid=qid, option=option), "silent": False,
                            "store_history": False, "user_expressions": {},
                            "allow_stdin": False, "stop_on_error": True}, timeout=60)
                        c = reply["content"]
                        if c.get("status") == "ok":
                            acks.append((t, time.monotonic(), "kernel"))
                            last[name] = option
                        else:
                            errors.append(f"{name}: {c.get('ename')}: {c.get('evalue')}")
                    except Exception as e:  # noqa: BLE001 - every failure is reported
                        errors.append(f"{name}: {describe_exc(e)}")
                    finally:
                        await st.close_tab()

            bg = [asyncio.create_task(sample()), asyncio.create_task(
                lecturer_chart(http, self.poll, self.admin, qid, "long poll", seen, stop))]
            phones = [asyncio.create_task(phone(i)) for i in range(n)]
            kernels = [asyncio.create_task(kernel(k, t)) for k, t in ktokens.items()]
            kernels += [asyncio.create_task(real_kernel(i)) for i in range(real_kernels)]
            # spawning servers on 2 cores takes minutes, not seconds (benchmarks/class.md)
            deadline = t_start + within + (300 if real_kernels else 60)
            while time.monotonic() < deadline and (
                    len(acks) < n + len(ktokens) + real_kernels - len(errors)):
                await asyncio.sleep(0.2)
            await asyncio.sleep(2.5)  # the 10 % who change their mind, and the chart's last answer
            if observe:
                # the lecturer opens the observation round: every phone that joined fetches the
                # question's explorer (its states) at once -- the hall's Wi-Fi's worst moment
                t_observe[0] = time.monotonic()
                observing.set()
                async with http.put(f"{self.poll}api/questions/{qid}", headers=hdr,
                                    json={"options": options, "open": "observation",
                                          "revealed": False}) as r:
                    assert r.status == 200, await r.text()
                end = time.monotonic() + 60
                while time.monotonic() < end and len(observed) < len(joins) - len(errors):
                    await asyncio.sleep(0.2)
            wall = time.monotonic() - t_start
            stop.set()
            cpu1 = {k: sum(cpu_s(p) for p in v) for k, v in self.pids().items()}
            for t in phones:
                t.cancel()
            await asyncio.gather(*phones, *kernels, return_exceptions=True)
            await asyncio.gather(*bg, return_exceptions=True)
            async with http.get(f"{self.poll}api/questions/{qid}", headers=hdr) as r:
                final = await r.json()
            servers_api, servers_procs = await self.servers_started(http)
            students = self.student_processes()
            kernel_side = {
                "cpu": {k: sum(cpu_s(p) for p in v) for k, v in students.items()},
                "pss": {k: sum(pss_mb(p) for p in v) for k, v in students.items()},
                "procs": {k: len(v) for k, v in students.items()}}
        # vote -> chart: the r-th acknowledged voter appears in an answer with >= r voters
        acks.sort(key=lambda a: a[1])
        lat, by_who = [], {}
        for r_, (t_sent, t_ack, who) in enumerate(acks, start=1):
            # a kernel's acknowledgement (the execute reply, after the kernel went idle) comes
            # back later than the service's answer to the lecturer: from the send, for those
            since = t_sent if who == "kernel" else t_ack
            hit = next((t for t, v in seen if t >= since and v >= r_), None)
            if hit is not None:
                lat.append(hit - t_sent)
                by_who.setdefault(who, []).append(hit - t_sent)
        expected = [0] * options
        for opt in last.values():
            expected[opt] += 1
        return {"n": n, "kernels": len(ktokens), "joined": len(joins), "errors": errors[:5],
                "existing_users": existing_users, "returning": returning,
                "phase_s": within + 60,
                "n_errors": len(errors), "voted": len(last),
                "counted": final["counts"]["1"] == expected and final["voters"]["1"] == len(last),
                "join_p50": percentile(joins, 50), "join_p95": percentile(joins, 95),
                "join_max": max(joins, default=float("nan")),
                "chart_p50": percentile(lat, 50), "chart_p95": percentile(lat, 95),
                "chart_n": len(lat),
                "bytes_p50": percentile(bytes_, 50), "bytes_max": max(bytes_, default=0),
                "requests_p50": percentile(reqs, 50), "wall": wall,
                "cpu": {k: cpu1[k] - cpu0[k] for k in cpu0},
                "pss_peak": {k: max(v, default=float("nan")) for k, v in pss.items()},
                "servers_api": servers_api, "servers_procs": servers_procs,
                "observe": observe, "observed": len(observed),
                "real_kernels": real_kernels, "kernel_joined": len(kjoins),
                "kernel_join_p50": percentile(kjoins, 50), "kernel_join_p95": percentile(kjoins, 95),
                "kernel_join_max": max(kjoins, default=float("nan")),
                "chart_by_who": {k: {"n": len(v), "p50": percentile(v, 50),
                                     "p95": percentile(v, 95)} for k, v in by_who.items()},
                "kernel_side": kernel_side,
                "observe_p50": percentile(observed, 50), "observe_p95": percentile(observed, 95)}


def _row(r):
    cpu, pss = r["cpu"], r["pss_peak"]
    kind = (" (returning phones)" if r.get("returning") else
            " (users exist)" if r.get("existing_users") else "")
    return (f"| {r['n']} + {r['kernels']}{kind}"
            f" | {r['joined']}/{r['n']} | {r['n_errors']} | "
            f"{'yes' if r['counted'] else '**no**'} | {r['join_p50']:.2f} / {r['join_p95']:.2f} / "
            f"{r['join_max']:.2f} | {r['chart_p50'] * 1000:.0f} / {r['chart_p95'] * 1000:.0f} | "
            f"{r['bytes_p50'] / 1024:.1f} ({r['requests_p50']:.0f} req) | "
            f"{cpu['hub']:.1f} / {cpu['proxy']:.1f} / {cpu['service']:.1f} | "
            f"{pss['hub']:.0f} / {pss['proxy']:.0f} / {pss['service']:.0f} | "
            f"{r['servers_api']} / {r['servers_procs']} |" + (
                f" {r['observed']}/{r['joined']}: {r['observe_p50']:.2f} / "
                f"{r['observe_p95']:.2f} |" if r.get("observe") else " - |"))


def report(results, *, started, load, page) -> str:
    lines = [f"## Run of {started} UTC ({platform.node()}, {os.cpu_count()} cores, load "
             f"{load[0]:.1f} -> {load[1]:.1f})", "",
             f"Lecture page cold (the HTML, everything inline): {page['raw']} bytes, "
             f"{page['gz']} bytes gzip-compressed as sent.", "",
             "*joined*: phones whose page was drawn before the phase ended (the 10 s of "
             "arrivals + 60 s); the others were still logging in and are not errors. *every "
             "vote counted*: of the votes made. *observation* (`--observe`): after the votes "
             "the lecturer opens the observation round and every phone that joined fetches the "
             "question's explorer in its narrow layout, from the lecturer's click to the last "
             "byte; *bytes per phone* then include it.", "",
             "| phones + kernel votes | joined | errors | every vote counted | join p50 / p95 / "
             "max (s) | vote -> chart p50 / p95 (ms) | bytes per phone, p50 (compressed) | "
             "CPU s hub / proxy / service | PSS peak MB hub / proxy / service | servers started "
             "(API / processes) | observation: explorer loaded, p50 / p95 (s) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    lines += [_row(r) for r in results]
    for r in results:
        if not r.get("real_kernels"):
            continue
        who = r["chart_by_who"]
        side = r["kernel_side"]
        lines += ["", f"**{r['real_kernels']} students from kernels, as today, in the same run "
                  f"as the {r['n']} phones** (`--real-kernels`): each logs in, the hub spawns "
                  "a single-user server, JupyterLab opens, a kernel starts, and the kernel "
                  "sends the vote (`room.send_stage`, the prediction boxes' hook). "
                  f"{r['kernel_joined']}/{r['real_kernels']} reached a kernel; login -> kernel "
                  f"ready (genviz imported) p50 {r['kernel_join_p50']:.1f} s / p95 {r['kernel_join_p95']:.1f} s / "
                  f"max {r['kernel_join_max']:.1f} s. Vote -> chart by who voted (p50 / p95 ms): "
                  + ", ".join(f"{k} {v['p50'] * 1000:.0f} / {v['p95'] * 1000:.0f} (n = {v['n']})"
                              for k, v in sorted(who.items()))
                  + f". Their processes at the end: {side['procs']['server']} servers, "
                  f"{side['procs']['kernel']} kernels, CPU {side['cpu']['server']:.1f} s "
                  f"(servers) + {side['cpu']['kernel']:.1f} s (kernels), PSS "
                  f"{side['pss']['server']:.0f} + {side['pss']['kernel']:.0f} MB. The servers "
                  "column above counts theirs: the phones started none."]
    errs = [e for r in results for e in r["errors"]]
    if errs:
        lines += ["", "First errors: " + "; ".join(errs[:5])]
    return "\n".join(lines) + "\n"


async def run(args) -> str:
    hub = TrialHub()
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    load0 = os.getloadavg()
    results = []
    bundle = Path(args.bundle)
    try:
        (hub.state / "poll").mkdir(parents=True, exist_ok=True)
        if bundle.is_file():
            shutil.copy(bundle, hub.state / "poll" / "lecture_bundle.json")
        else:
            print(f"no bundle at {bundle}: the page shows questions by their letters")
        hub.start()
        admin = hub.user_token("instructor")
        bench = Bench(hub, admin)
        questions = json.loads(bundle.read_text())["questions"] if bundle.is_file() else {}
        if args.question is not None:
            if args.question not in questions:
                raise SystemExit(f"--question {args.question!r} is not in the bundle {bundle}")
            qid, q = args.question, questions[args.question]
        else:
            qid, q = next(iter(questions.items()), ("bench-q", {"options": [0, 1, 2, 3]}))
        for i, n in enumerate(args.n):
            r = await bench.phase(n, args.kernels, f"{qid}" if i == 0 else f"{qid}-{n}",
                                  len(q["options"]) if i == 0 else 4, args.within,
                                  seed=args.seed + n, existing_users=args.existing_users,
                                  returning=args.returning, observe=args.observe,
                                  real_kernels=args.real_kernels if i == 0 else 0)
            results.append(r)
            print(_row(r), flush=True)
        # the page's weight, cold: one phone's page request, compressed and not
        page = {"raw": 0, "gz": 0}
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                         auto_decompress=False) as s:
            p = Phone(hub.base, "weigh")
            p.http = s
            await p.join()
            async with s.get(p.page, headers=NAV) as r:
                body = await r.read()
                page = {"gz": len(body), "raw": len(_text(body, r.headers).encode())}
    finally:
        hub.kill_everything()
        if not args.keep:
            shutil.rmtree(hub.workdir, ignore_errors=True)
    md = report(results, started=started, load=(load0[0], os.getloadavg()[0]), page=page)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return md


HEADER = """# The lecture page: load benchmark

Written by `python benchmarks/bench_lecture.py`; each run appends a section. What is measured
and how: the docstring of `benchmarks/bench_lecture.py`. Target (issue #37): 300 phones on a
2-core trial hub join and vote within 10 s -- every vote counted, vote -> the lecturer's chart
p95 <= 1 s, 0 single-user servers; the page <= 1 MB transferred cold (compressed).

"""


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    load_arguments(p, seed=37, out="lecture.md")
    p.add_argument("--kernels", type=int, default=20, help="kernel-path votes beside the phones")
    p.add_argument("--real-kernels", type=int, default=0,
                   help="beside the phones (first N only), this many students vote as today: "
                        "each from a kernel on their own single-user server")
    p.add_argument("--bundle", default=str(ROOT / "build" / "lecture_bundle.json"))
    p.add_argument("--question", default=None,
                   help="the bundle's question to open first (default: its first); its "
                        "explorer is what every phone loads")
    p.add_argument("--returning", action="store_true",
                   help="phones logged in before the lecture (untimed): the timed phase is the "
                        "page with the service's cookie, the state and the vote")
    p.add_argument("--observe", action="store_true",
                   help="after the votes the lecturer opens the observation round: every phone "
                        "loads the question's explorer (the phone's layout) at once, timed")
    p.add_argument("--existing-users", action="store_true",
                   help="create the phones' hub users first (a class list), not at login")
    run_and_append(run, p.parse_args(argv), HEADER)


if __name__ == "__main__":
    main()
