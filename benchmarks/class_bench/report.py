"""The class benchmark's Markdown: a section per run (one N), the memory table."""

from __future__ import annotations

import os
import platform

from .protocol import summary

__all__ = ["machine", "report_class", "report_memory"]


def _f(x, fmt="{:.0f}"):
    return "—" if x is None or x != x else fmt.format(x)


def machine() -> str:
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores, {mem:.1f} GiB RAM, {platform.platform()}"


def report_class(r: dict) -> str:
    L = [f"### N = {r['n']} ({r['started']})", ""]
    L.append(f"{r['notebook']}: {r['n']} students arriving within {r['arrive_within_s']:g} s; "
             f"then all drag at once, {r['moves']} moves each, one every "
             f"{r['interval_s'] * 1000:.0f} ms. Load average (1/5/15 min) before "
             f"{' / '.join(f'{x:.2f}' for x in r['load_before'])}"
             + (f", at the end of the drag {' / '.join(f'{x:.2f}' for x in r['load_during'])}"
                if r.get("load_during") else "") + ".")
    L.append("")
    L.append("| measure | n | p50 | p95 | max |")
    L.append("|---|---|---|---|---|")
    for key, label, scale in (("spawn_s", "spawn (s)", 1), ("kernel_s", "kernel start (s)", 1),
                              ("run_all_s", "run all cells (s)", 1)):
        s = r[key]
        L.append(f"| {label} | {s['n']} | {_f(s['p50'], '{:.2f}')} | {_f(s['p95'], '{:.2f}')} "
                 f"| {_f(s['max'], '{:.2f}')} |")
    s = r["slider_to_frame_ms"]
    L.append(f"| slider → frame (ms) | {s['n']} | {_f(s['p50'])} | {_f(s['p95'])} "
             f"| {_f(s['max'])} |")
    pss = [v["total_mb"] for v in (r.get("pss_dragged") or r.get("pss_ready") or {}).values()]
    ps = summary(pss)
    L.append(f"| PSS per student, server + kernel (MB) | {ps['n']} | {_f(ps['p50'])} "
             f"| {_f(ps['p95'])} | {_f(ps['max'])} |")
    L.append("")
    if r.get("cpu_s") and r["moves_total"]:
        m = r["moves_total"]
        c = r["cpu_s"]
        total = c["hub"] + c["proxy"] + c["server"] + c["kernel"]
        L.append(f"Drag phase: {r['drag_s']:.1f} s, {m} moves ({r['updates_sent']} update "
                 f"messages after the front end's throttle, {r['frames_total']} frames, "
                 f"{r['unanswered_moves']} moves never shown). Server CPU per move (ms): "
                 f"hub {c['hub'] / m * 1000:.1f}, proxy {c['proxy'] / m * 1000:.1f}, "
                 f"single-user servers {c['server'] / m * 1000:.1f}, kernels "
                 f"{c['kernel'] / m * 1000:.1f}; total {total / m * 1000:.1f} "
                 f"({total / max(r['updates_sent'], 1) * 1000:.1f} per update message). "
                 f"The benchmark client itself: {c['client'] / m * 1000:.1f}. Messages from the "
                 f"kernel per update message: " + ", ".join(
                     f"{k} {v / max(r['updates_sent'], 1):.2f}"
                     for k, v in sorted(r.get("drag_message_kinds", {}).items())) + ".")
        g = r.get("grid_drag_messages")
        if g and g.get("n"):
            L.append("")
            L.append(f"Gridded drag (the same number of moves on the explorer's precomputed "
                     f"slider, drawn by the browser): {_f(g['p50'], '{:.0f}')} message(s) sent "
                     f"per drag (max {_f(g['max'], '{:.0f}')}; goal ≤ 1).")
        L.append("")
    if r.get("cpu_to_ready_s"):
        cs, ck = r["cpu_to_ready_s"]["server"], r["cpu_to_ready_s"]["kernel"]
        L.append(f"CPU to get a student ready (median): single-user server {_f(cs['p50'], '{:.1f}')} s "
                 f"(start, JupyterLab page, session), kernel {_f(ck['p50'], '{:.1f}')} s (start, "
                 f"run all). Hub + proxy + culler PSS {_f(r.get('pss_hub_proxy_mb'))} MB.")
        L.append("")
    if r["failures"]:
        L.append("Failures: " + "; ".join(f"{f['student']}: {f['reason']}"
                                          for f in r["failures"]))
    else:
        L.append("Failures: none.")
    if r.get("cull"):
        cu = r["cull"]
        s = cu["stopped_after_s"]
        L.append(f"Idle culler (timeout {cu['timeout_s']} s): servers stopped {_f(s['p50'])}–"
                 f"{_f(s['max'])} s after the last tab closed"
                 + (f"; still running: {', '.join(cu['still_running'])}"
                    if cu["still_running"] else "") + ".")
    if r.get("hub_log"):
        L.append(f"The hub's log (single-user servers included) was kept in {r['hub_log']}.")
    L.append(f"Processes left after the hub was stopped: "
             f"{'none' if not r['leftover_processes'] else r['leftover_processes']}.")
    if r.get("busy_before"):
        L.append("Busiest other processes when it started (CPU %): "
                 + "; ".join(f"{p:.0f}% {cmd[:60]}" for p, _, cmd in r["busy_before"][:4]) + ".")
    L.append("")
    return "\n".join(L)


def report_memory(rows) -> str:
    L = ["### PSS per student, one student per notebook", "",
         "| notebook | run all (s) | server MB | kernel MB | total MB | failures |",
         "|---|---|---|---|---|---|"]
    for row in rows:
        p = row["pss"] or {}
        L.append(f"| {row['notebook']} | {_f(row['run_all_s']['max'], '{:.1f}')} | "
                 f"{_f(p.get('server_mb'))} | {_f(p.get('kernel_mb'))} | "
                 f"{_f(p.get('total_mb'))} | "
                 f"{'; '.join(f['reason'] for f in row['failures']) or 'none'} |")
    L.append("")
    return "\n".join(L)
