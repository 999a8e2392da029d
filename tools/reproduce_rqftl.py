#!/usr/bin/env python3
"""Reproduces RQFTL's evaluation (R. Marcus et al., SYSTOR 2024, ../shared/papers/004_*.txt,
sections 7.1-7.4) on ssdsim: the rqftl scheme against DFTL (whole translation pages as cache
lines), SFTL and LeaFTL with their index overheads counted as section 3.4.1 counts them.

    /usr/bin/python3 tools/reproduce_rqftl.py [--jobs 2] [--out results/reproduce/rqftl]
        [--apps cd,dl,gi,pb,ss,tg,yc] [--experiments mobile,fig6,fig7,fig8,accel,fig10]
        [--requests 30000] [--quick] [--resume]

Experiments (each run writes runs/<name>/; summary.json, summary.md and the PNGs go to --out):
- mobile: the seven apps of Table 2 (below) x dftl, sftl, leaftl, rqftl with the paper's SRAM
  shape: read and write miss rates, effective LPNs cached (Table 3), read latency (Figure 5).
- fig6: sftl and leaftl again with a 512 KiB L2P cache: the L2P size at which LeaFTL matches
  RQFTL's miss rate at 256 KiB (RQFTL at 512 KiB is left out for time; see FIG6_SCHEMES).
- fig7: rqftl with a static partition, the short-term cache fixed at 32, 64 and 128 KiB, on
  Call of Duty and Diablo, against the dynamic partition of the mobile runs.
- fig8: the synthetic stress of section 7.3 at page read ratios 0.5 to 1, the four schemes.
- accel: rqftl on Slideshow with its lookups on the RQRMI accelerator
  (`firmware.rqrmi_engine: accel`): the accelerator's busy share of its cycles over the run.
- fig10: rqftl on every app with zero-time training in the measured phase
  (`ftl.rqftl.zero_time_training` with `ftl.rqftl.zero_time_after` the installation's command
  count: the worker hart then trains with the platform's mzerotime CSR set, so no simulated time
  passes). The installation trains timed, as the mobile run's does, so both runs measure from
  the same state; a zero-time installation would train once per page written and take hours.
Figure 9 (mean range size in the long-term cache over time) comes from the Genshin Impact run's
FTL time series.

The device (every scale factor in summary.json "scale"): SLC pages of 4 KiB, tR 200 us, tPROG
1200 us (section 7.1), 16 channels x 8 ways x 2 dies x 2 planes = 512 planes as the paper's;
256 KiB of L2P (`ftl.map_budget`), a 128 KiB write buffer (32 pages in SRAM) sorted by LPN before
each flush, queue depth 32; the GTD is the firmware's own region (4 B per translation page, 1024
LPNs a TP), not in the L2P budget, as the paper budgets it apart (128 KiB). The capacity is
scaled: the paper's 1 TB becomes a 136 GiB device that holds the apps' LPN span whole (about 120
GB), so translation-page reuse is not distorted; only the working sets are written (the NAND and
the host's oracle are sparse). RQFTL trains on a second hart (`cpu.harts: 2`) at the platform's
800 MHz, not on the paper's 2 GHz Cortex-A72, and looks its models up on the CPU.

The mobile apps (Table 2's columns; the traces themselves are not public): each is a workset
stream (README "Workload") over the app's LPN span whose workset is Table 2's. The installation
(precondition phase, not measured) writes the workset's chunks whole, in random order
(`workset_fill`, 128 KiB requests); the execution (measured phase, --requests commands) reads and
writes uniformly over the chunks at the app's read ratio, with request sizes drawn from a mix of
1 to 256 pages fitted to Table 2's mean and standard deviation (sizes_of). The chunk size is
chosen so that the expected translation-page reuse distance of such a uniform stream, the number
of TPs the workset touches, is nearest Table 2's mean (chunk_of); Table 2's large standard
deviations (a skewed reuse) are not modelled. Apps' traces run 0.66 to 8.2 million commands;
the measured phase runs --requests of them (summary.json "scale").

The synthetic stress (fig8, section 7.3): a 16 GiB LPN span, a 1 GiB workset of 128 KiB
chunks (32 pages, the paper's example), preconditioned with 1.5 GiB of random aligned 128 KiB
writes at queue depth 1, then --requests commands of 4 KiB reads and 128 KiB writes at queue
depth 32 whose page read ratio is the point's.

--quick: two apps, 2 schemes, 2000 requests, a 512 MiB workset cap (a smoke run, seconds to a
minute; its figures say nothing about the paper). --resume keeps finished runs whose scenario is
unchanged.
"""

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ssdvp_results  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KIB, MIB, GIB = 2**10, 2**20, 2**30
PAGE = 4 * KIB
TP_LPNS = PAGE // 4  # LPNs a translation page maps (4-byte entries)
TP_BYTES = TP_LPNS * PAGE  # host bytes one translation page covers: 4 MiB

# Table 2: length (commands), TP reuse distance (commands: mean, SD), write and read request
# sizes (pages: mean, SD), LPN span (GB), read ratio, workset (GB). The paper's GB taken as GiB.
APPS = {
    "cd": {"app": "Call of Duty", "length": 2496029, "reuse": (2020.7, 9799.3),
           "write_pages": (28.9, 60.7), "read_pages": (11.3, 28.6), "span_gb": 117,
           "read": 0.91, "workset_gb": 5.1},
    "dl": {"app": "Diablo", "length": 1898152, "reuse": (2417.2, 12736.6),
           "write_pages": (4.5, 12.6), "read_pages": (5.3, 17.2), "span_gb": 119,
           "read": 0.82, "workset_gb": 4.3},
    "gi": {"app": "Genshin Impact", "length": 1022753, "reuse": (1202.6, 5181.2),
           "write_pages": (42.0, 56.4), "read_pages": (11.8, 24.9), "span_gb": 118.9,
           "read": 0.94, "workset_gb": 2.8},
    "pb": {"app": "Pubg", "length": 658321, "reuse": (737.0, 4031.9),
           "write_pages": (12.4, 31.2), "read_pages": (6.3, 32.0), "span_gb": 119,
           "read": 0.48, "workset_gb": 2.0},
    "ss": {"app": "Slideshow", "length": 4609251, "reuse": (16086.3, 51323.2),
           "write_pages": (38.1, 31.6), "read_pages": (4.3, 8.4), "span_gb": 119,
           "read": 0.94, "workset_gb": 1.9},
    "tg": {"app": "Telegram", "length": 1538672, "reuse": (2304.5, 14228.9),
           "write_pages": (4.4, 20.1), "read_pages": (15.3, 61.2), "span_gb": 119,
           "read": 0.24, "workset_gb": 3.9},
    "yc": {"app": "YouCut", "length": 8167619, "reuse": (2105.0, 13791.0),
           "write_pages": (80.9, 58.2), "read_pages": (29.7, 7.6), "span_gb": 72.4,
           "read": 0.99, "workset_gb": 10.1},
}
SCHEMES = ("dftl", "sftl", "leaftl", "rqftl")
EXPERIMENTS = ("mobile", "fig6", "fig7", "fig8", "accel", "fig10")
DEFAULT_EXPERIMENTS = EXPERIMENTS
ACCEL_APPS = ("ss",)  # the smallest workset: one run shows the accelerator's share
MAX_REQUEST_PAGES = 256  # the size mixes' largest request: 1 MiB
FILL_BYTES = 128 * KIB  # the installation's request size
L2P = 256 * KIB
L2P_LARGE = 512 * KIB  # Figure 6
# Figure 6 asks at which L2P size LeaFTL matches RQFTL at 256 KiB: the baselines run at 512 KiB.
# RQFTL itself at 512 KiB (the paper draws it too) is left out for time: an earlier full run had
# it within 0.7 points of its 256 KiB miss rate on every app, at 1,509 s of runs.
FIG6_SCHEMES = ("sftl", "leaftl")
STATIC_STC = (32 * KIB, 64 * KIB, 128 * KIB)  # Figure 7
FIG7_APPS = ("cd", "dl")
READ_RATIOS = (0.5, 0.9, 0.99, 1.0)  # Figure 8: pages read / pages accessed
SYNTHETIC = {"span": 16 * GIB, "workset": 1 * GIB, "write": 128 * KIB, "read": 4 * KIB,
             "precondition": 3 * GIB // 2}
NAND = {"channels": 16, "ways": 8, "dies": 2, "planes": 2, "blocks": 272, "pages": 256,
        "page_size": "4KiB", "oob_size": "256B", "cell": "slc",
        "t_read": {"lsb": "200us"}, "t_prog": "1200us"}
FTL_OP = 0.07
# 512 planes x 272 blocks x 256 pages of 4 KiB: 136 GiB raw, 126.5 GiB exported at 7 %
# over-provisioning, which holds the largest span (119 GiB).
DEVICE_BYTES = 512 * NAND["blocks"] * NAND["pages"] * PAGE
QUEUE_DEPTH = 32
STATS_INTERVAL = "20ms"
DEFAULT_REQUESTS = 20000
QUICK = {"apps": ["gi", "dl"], "schemes": ["sftl", "rqftl"], "requests": 2000,
         "workset_cap": 512 * MIB, "experiments": ["mobile"]}
INSTALL, EXECUTE = "install", "execute"
PAPER = {"capacity": "1 TB", "planes": 512, "page_bytes": 4096, "t_read_us": 200,
         "t_prog_us": 1200, "l2p_bytes": L2P, "write_buffer_bytes": 128 * KIB,
         "gtd_bytes": 128 * KIB, "queue_depth": 32, "fractions": 12,
         "training_cpu": "ARM Cortex-A72 at 2 GHz (section 7.1)"}
# The paper's claims (section 7 and the abstract).
CLAIMS = {
    "mobile_miss_reduction": {"dftl": 0.65, "sftl": 0.24, "leaftl": 0.25},
    "read_latency_speedup": {"dftl": 0.15, "sftl": 0.04, "leaftl": 0.04},
    "synthetic_miss_ratio_max": {"dftl": 3.6, "sftl": 2.7, "leaftl": 2.0},
    "leaftl_sram_for_same_miss": 2.0,
    "training_time_share": (0.01, 0.03),
    "zero_time_miss_points": 0.08,  # Figure 10: RQFTL* about 8 points lower on average
}


# ---- the workload model ---------------------------------------------------------------------

def mix_moments(weights, pages):
    total = sum(weights)
    mean = sum(w * p for w, p in zip(weights, pages)) / total
    var = sum(w * (p - mean) ** 2 for w, p in zip(weights, pages)) / total
    return mean, math.sqrt(var)


def sizes_of(mean, sd, max_pages=MAX_REQUEST_PAGES):
    """A size mix over 1, 2, 4 .. max_pages pages with weights exp(a k + b k^2) (k = log2 of the
    pages), a solved for the mean and b for the standard deviation by nested bisection; where
    the SD cannot be reached, the nearest. Answers ({bytes: weight}, mean, sd) of the mix."""
    pages = [2**k for k in range(int(math.log2(max_pages)) + 1)]
    ks = range(len(pages))

    def weights(a, b):
        top = max(a * k + b * k * k for k in ks)
        return [math.exp(a * k + b * k * k - top) for k in ks]

    def solve_a(b):
        lo, hi = -60.0, 60.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if mix_moments(weights(mid, b), pages)[0] < mean:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    lo, hi = -12.0, 6.0  # the SD grows with b
    for _ in range(100):
        mid = (lo + hi) / 2
        if mix_moments(weights(solve_a(mid), mid), pages)[1] < sd:
            lo = mid
        else:
            hi = mid
    b = (lo + hi) / 2
    w = weights(solve_a(b), b)
    total = sum(w)
    mix = {p * PAGE: round(x / total, 6) for p, x in zip(pages, w) if x / total >= 1e-6}
    got_mean, got_sd = mix_moments(list(mix.values()), [b // PAGE for b in mix])
    return mix, got_mean, got_sd


def touched_tps(workset, chunk, span):
    """Expected TPs a workset of `workset` bytes in chunks of `chunk` (a power of two) placed at
    random over `span` bytes touches: the mean TP reuse distance, in commands, of a stream
    drawing its chunks uniformly (a TP drawn with probability p comes back after 1/p commands;
    averaged over the draws, the number of TPs)."""
    span_tps = span / TP_BYTES
    if chunk >= TP_BYTES:
        return workset / TP_BYTES
    slots_per_tp = TP_BYTES / chunk
    return span_tps * (1 - (1 - workset / span) ** slots_per_tp)


def chunk_of(app, largest_request, span=None, workset=None):
    """The chunk (a power of two from the largest request to 64 MiB) whose expected TP reuse
    distance is nearest Table 2's mean (by ratio); answers (chunk, expected distance)."""
    a = APPS[app]
    span = span or app_span(app)
    workset = workset or app_workset(app)
    best = None
    chunk = max(largest_request, FILL_BYTES)
    while chunk <= 64 * MIB:
        reuse = touched_tps(workset, chunk, span)
        score = abs(math.log(reuse / a["reuse"][0]))
        if best is None or score < best[0] - 1e-12:
            best = (score, chunk, reuse)
        chunk *= 2
    return best[1], best[2]


def app_span(app):
    return int(APPS[app]["span_gb"] * GIB) // TP_BYTES * TP_BYTES


def app_workset(app, cap=None):
    workset = int(APPS[app]["workset_gb"] * GIB) // MIB * MIB
    return min(workset, cap) if cap else workset


def app_stream(app, quick):
    """The app's execution stream and what the model gives: the size mixes, chunk and expected
    TP reuse distance beside Table 2's."""
    a = APPS[app]
    writes, write_mean, write_sd = sizes_of(*a["write_pages"])
    reads, read_mean, read_sd = sizes_of(*a["read_pages"])
    largest = max(max(writes), max(reads))
    workset = app_workset(app, QUICK["workset_cap"] if quick else None)
    chunk, reuse = chunk_of(app, largest, workset=workset)
    workset = workset // chunk * chunk
    stream = {"pattern": "workset", "working_set": f"{app_span(app)}B", "workset": f"{workset}B",
              "workset_chunk": f"{chunk}B", "read_fraction": a["read"],
              "sizes": {f"{b}B": w for b, w in writes.items()},
              "read_sizes": {f"{b}B": w for b, w in reads.items()},
              "queue_depth": QUEUE_DEPTH}
    model = {"write_pages": [round(write_mean, 2), round(write_sd, 2)],
             "read_pages": [round(read_mean, 2), round(read_sd, 2)],
             "chunk_bytes": chunk, "workset_bytes": workset, "span_bytes": app_span(app),
             "expected_tp_reuse": round(reuse, 1)}
    return stream, model


def install_commands(model):
    """The installation's host commands: the workset's chunks in FILL_BYTES requests."""
    assert model["chunk_bytes"] % FILL_BYTES == 0
    return model["workset_bytes"] // FILL_BYTES


def install_stream(stream):
    return {"pattern": "workset", "working_set": stream["working_set"],
            "workset": stream["workset"], "workset_chunk": stream["workset_chunk"],
            "workset_fill": True, "read_fraction": 0.0, "size": f"{FILL_BYTES}B",
            "queue_depth": QUEUE_DEPTH}


def request_read_fraction(page_ratio, read_pages, write_pages):
    """The share of requests that are reads for a share of pages read."""
    if page_ratio >= 1.0:
        return 1.0
    return page_ratio * write_pages / (page_ratio * write_pages + (1 - page_ratio) * read_pages)


# ---- scenarios ------------------------------------------------------------------------------

def device(name, scheme, phases, l2p=L2P, stc_bytes=None, zero_time=0, accel=False):
    """zero_time: the host commands after which training passes no simulated time (0: off)."""
    """Every run's device, firmware and host, with the scheme's options and the phases."""
    ftl = {"map_budget": f"{l2p}B", "op": FTL_OP,
           "write_buffer": {"pages": 32, "location": "sram"}, "fsp": {"policy": "sorted"}}
    if scheme == "dftl":
        ftl["dftl"] = {"whole_tp": True}
    if scheme == "leaftl":
        ftl["leaftl"] = {"index_overhead": True}
    if scheme == "rqftl" and stc_bytes:
        ftl["rqftl"] = {"stc_bytes": f"{stc_bytes}B"}
    if scheme == "rqftl" and zero_time:
        # Zero-time from the measured phase on: the installation trains as the timed run's does.
        ftl["rqftl"] = {"zero_time_training": True, "zero_time_after": zero_time}
    found = {
        "name": name, "seed": 1,
        "cpu": {"harts": 2 if scheme == "rqftl" else 1},
        "sram": {"size": "16MiB"}, "dram": {"size": "1GiB"},
        "nand": NAND,
        "firmware": {"scheme": scheme},
        "ftl": ftl,
        "host": {"oracle": True, "stats_interval": STATS_INTERVAL},
        "workload": {"phases": phases},
    }
    if accel:
        found["accel"] = {"present": True}
        found["firmware"]["rqrmi_engine"] = "accel"
    return found


def app_point(app, scheme, requests, quick, l2p=L2P, stc_bytes=None, tag="", zero_time=False,
              accel=False):
    stream, model = app_stream(app, quick)
    name = f"{app}_{scheme}{tag}"
    phases = [{"name": INSTALL, "bytes": stream["workset"],
               "streams": [dict(install_stream(stream), name=app)]},
              {"name": EXECUTE, "requests": requests, "streams": [dict(stream, name=app)]}]
    found = {"kind": "app", "app": app, "scheme": scheme, "l2p": l2p, "stc_bytes": stc_bytes,
             "name": name, "model": model,
             "scenario": device(name, scheme, phases, l2p, stc_bytes,
                                install_commands(model) if zero_time else 0, accel)}
    if zero_time:
        found["zero_time"] = True
    if accel:
        found["accel"] = True
    return found


def synthetic_point(ratio, scheme, requests, quick):
    s = SYNTHETIC
    workset = QUICK["workset_cap"] if quick else s["workset"]
    base = {"pattern": "workset", "working_set": f"{s['span']}B", "workset": f"{workset}B",
            "workset_chunk": f"{s['write']}B"}
    reads = request_read_fraction(ratio, s["read"] // PAGE, s["write"] // PAGE)
    name = f"synthetic_r{ratio:g}_{scheme}"
    phases = [{"name": INSTALL, "bytes": f"{workset * s['precondition'] // s['workset']}B",
               "streams": [dict(base, name="precondition", read_fraction=0.0,
                                size=f"{s['write']}B", queue_depth=1)]},
              {"name": EXECUTE, "requests": requests,
               "streams": [dict(base, name="stress", read_fraction=round(reads, 6),
                                sizes={f"{s['write']}B": 1.0},
                                read_sizes={f"{s['read']}B": 1.0}, queue_depth=QUEUE_DEPTH)]}]
    return {"kind": "synthetic", "ratio": ratio, "scheme": scheme, "l2p": L2P, "name": name,
            "scenario": device(name, scheme, phases)}


def chunk_of_point(point):
    """The workset chunk a point writes whole."""
    return point["model"]["chunk_bytes"] if "model" in point else SYNTHETIC["write"]


def points(experiments, apps, schemes, requests, quick):
    found = []
    if "mobile" in experiments:
        found += [app_point(a, s, requests, quick) for a in apps for s in schemes]
    if "fig6" in experiments:
        found += [app_point(a, s, requests, quick, l2p=L2P_LARGE, tag="_512k")
                  for a in apps for s in FIG6_SCHEMES if s in schemes]
    if "fig7" in experiments and "rqftl" in schemes:
        found += [app_point(a, "rqftl", requests, quick, stc_bytes=b, tag=f"_stc{b // KIB}k")
                  for a in FIG7_APPS if a in apps for b in STATIC_STC]
    if "fig8" in experiments:
        found += [synthetic_point(r, s, requests, quick) for r in READ_RATIOS for s in schemes]
    if "accel" in experiments and "rqftl" in schemes:
        found += [app_point(a, "rqftl", requests, quick, tag="_accel", accel=True)
                  for a in ACCEL_APPS if a in apps]
    if "fig10" in experiments and "rqftl" in schemes:
        found += [app_point(a, "rqftl", requests, quick, tag="_zero_time", zero_time=True)
                  for a in apps]
    # The longest first: the large worksets' installations.
    return sorted(found, key=lambda p: -(APPS[p["app"]]["workset_gb"] if "app" in p else 2.0))


# ---- results --------------------------------------------------------------------------------

lookup = ssdvp_results.lookup_or_none
ratio = ssdvp_results.ratio


clock_hz = ssdvp_results.clock_hz


def series_mean(run, column):
    values = [v for _, v in run.series(column, phase=EXECUTE) if v is not None]
    return sum(values) / len(values) if values else None


def effective_lpns(run, chunk_bytes):
    """The measured phase's mean of the LPNs the scheme translates without reading flash (Table
    3's effective capacity): map.translatable_lpns (for DFTL and SFTL every LPN of each cached
    TP, written or not: an upper bound where a TP holds unwritten LPNs), except for LeaFTL, whose
    gauge counts the never-written LPNs of groups never in memory too; its figure is the mapped
    LPNs less those of the groups on flash, which holds only where each of the workset's whole
    chunks (`chunk_bytes`) fills its groups. Where chunks are smaller than a group (the synthetic
    stress: 128 KiB chunks, 1 MiB groups) a group on flash holds fewer mapped LPNs than its span
    and LeaFTL's figure is None rather than a wrong one."""
    if "leaftl.mapped_lpns" not in (run.ftl_timeseries[0] if run.ftl_timeseries else {}):
        return series_mean(run, "map.translatable_lpns")
    group = run.config_value("ftl.leaftl.group_lpns")
    if chunk_bytes < group * PAGE:
        return None
    mapped = dict(run.series("leaftl.mapped_lpns", phase=EXECUTE))
    values = [mapped[t] - group * away for t, away in run.series("leaftl.groups_on_flash",
                                                                   phase=EXECUTE)
              if away is not None and mapped.get(t) is not None]
    return sum(values) / len(values) if values else None


def figures_of(run, chunk_bytes):
    """A run's measured (execution) phase: miss rates, LPNs cached, latency, RQFTL's work;
    `chunk_bytes`: the workset's chunk."""
    stats = run.stats
    outcome = stats["outcome"]["outcome"]
    if outcome != "workload_done":
        raise RuntimeError(f"{run.path}: outcome {outcome}: {stats['outcome'].get('message')}")
    measured = run.ftl_phase(EXECUTE)
    host = next(h for h in stats["host"]["phases"] if h["name"] == EXECUTE)
    read = host["ops"].get("read") or {}
    seconds = host.get("duration_s")
    hz = clock_hz(lookup(stats, "config.cpu.clock") or "800MHz")
    lookups, misses = lookup(measured, "map.lookups"), lookup(measured, "map.misses")
    # Host reads are the pipeline's lookups (map.*); updates only the scheme counts (scheme.*).
    updates = lookup(measured, "scheme.updates")
    update_misses = lookup(measured, "scheme.update_misses")
    training = lookup(measured, "rqftl.training_cycles")
    ranges, ltc_lpns = lookup(measured, "rqftl.ltc_ranges"), lookup(measured, "rqftl.ltc_lpns")
    found = {
        "read_miss_rate": ratio(misses, lookups), "lookups": lookups,
        "write_miss_rate": ratio(update_misses, updates), "updates": updates,
        "effective_lpns": effective_lpns(run, chunk_bytes),
        "effective_lpns_end": lookup(measured, "map.translatable_lpns"),
        "read_latency_us": read["latency_ns"]["mean"] / 1000 if read.get("commands") else None,
        "read_commands": read.get("commands"),
        "commands": host["commands"],
        "phase_seconds": seconds,
        "waf": lookup(measured, "waf"),
        "tp_reads": lookup(measured, "tp_reads"),
    }
    if training is not None:
        # Zero-time trainings pass no simulated time: no busy share to report.
        zero_time = bool(run.config_value("ftl.rqftl.zero_time_training"))
        found.update({
            "transfers": lookup(measured, "rqftl.transfers"),
            "training_cycles": training,
            "training_seconds": training / hz,
            "worker_utilisation": None if zero_time else ratio(training / hz, seconds),
            "transfer_cycles": lookup(measured, "rqftl.transfer_cycles"),
            "serving_transfer_share": ratio(lookup(measured, "rqftl.transfer_cycles") / hz,
                                            seconds),
            "ltc_hits": lookup(measured, "rqftl.ltc_hits"),
            "stc_hits": lookup(measured, "rqftl.stc_hits"),
            "ltc_ranges": ranges, "ltc_lpns": ltc_lpns,
            "mean_range_lpns": ratio(ltc_lpns, ranges),
            "ranges_invalidated": lookup(measured, "rqftl.ranges_invalidated"),
            "stc_target_lines": lookup(measured, "rqftl.stc_target_lines"),
            "train_failures": lookup(measured, "rqftl.train_failures"),
        })
    accel = lookup(stats, "platform.accel")
    if accel:  # the whole run's: the accelerator keeps no per-phase counts
        found["accel_utilisation"] = ratio(accel["busy_cycles"], accel["cycles"])
        found["accel_keys"] = accel["keys"]
        found["accel_reloads"] = lookup(run.ftl()["run"], "rqrmi_engine.reloads")
    if lookup(measured, "leaftl.bytes_index") is not None:
        found["leaftl_bytes_index"] = lookup(measured, "leaftl.bytes_index")
        found["leaftl_segments"] = lookup(measured, "leaftl.segments")
    return found


def range_series(run):
    """Figure 9: (seconds into the run, mean LPNs per long-term range) of an RQFTL run."""
    lpns = dict(run.series("rqftl.ltc_lpns"))
    out = []
    for t, ranges in run.series("rqftl.ltc_ranges"):
        if ranges and lpns.get(t) is not None:
            out.append((t / 1e9, lpns[t] / ranges))
    return out


def reduction(ours, theirs):
    """1 - ours / theirs: how much lower our miss rate is."""
    r = ratio(ours, theirs)
    return None if r is None else 1 - r


mean = ssdvp_results.mean


def claims(results):
    """The paper's claims beside ours, from the runs that exist."""
    by = {(r.get("kind"), r.get("app") or r.get("ratio"), r["scheme"], r.get("l2p"),
           r.get("stc_bytes"), bool(r.get("zero_time"))): r
          for r in results if not r.get("failed") and not r.get("accel")}

    def get(kind, key, scheme, l2p=L2P, stc=None, zero_time=False):
        return by.get((kind, key, scheme, l2p, stc, zero_time))

    apps = sorted({r["app"] for r in results if r.get("kind") == "app"}, key=list(APPS).index)
    rows = []
    for base in ("dftl", "sftl", "leaftl"):
        cuts = [reduction(get("app", a, "rqftl")["read_miss_rate"],
                          get("app", a, base)["read_miss_rate"])
                for a in apps if get("app", a, "rqftl") and get("app", a, base)]
        speed = [reduction(get("app", a, "rqftl")["read_latency_us"],
                           get("app", a, base)["read_latency_us"])
                 for a in apps if get("app", a, "rqftl") and get("app", a, base)]
        rows.append({"claim": f"mobile: read miss rate lower than {base.upper()}",
                     "paper": CLAIMS["mobile_miss_reduction"][base], "ours": mean(cuts),
                     "per_app": dict(zip(apps, cuts)) if cuts else None})
        rows.append({"claim": f"mobile: read latency lower than {base.upper()}",
                     "paper": CLAIMS["read_latency_speedup"][base], "ours": mean(speed)})
        ratios = sorted({r["ratio"] for r in results if r.get("kind") == "synthetic"})
        best = [ratio(get("synthetic", x, base)["read_miss_rate"],
                      get("synthetic", x, "rqftl")["read_miss_rate"])
                for x in ratios if get("synthetic", x, base) and get("synthetic", x, "rqftl")]
        best = [b for b in best if b is not None]
        rows.append({"claim": f"synthetic: miss rate up to N x lower than {base.upper()}",
                     "paper": CLAIMS["synthetic_miss_ratio_max"][base],
                     "ours": max(best) if best else None})
    leaftl_large = [get("app", a, "leaftl", L2P_LARGE) for a in apps]
    rq = [get("app", a, "rqftl") for a in apps]
    pairs = [(l, r) for l, r in zip(leaftl_large, rq) if l and r]
    if pairs:
        rows.append({"claim": "LeaFTL with 2x the L2P SRAM (512 KiB) reaches RQFTL's mean miss "
                              "rate at 256 KiB (ours: LeaFTL's mean minus RQFTL's)",
                     "paper": 0.0,
                     "ours": mean([l["read_miss_rate"] for l, _ in pairs])
                     - mean([r["read_miss_rate"] for _, r in pairs])})
    shares = [r.get("worker_utilisation") for r in results
              if r.get("kind") == "app" and r["scheme"] == "rqftl" and r.get("l2p") == L2P
              and not r.get("stc_bytes") and not r.get("zero_time") and not r.get("accel")
              and not r.get("failed")]
    if shares:
        rows.append({"claim": "training takes 1-3 % of the time (ours: the worker hart's busy "
                              "share, mean over the apps)",
                     "paper": CLAIMS["training_time_share"], "ours": mean(shares)})
    for r in results:
        if r.get("accel") and not r.get("failed"):
            timed = get("app", r["app"], "rqftl")
            rows.append({"claim": f"accelerator ({r['app'].upper()}, whole run): busy share of its "
                                  f"cycles; read miss rate with it (CPU lookups: "
                                  f"{fmt(timed and timed['read_miss_rate'])})",
                         "paper": None,
                         "ours": f"{fmt(r.get('accel_utilisation'))} busy, read miss "
                                 f"{fmt(r.get('read_miss_rate'), '.4f')}"})
    pairs = [(get("app", a, "rqftl"), get("app", a, "rqftl", zero_time=True)) for a in apps]
    pairs = [(t, z) for t, z in pairs if t and z]
    if pairs:
        rows.append({"claim": "Figure 10: read miss rate, timed minus zero-time training "
                              "(fraction points, mean over the apps)",
                     "paper": CLAIMS["zero_time_miss_points"],
                     "ours": mean([t["read_miss_rate"] - z["read_miss_rate"] for t, z in pairs]),
                     "per_app": {t["app"]: t["read_miss_rate"] - z["read_miss_rate"]
                                 for t, z in pairs}})
        rows.append({"claim": "Figure 10: read latency lower with zero-time training by (mean "
                              "over the apps)",
                     "paper": None, "ours": mean([reduction(z["read_latency_us"],
                                                            t["read_latency_us"])
                                                  for t, z in pairs])})
        rows.append({"claim": "Figure 10: transfers with zero-time training, x the timed runs' "
                              "(mean over the apps); the serving hart's transfer work, x",
                     "paper": None,
                     "ours": f"{fmt(mean([ratio(z['transfers'], t['transfers']) for t, z in pairs]), '.2f')}"
                             f"; {fmt(mean([ratio(z['transfer_cycles'], t['transfer_cycles']) for t, z in pairs]), '.2f')}"})
    return rows


# ---- plots and tables -----------------------------------------------------------------------

def plot(summary, out, runs_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = [r for r in summary["results"] if not r.get("failed")]
    nan = float("nan")

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(out / name, dpi=110)
        plt.close(fig)

    apps = [a for a in APPS if any(r.get("app") == a for r in results)]
    mobile = {(r["app"], r["scheme"]): r for r in results if r["kind"] == "app"
              and r["l2p"] == L2P and not r.get("stc_bytes") and not r.get("zero_time")
              and not r.get("accel")}
    schemes = [s for s in SCHEMES if any(k[1] == s for k in mobile)]
    if mobile:
        fig, axes = plt.subplots(1, 2, figsize=(11, 4))
        width = 0.8 / max(1, len(schemes))
        for i, scheme in enumerate(schemes):
            xs = [x + (i - (len(schemes) - 1) / 2) * width for x in range(len(apps))]
            for ax, key, scale in ((axes[0], "read_miss_rate", 100), (axes[1], "read_latency_us", 1)):
                ys = [(mobile.get((a, scheme)) or {}).get(key) for a in apps]
                ax.bar(xs, [nan if y is None else y * scale for y in ys], width, label=scheme)
        for ax, label in ((axes[0], "read miss rate (%)"), (axes[1], "mean read latency (us)")):
            ax.set_xticks(range(len(apps)), [a.upper() for a in apps])
            ax.set_ylabel(label)
        axes[0].legend(fontsize=8)
        fig.suptitle("Figure 5: mobile app profiles, 256 KiB L2P")
        save(fig, "fig5_mobile.png")
    large = {(r["app"], r["scheme"]): r for r in results if r["kind"] == "app"
             and r["l2p"] == L2P_LARGE}
    if large:
        fig, ax = plt.subplots(figsize=(9, 4))
        series = [(s, L2P) for s in ("sftl", "leaftl", "rqftl")] + \
                 [(s, L2P_LARGE) for s in ("sftl", "leaftl", "rqftl")
                  if any(scheme == s for _, scheme in large)]
        width = 0.8 / len(series)
        for i, (scheme, size) in enumerate(series):
            table = mobile if size == L2P else large
            ys = [(table.get((a, scheme)) or {}).get("read_miss_rate") for a in apps]
            ax.bar([x + (i - (len(series) - 1) / 2) * width for x in range(len(apps))],
                   [nan if y is None else y * 100 for y in ys], width,
                   label=f"{scheme} {size // KIB} KiB")
        ax.set_xticks(range(len(apps)), [a.upper() for a in apps])
        ax.set_ylabel("read miss rate (%)")
        ax.legend(fontsize=7, ncol=2)
        ax.set_title("Figure 6: miss rate at 256 and 512 KiB of L2P")
        save(fig, "fig6_l2p_size.png")
    static = [r for r in results if r.get("stc_bytes")]
    if static:
        fig, ax = plt.subplots(figsize=(7, 4))
        fig7_apps = [a for a in FIG7_APPS if any(r["app"] == a for r in static)]
        labels = [f"static {b // KIB} KiB" for b in STATIC_STC] + ["dynamic"]
        width = 0.8 / len(labels)
        for i, label in enumerate(labels):
            ys = []
            for a in fig7_apps:
                if label == "dynamic":
                    r = mobile.get((a, "rqftl"))
                else:
                    b = STATIC_STC[i]
                    r = next((x for x in static if x["app"] == a and x["stc_bytes"] == b), None)
                ys.append(nan if not r or r.get("read_miss_rate") is None
                          else r["read_miss_rate"] * 100)
            ax.bar([x + (i - (len(labels) - 1) / 2) * width for x in range(len(fig7_apps))], ys,
                   width, label=label)
        ax.set_xticks(range(len(fig7_apps)), [a.upper() for a in fig7_apps])
        ax.set_ylabel("read miss rate (%)")
        ax.legend(fontsize=8)
        ax.set_title("Figure 7: static and dynamic partition")
        save(fig, "fig7_partition.png")
    synthetic = {(r["ratio"], r["scheme"]): r for r in results if r["kind"] == "synthetic"}
    if synthetic:
        fig, ax = plt.subplots(figsize=(7, 4))
        ratios = sorted({k[0] for k in synthetic})
        for scheme in SCHEMES:
            ys = [(synthetic.get((x, scheme)) or {}).get("read_miss_rate") for x in ratios]
            if any(y is not None for y in ys):
                ax.plot(ratios, [nan if y is None else y * 100 for y in ys], "o-", label=scheme)
        ax.set_xlabel("read ratio (pages read / pages accessed)")
        ax.set_ylabel("read miss rate (%)")
        ax.legend(fontsize=8)
        ax.set_title("Figure 8: synthetic stress")
        save(fig, "fig8_synthetic.png")
    zero = {r["app"]: r for r in results if r.get("zero_time")}
    if zero:
        fig, axes = plt.subplots(1, 3, figsize=(14, 4))
        zapps = [a for a in apps if a in zero]
        for ax, key, scale, label in ((axes[0], "read_miss_rate", 100, "read miss rate (%)"),
                                      (axes[1], "read_latency_us", 1, "mean read latency (us)"),
                                      (axes[2], "transfers", 1, "transfers (measured phase)")):
            for i, (name, table) in enumerate((("timed training", {a: mobile.get((a, "rqftl"))
                                                                    for a in zapps}),
                                               ("zero-time training", zero))):
                ys = [(table.get(a) or {}).get(key) for a in zapps]
                ax.bar([x + (i - 0.5) * 0.4 for x in range(len(zapps))],
                       [nan if y is None else y * scale for y in ys], 0.4, label=name)
            ax.set_xticks(range(len(zapps)), [a.upper() for a in zapps])
            ax.set_ylabel(label)
        axes[0].legend(fontsize=8)
        fig.suptitle("Figure 10: RQFTL with zero-time training")
        save(fig, "fig10_zero_time.png")
    fig9 = summary.get("figure_9")
    if fig9 and fig9.get("series"):
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot([t for t, _ in fig9["series"]], [m for _, m in fig9["series"]])
        if fig9.get("execute_from_s") is not None:
            ax.axvline(fig9["execute_from_s"], color="grey", linestyle=":",
                       label="installation | execution")
            ax.legend(fontsize=8)
        ax.set_xlabel("simulated time (s)")
        ax.set_ylabel("mean LPNs per long-term range")
        ax.set_title(f"Figure 9: range size over time, {fig9['app'].upper()}")
        save(fig, "fig9_range_size.png")


def fmt(value, spec=".3f"):
    if value is None:
        return "n/a"
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return "-".join(fmt(v, spec) for v in value)
    return format(value, spec)


def markdown(summary):
    lines = ["# RQFTL (SYSTOR 2024) reproduced on ssdvp", "",
             ssdvp_results.wall_line(summary), "",
             "Scale: " + summary["scale"]["note"], "", "## The paper's claims beside ours", "",
             "| claim | paper | ours |", "|---|---|---|"]
    for row in summary["claims"]:
        lines.append(f"| {row['claim']} | {fmt(row['paper'], '.2f')} | {fmt(row['ours'], '.3f')} |")
    lines += ["", "## Runs (measured phase)", "",
              "| run | read miss | write miss | effective LPNs | read latency (us) | "
              "transfers | worker busy | mean range |", "|---|---|---|---|---|---|---|---|"]
    for r in summary["results"]:
        if r.get("failed"):
            lines.append(f"| {r['name']} | failed: {r['error'][:80]} | | | | | | |")
            continue
        lines.append(f"| {r['name']} | {fmt(r['read_miss_rate'])} | {fmt(r['write_miss_rate'])}"
                     f" | {fmt(r['effective_lpns'], '.0f')} | {fmt(r['read_latency_us'], '.1f')}"
                     f" | {fmt(r.get('transfers'), '.0f')} | {fmt(r.get('worker_utilisation'))}"
                     f" | {fmt(r.get('mean_range_lpns'), '.1f')} |")
    lines += ["", "## The app model beside Table 2", "",
              "| app | write pages (mean, SD) | read pages | chunk | TP reuse: Table 2 | "
              "model |", "|---|---|---|---|---|---|"]
    for app, model in summary["apps"].items():
        a = APPS[app]
        lines.append(f"| {app} ({a['app']}) | {a['write_pages']} -> {model['write_pages']} | "
                     f"{a['read_pages']} -> {model['read_pages']} | "
                     f"{model['chunk_bytes'] // KIB} KiB | {a['reuse'][0]} | "
                     f"{model['expected_tp_reuse']} |")
    if summary["not_run"]:
        lines += ["", "## Not run", ""] + [f"- {k}: {v}" for k, v in summary["not_run"].items()]
    return "\n".join(lines) + "\n"


# ---- running --------------------------------------------------------------------------------

parse_list = ssdvp_results.parse_list


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ssdsim", default=str(ROOT / "build" / "tb" / "ssdsim"))
    parser.add_argument("--firmware", default=None,
                        help="firmware image for every run (firmware.elf; default: the one "
                             "built with ssdsim), e.g. a copy kept while the tree is rebuilt")
    parser.add_argument("--out", default=str(ROOT / "results" / "reproduce" / "rqftl"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--apps", default=",".join(APPS))
    parser.add_argument("--schemes", default=",".join(SCHEMES))
    parser.add_argument("--experiments", default=",".join(DEFAULT_EXPERIMENTS),
                        help=f"of {', '.join(EXPERIMENTS)} (default "
                             f"{','.join(DEFAULT_EXPERIMENTS)})")
    parser.add_argument("--requests", type=int, default=DEFAULT_REQUESTS,
                        help="commands of each measured phase")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args(argv)
    apps = parse_list(args.apps, list(APPS), "app", parser)
    schemes = parse_list(args.schemes, list(SCHEMES), "scheme", parser)
    experiments = parse_list(args.experiments, list(EXPERIMENTS), "experiment", parser)
    requests = args.requests
    if requests < 1:
        parser.error("--requests: at least 1")
    if args.quick:
        apps, schemes, requests = QUICK["apps"], QUICK["schemes"], QUICK["requests"]
        experiments = QUICK["experiments"]
    out = ssdvp_results.check_run_options(args, parser)
    started = time.time()
    todo = points(experiments, apps, schemes, requests, args.quick)
    if args.firmware:
        for point in todo:
            point["scenario"]["firmware"]["elf"] = str(Path(args.firmware).resolve())
    results, done = ssdvp_results.run_points(
        args.ssdsim, out, todo, args.jobs, args.resume,
        lambda run, point: {**{k: v for k, v in point.items() if k not in ("scenario", "model")},
                            **figures_of(run, chunk_of_point(point))})
    order = {p["name"]: i for i, p in enumerate(sorted(
        todo, key=lambda p: (p["kind"], list(APPS).index(p["app"]) if "app" in p else p["ratio"],
                             p["l2p"], p.get("stc_bytes") or 0, SCHEMES.index(p["scheme"]))))}
    results.sort(key=lambda r: order[r["name"]])
    fig9 = None
    fig9_app = next((a for a in ("gi",) + tuple(APPS) if any(
        r.get("app") == a and r["scheme"] == "rqftl" and not r.get("failed") for r in results)),
        None)
    if fig9_app:
        run = ssdvp_results.load_run(out / "runs" / f"{fig9_app}_rqftl")
        execute = [t for t, _ in run.series("rqftl.ltc_ranges", phase=EXECUTE)]
        fig9 = {"app": fig9_app, "series": range_series(run),
                "execute_from_s": execute[0] / 1e9 if execute else None}
    summary = {
        "paper": "RQFTL: an RQRMI-indexed L2P cache (R. Marcus et al., SYSTOR 2024)",
        "scale": {
            "note": (f"device {DEVICE_BYTES // GIB} GiB of SLC (the paper's 1 TB), 512 planes, "
                     f"4 KiB pages, 200/1200 us; the apps' spans and worksets whole (Table 2)"
                     + (f", worksets capped at {QUICK['workset_cap'] // MIB} MiB (--quick)"
                        if args.quick else "")
                     + f"; {requests} measured commands per run (the traces: 0.66-8.2 M); "
                     f"the synthetic stress over a {SYNTHETIC['span'] // GIB} GiB span."),
            "device_bytes": DEVICE_BYTES, "paper": PAPER, "requests": requests,
            "paper_trace_commands": {a: APPS[a]["length"] for a in apps},
            "synthetic": SYNTHETIC, "quick": args.quick},
        "apps": {a: app_stream(a, args.quick)[1] for a in apps},
        "jobs": args.jobs, "runs": len(todo), "reused_runs": done["reused"],
        "wall_seconds": round(time.time() - started, 1),
        "runs_wall_seconds": round(sum(done["runs"].values()), 1),
        "not_run": {},
        "results": results,
        "figure_9": fig9,
    }
    summary["claims"] = claims(results)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    plot(summary, out, out / "runs")
    (out / "summary.md").write_text(markdown(summary))
    failed = [r["name"] for r in results if r.get("failed")]
    print(f"wrote {out}/summary.json, summary.md and the figures; "
          f"{ssdvp_results.wall_line(summary)}" + (f" Failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
