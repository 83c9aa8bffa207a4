"""The room votes under load (issue #31): N students commit a prediction within 10 s against the
real poll service behind a real trial hub; how long until the lecturer's chart shows each vote.

    python benchmarks/bench_votes.py                      # N = 30 100 300, writes benchmarks/votes.md
    python benchmarks/bench_votes.py --n 300 --out /tmp/votes.md

The hub is started as ``make hub`` starts it (deploy/run_hub.py, via tests/hub_testing.py's
TrialHub: free 127.0.0.1 ports, a temporary state directory, stopped by PID at the end). Each
simulated student has their own hub user and API token (scope
``access:services!service=genviz-poll``, minted through the hub's REST API by the admin), so
the service checks every student's token with the hub exactly once -- as in a lecture, where a
student's first commit is the service's first sight of their server's token. A student commits
at a random moment within ``--within`` s (seeded): one POST to the service on a fresh connection,
as genviz.widgets.room sends it from a kernel; a tenth of them change their mind 0.5-2 s later.

The lecturer's chart is simulated two ways, in the same run, each on its own question and its
own students (fresh tokens, so neither phase profits from the other's token cache):

* **long poll** (genviz.widgets.room.LecturerPanel): ``GET ...?since=<version>&wait=20``, the
  service answers as soon as a vote changes the question;
* **polling every second** (the naive panel): ``GET`` the counts once a second.

A third phase, **vote again** (``--no-vote-again`` skips it), is the second vote as a student's
prediction box sends it (genviz.widgets._room_box): pressing *Vote again* asks the service which
round is open (``GET api/votes/<question>``, the student's own votes only), then the vote is
sent for round 2; the box never polls, so this one GET per press is all the second vote adds.
Its *commit* is the press: press -> ack and press -> chart include the GET.

*Commit -> chart* for a student's first vote is the time from sending the vote to the first
lecturer response, received after the vote was acknowledged, whose number of voters includes it
(the r-th acknowledged voter is in a response with at least r voters). Every vote is checked
counted at the end (the final counts against each student's last vote). The service's memory is
its PSS (``/proc/<pid>/smaps_rollup``), sampled every 0.25 s; CPU is ``utime + stime`` of the
service and of the hub over each phase.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import random
import re
import shutil
import sys
import time
from pathlib import Path

import aiohttp
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from hub_testing import TrialHub  # noqa: E402

OPTIONS = 4
#: the second vote as a student's box sends it: *Vote again* asks which round is open, then votes
VOTE_AGAIN = "vote again, long poll"


async def poll_tokens(http, hub_base, admin, prefix, n, *, note, concurrency=8) -> dict:
    """Hub users ``prefix000`` ... (created, or already there) and a token each for the poll
    service, ``concurrency`` requests at a time: {name: token} (setup, not measured)."""
    names = [f"{prefix}{i:03d}" for i in range(n)]
    api = f"{hub_base}/hub/api"
    hdr = {"Authorization": f"token {admin}"}
    async with http.post(f"{api}/users", headers=hdr, json={"usernames": names}) as r:
        assert r.status in (201, 409), await r.text()
    sem = asyncio.Semaphore(concurrency)

    async def token(name):
        async with sem, http.post(f"{api}/users/{name}/tokens", headers=hdr,
                                  json={"scopes": ["access:services!service=genviz-poll"],
                                        "note": note}) as r:
            assert r.status == 201, await r.text()
            return (await r.json())["token"]

    return dict(zip(names, await asyncio.gather(*(token(n) for n in names))))


async def lecturer_chart(http, poll, token, qid, mode, seen, stop, rnd="1") -> None:
    """The lecturer's chart of question ``qid`` on the poll service at ``poll``, until ``stop``:
    long polls (or, for mode "polling every second", one GET a second); each answer appended
    to ``seen`` as (time, voters of round ``rnd``)."""
    hdr = {"Authorization": f"token {token}"}
    version = None
    while not stop.is_set():
        query = f"?since={version}&wait=20" if (mode != "polling every second"
                                                and version is not None) else ""
        try:
            async with http.get(f"{poll}api/questions/{qid}{query}", headers=hdr,
                                timeout=aiohttp.ClientTimeout(total=30)) as r:
                data = await r.json()
        except (aiohttp.ClientError, asyncio.TimeoutError):
            continue
        seen.append((time.monotonic(), data["voters"][rnd]))
        version = data["version"]
        if mode == "polling every second":
            try:
                await asyncio.wait_for(stop.wait(), 1.0)
            except asyncio.TimeoutError:
                pass


def percentile(xs, q):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    pos = (len(xs) - 1) * q / 100
    lo, hi = int(pos), min(int(pos) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def pss_mb(pid):
    try:
        return psutil.Process(pid).memory_full_info().pss / 2**20
    except psutil.Error:
        return float("nan")


def cpu_s(pid):
    try:
        t = psutil.Process(pid).cpu_times()
        return t.user + t.system
    except psutil.Error:
        return float("nan")


class Bench:
    def __init__(self, hub: TrialHub, admin_token: str, lecturer_token: str):
        self.hub = hub
        self.admin = admin_token
        self.lecturer = lecturer_token
        self.poll = f"http://127.0.0.1:{hub.port + 3}/services/genviz-poll/"
        self.service_pid = next(p for p in hub.processes()
                                if "genviz_poll.py" in " ".join(psutil.Process(p).cmdline()))
        self.hub_pid = hub.hub_pid()

    # -- setup: users and their tokens (not measured) ---------------------------------------------
    async def students(self, http, prefix, n):
        return await poll_tokens(http, self.hub.base, self.admin, prefix, n, note="bench_votes")

    # -- one phase -----------------------------------------------------------------------------
    async def phase(self, n, mode, tokens, within, seed):
        qid = f"bench-{re.sub('[^A-Za-z0-9]+', '-', mode)}-{n}"
        again = mode == VOTE_AGAIN  # the second vote as a student's box sends it
        rnd = 2 if again else 1
        rng = random.Random(seed)
        plan = []  # (arrival, name, first option, changed option or None, change delay)
        for name in tokens:
            change = rng.random() < 0.1
            plan.append((rng.uniform(0, within), name, rng.randrange(OPTIONS),
                         rng.randrange(OPTIONS) if change else None, rng.uniform(0.5, 2.0)))
        plan.sort()
        final = {name: (changed if changed is not None else first)
                 for _, name, first, changed, _ in plan}
        connector = aiohttp.TCPConnector(limit=0, force_close=True)  # a new connection per vote
        async with aiohttp.ClientSession(connector=connector) as http, \
                aiohttp.ClientSession() as lecturer_http:
            hdr = {"Authorization": f"token {self.lecturer}"}
            async with lecturer_http.put(f"{self.poll}api/questions/{qid}", headers=hdr,
                                         json={"options": OPTIONS, "open": rnd}) as r:
                assert r.status == 200, await r.text()
            seen, stop = [], asyncio.Event()
            chart = asyncio.create_task(lecturer_chart(lecturer_http, self.poll, self.lecturer, qid,
                                                       mode, seen, stop, str(rnd)))
            await asyncio.sleep(0.3)
            votes, failures, asked = [], [], []
            pss, sampling = [], asyncio.Event()

            async def sample():
                while not sampling.is_set():
                    pss.append(pss_mb(self.service_pid))
                    await asyncio.sleep(0.25)

            async def send(name, option):
                t0 = time.monotonic()
                try:
                    async with http.post(f"{self.poll}api/votes",
                                         headers={"Authorization": f"token {tokens[name]}"},
                                         json={"question": qid, "option": option, "round": rnd},
                                         timeout=aiohttp.ClientTimeout(total=30)) as r:
                        ok = r.status == 200
                        await r.read()
                except (aiohttp.ClientError, asyncio.TimeoutError) as e:
                    ok, r = False, e
                t1 = time.monotonic()
                return t0, t1, ok, r

            async def ask(name):
                """*Vote again* pressed: which round is open (GET api/votes/<question>)."""
                t0 = time.monotonic()
                try:
                    async with http.get(f"{self.poll}api/votes/{qid}",
                                        headers={"Authorization": f"token {tokens[name]}"},
                                        timeout=aiohttp.ClientTimeout(total=30)) as r:
                        ok = r.status == 200 and (await r.json()).get("open") == rnd
                except (aiohttp.ClientError, asyncio.TimeoutError, ValueError) as e:
                    ok, r = False, e
                asked.append(time.monotonic() - t0)
                return t0, ok, r

            async def student(arrival, name, first, changed, delay):
                await asyncio.sleep(max(0.0, start + arrival - time.monotonic()))
                if again:  # the press, then the vote: press -> ack and press -> chart
                    t_press, ok, r = await ask(name)
                    if not ok:
                        failures.append((name, f"vote again: {r}"))
                        return
                t0, t1, ok, r = await send(name, first)
                if again:
                    t0 = t_press
                (votes if ok else failures).append((t0, t1, name) if ok else (name, str(r)))
                if changed is not None:
                    await asyncio.sleep(delay)
                    _, _, ok2, r2 = await send(name, changed)
                    if not ok2:
                        failures.append((name, str(r2)))

            sampler = asyncio.create_task(sample())
            cpu0 = (cpu_s(self.service_pid), cpu_s(self.hub_pid))
            start = time.monotonic()
            await asyncio.gather(*(student(*p) for p in plan))
            sent_s = time.monotonic() - start
            await asyncio.sleep(2.0)  # the chart catches up
            cpu1 = (cpu_s(self.service_pid), cpu_s(self.hub_pid))
            stop.set()
            sampling.set()
            await asyncio.gather(chart, sampler, return_exceptions=True)
            async with lecturer_http.get(f"{self.poll}api/questions/{qid}", headers=hdr) as r:
                counts = await r.json()
            async with lecturer_http.delete(f"{self.poll}api/questions/{qid}", headers=hdr) as r:
                await r.read()
        expected = [sum(1 for v in final.values() if v == i) for i in range(OPTIONS)]
        # commit -> chart: the r-th acknowledged voter, in the first response after its ack
        # that has at least r voters
        latencies, commit_ack = [], []
        for rank, (t0, t1, _) in enumerate(sorted(votes, key=lambda v: v[1]), start=1):
            commit_ack.append(t1 - t0)
            shown = next((t for t, voters in seen if t >= t1 and voters >= rank), None)
            if shown is not None:
                latencies.append(shown - t0)
        return {"n": n, "mode": mode, "within_s": within, "sent_s": sent_s,
                "failures": failures, "counted": counts["voters"][str(rnd)],
                "counts_ok": counts["counts"][str(rnd)] == expected, "chart_updates": len(seen),
                "press_to_unlocked_s": asked,
                "commit_to_chart_s": latencies, "unseen": len(votes) - len(latencies),
                "commit_to_ack_s": commit_ack, "service_pss_mb": pss,
                "service_cpu_s": cpu1[0] - cpu0[0], "hub_cpu_s": cpu1[1] - cpu0[1]}


def _row(r):
    lat, ack = r["commit_to_chart_s"], r["commit_to_ack_s"]
    pss = [x for x in r["service_pss_mb"] if x == x]
    ok = "yes" if (r["counted"] == r["n"] and r["counts_ok"] and not r["failures"]) else \
        f"**no** ({r['counted']}/{r['n']}, {len(r['failures'])} failed)"
    return (f"| {r['n']} | {r['mode']} | {ok} | {1000 * percentile(ack, 50):.0f} / "
            f"{1000 * percentile(ack, 95):.0f} | {1000 * percentile(lat, 50):.0f} / "
            f"**{1000 * percentile(lat, 95):.0f}** / {1000 * max(lat, default=float('nan')):.0f} "
            f"| {r['chart_updates']} | {max(pss, default=float('nan')):.1f} "
            f"| {r['service_cpu_s']:.2f} / {r['hub_cpu_s']:.2f} |")


def report(results, *, started, load_before, load_after, pss_idle) -> str:
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    L = [f"## Run of {started} UTC", "",
         f"Machine: {os.cpu_count()} cores, {mem:.1f} GiB RAM, {platform.platform()}. Load "
         f"average (1/5/15 min) before {' / '.join(f'{x:.2f}' for x in load_before)}, after "
         f"{' / '.join(f'{x:.2f}' for x in load_after)}. Service PSS idle after start: "
         f"{pss_idle:.1f} MB.", "",
         "| students | lecturer's chart | every vote counted | commit → ack p50 / p95 (ms) "
         "| commit → chart p50 / p95 / max (ms) | chart updates | service PSS peak (MB) "
         "| CPU s: service / hub |",
         "|---|---|---|---|---|---|---|---|"]
    L += [_row(r) for r in results]
    L.append("")
    for n in sorted({r["n"] for r in results}):
        pair = {r["mode"]: r for r in results if r["n"] == n}
        if len(pair) == 2:
            a = percentile(pair["long poll"]["commit_to_chart_s"], 95)
            b = percentile(pair["polling every second"]["commit_to_chart_s"], 95)
            L.append(f"- N = {n}: commit → chart p95, polling every second / long poll = "
                     f"{b / a:.1f}× ({1000 * b:.0f} / {1000 * a:.0f} ms).")
        if "long poll" in pair and VOTE_AGAIN in pair:
            one, two = pair["long poll"], pair[VOTE_AGAIN]
            cpu1 = (one["service_cpu_s"] + one["hub_cpu_s"]) / n
            cpu2 = (two["service_cpu_s"] + two["hub_cpu_s"]) / n
            L.append(f"- N = {n}: *Vote again* (one GET of the student's own votes, then the "
                     f"vote): press → unlocked p50 / p95 "
                     f"{1000 * percentile(two['press_to_unlocked_s'], 50):.0f} / "
                     f"{1000 * percentile(two['press_to_unlocked_s'], 95):.0f} ms; press → ack "
                     f"p95 {1000 * percentile(two['commit_to_ack_s'], 95):.0f} ms against a "
                     f"first vote's commit → ack p95 "
                     f"{1000 * percentile(one['commit_to_ack_s'], 95):.0f} ms; CPU (service + "
                     f"hub) per student {1000 * cpu2:.1f} ms against {1000 * cpu1:.1f} ms.")
    L.append("")
    return "\n".join(L)


async def run(args) -> str:
    hub = TrialHub()
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    load_before = os.getloadavg()
    results = []
    try:
        hub.start()
        admin = hub.user_token("instructor")  # the trial hub's admin, in group instructors
        bench = Bench(hub, admin, admin)
        time.sleep(1.0)
        pss_idle = pss_mb(bench.service_pid)
        async with aiohttp.ClientSession() as http:
            for i, n in enumerate(args.n):
                modes = ["long poll", "polling every second"]
                modes = modes if i % 2 == 0 else modes[::-1]  # no order bias
                if not args.no_vote_again:
                    modes.append(VOTE_AGAIN)
                for k, mode in enumerate(modes):
                    tokens = await bench.students(http, f"s{n}{'abc'[k]}-", n)
                    r = await bench.phase(n, mode, tokens, args.within, seed=args.seed + n + k)
                    results.append(r)
                    print(_row(r), flush=True)
    finally:
        hub.kill_everything()
        if not args.keep:
            shutil.rmtree(hub.workdir, ignore_errors=True)
        else:
            print(f"the hub's directory (log: hub.log): {hub.workdir}")
    md = report(results, started=started, load_before=load_before, load_after=os.getloadavg(),
                pss_idle=pss_idle)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return md


def load_arguments(p, *, seed: int, out: str):
    """The arguments both load benchmarks take (this one and bench_lecture.py)."""
    p.add_argument("--n", type=int, nargs="+", default=[30, 100, 300])
    p.add_argument("--within", type=float, default=10.0, help="seconds over which students commit")
    p.add_argument("--seed", type=int, default=seed)
    p.add_argument("--out", default=str(ROOT / "benchmarks" / out),
                   help="Markdown file the run's section is appended to")
    p.add_argument("--json", default=None, help="also write the raw numbers here")
    p.add_argument("--keep", action="store_true", help="keep the hub's directory (its log)")


def run_and_append(run, args, header: str) -> None:
    """Run ``run(args)`` and append its Markdown to ``args.out`` (``header`` first if new)."""
    md = asyncio.run(run(args))
    out = Path(args.out)
    head = "" if out.exists() else header
    with open(out, "a") as f:
        f.write(head + md + "\n")
    print(md)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    load_arguments(p, seed=31, out="votes.md")
    p.add_argument("--no-vote-again", action="store_true",
                   help="skip the second-vote phase (Vote again: one GET, then the vote)")
    run_and_append(run, p.parse_args(argv), HEADER)


HEADER = """# The room votes: load benchmark

Written by `python benchmarks/bench_votes.py` (or `make bench-votes`); each run appends a
section. What is measured and how: the docstring of `benchmarks/bench_votes.py`. Target (issue
#31): 300 students voting within 10 s on 2 cores -- every vote counted, commit -> the lecturer's
chart p95 <= 1 s; the service's memory reported.

"""


if __name__ == "__main__":
    main()
