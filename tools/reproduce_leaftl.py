#!/usr/bin/env python3
"""Reproduces LeaFTL's simulator experiments on the mapping table (J. Sun et al., ASPLOS 2023,
../shared/papers/003_*.txt, sections 4.2, 4.4 and 4.5) on ssdsim.

    /usr/bin/python3 tools/reproduce_leaftl.py [--jobs 2] [--out results/reproduce/leaftl]
        [--profiles leaftl_hm,...] [--gammas 0,1,4,16] [--scale 1] [--memory 4MiB]
        [--no-fig16b] [--real-traces] [--quick] [--resume]

Runs each of the seven LeaFTL profiles (README "LeaFTL profiles": MSR hm_0, prn_0, prxy_0,
src2_0, usr_0, FIU homes and mail) with `firmware.scheme: leaftl` at error bound gamma 0, 1, 4
and 16, and writes summary.json (per profile and gamma: the mapping table in the paper's
accounting and ours, SFTL's and DFTL's for the same mappings after the warm-up and at the end,
segments, CRB bytes, the misprediction ratio, the levels searched per lookup, learning and
lookup cycles, the overwrites' OOB reads and the measured phase's mean read latency), PNGs like
Figures 15, 16b, 19, 23a and 24, and summary.md, the paper's claims beside ours.

Each run: a warm-up phase of the profile's own stream (the paper warms its SSD up by replaying
traces) whose writes total about twice the profile's footprint, then a measured phase of the same
stream (a new seed) writing about the footprint once more. One run gives every table size: the
scheme keeps LeaFTL's segments and counts, from the same mappings, DFTL's 8 bytes per mapped LPN
and (`ftl.leaftl.account_sftl`) SFTL's run heads and frames. The mapping budget is large enough
that nothing is ever evicted.

Figure 16b (latency when one memory of M bytes holds the mapping table and the data cache, the
table at most 80 % of it) in two passes per profile. M is the paper's DRAM per byte of device
(1 GiB for 2 TiB, 1/2048) times our 8 GiB device, 4 MiB (--memory overrides it). Pass 1, each
scheme's table under the unlimited budget, in our accounting: the memory it takes in
`ftl.map_budget`, the larger of its figure after the warm-up and at the end (stats keep no
peak). LeaFTL's from the gamma-0 run above (`leaftl.bytes_ours`); SFTL's and DFTL's from one
run each of `firmware.scheme: sftl` / `dftl` on the same scenario, as the budget that holds what
they cached (map.translatable_lpns, SFTL's extents; `map.table_bytes` is kept beside it, for
DFTL the paper's 8 B a mapping where its cache spends about 29). Pass 2, per scheme:
`ftl.map_budget` = min(table, 0.8 M), and the rest of M in pages is the data cache, the write
buffer keeping clean entries for reads (`ftl.write_buffer.clean_entries`); LeaFTL at gamma 0
with the paper's 256-page learning batch (`ftl.leaftl.batch_pages`); sram.size and dram.size
from pass 1's use. Same streams, seeds and phases. It reports the measured phase's mean latency
over every host command (and the reads' alone) and SFTL's and DFTL's over LeaFTL's. A LeaFTL
budget below what its table needs (capped at 0.8 M, or a table grown with a smaller write buffer
than pass 1's) makes LeaFTL evict whole groups to their translation pages and learn them again
(scheme.evictions, leaftl.groups_relearned); where nothing can leave, or with a firmware from
before group eviction, the run stops naming ftl.map_budget. Such a point, like any failed
Figure 16b run, is reported as failed with its log (runs/<name>/ssdsim.log) and the rest go on.
--gammas without 0 or --no-fig16b skips Figure 16b.

Scale (every factor is in summary.json "scale"): footprints are the profiles' times --scale
(default 1: 512 MiB to 4 GiB); the device has the paper's 4 KiB pages, 256 pages per block and
20 % over-provisioning (Table 1) but 8 GiB, not 2 TB; the write buffer (256 pages, the paper's
learning batch) is sorted when 90 % full (`ftl.fsp.policy: sorted`, `flush_watermark: 90`; the
Figure 16b runs too, for every scheme).

--real-traces also replays the two DiskSim traces of ../shared/traces (tpcc-small.trace and
ssdsim-example.ascii) as reproduce_rl_fsp.py replays them: folded onto the device, whole (--quick
too: a second or two each), at their own timestamps (the SSDsim example's a thousand times
faster). Each with `firmware.scheme: leaftl` at each gamma of --gammas on the profile runs' device
and settings (gamma 0 with `ftl.leaftl.account_sftl`), in one phase, the trace once: no warm-up
and no precondition, so the table is taken at the end only, and the misprediction ratio and levels
searched are over the whole trace (reads of LPNs not yet written predict nothing). summary.json
"traces" holds per trace and gamma the figures of "results" (after_warmup and warmup_commands
None; a failed run as failed, with its log), summary.md their own table; the paper's claims and
the figures stay the profiles' alone, and Figure 16b is not run for the traces.

--resume keeps finished runs whose scenario is unchanged; summary.md's wall time then says how
many were kept (their time is from when they ran).
"""

import argparse
import json
import math
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ssdvp_results  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# The profiles of tlm/host/synthetic_profile.cpp (README "LeaFTL profiles"): footprint in MiB at
# footprint_scale 1, read ratio, and the size mix's mean request in KiB. Only to size the
# phases; the runs' own figures come from stats.json.
PROFILES = {
    "leaftl_hm": {"footprint_mib": 650.0 / 0.313, "read": 0.355, "mean_kib": 8.8},
    "leaftl_prn": {"footprint_mib": 4096.0, "read": 0.108, "mean_kib": 12.6},
    "leaftl_prxy": {"footprint_mib": 512.0, "read": 0.031, "mean_kib": 8.8},
    "leaftl_src2": {"footprint_mib": 1024.0, "read": 0.113, "mean_kib": 8.8},
    "leaftl_usr": {"footprint_mib": 3072.0, "read": 0.404, "mean_kib": 30.2},
    "leaftl_home": {"footprint_mib": 1024.0, "read": 0.04, "mean_kib": 8.8},
    "leaftl_mail": {"footprint_mib": 2048.0, "read": 0.11, "mean_kib": 8.8},
}
GAMMAS = [0, 1, 4, 16]
DEFAULT_SCALE = 1.0
FOOTPRINT_QUANTUM = 64 * 1024  # the profiles round the scaled footprint to 64 KiB
WARMUP_WRITES = 2.0  # footprints written by the warm-up phase
MEASURE_WRITES = 1.0  # ... and by the measured phase
PAGE_BYTES = 4096  # the paper's (Table 1)
# The default geometry's 2 channels x 2 ways x 2 planes, with Table 1's page size, pages per
# block and over-provisioning: 8 GiB raw, 6.4 GiB exported, which holds leaftl_prn's 4 GiB.
NAND = {"blocks": 1024, "pages": 256, "page_size": "4KiB", "oob_size": "256B"}
PLANES = 2 * 2 * 2
FTL_OP = 0.2
PAPER = {"capacity_bytes": 2 * 10**12, "page_bytes": 4096, "pages_per_block": 256,
         "op": 0.2, "dram_bytes": 2**30, "oob_bytes": 128, "cpu": "ARM Cortex-A72",
         "learning_batch_lpns": 256}
# Unlimited: DFTL's table for every exported LPN is 12.8 MiB; LeaFTL's in our accounting stays
# below it unless every LPN is its own segment. The firmware's DFTL spends about 29 B a cached
# mapping: 32 MiB hold 1.17 million, more than the 1,048,576 LPNs of the largest footprint
# (leaftl_prn at --scale 1); Figure 16b's table runs report their evictions, 0 when it held all.
MAP_BUDGET = "32MiB"
SRAM = "64MiB"
DRAM = "8MiB"  # the write buffer only
WRITE_BUFFER_PAGES = 256  # = leaftl.batch_pages 0: one learning batch per buffer
FLUSH_WATERMARK = 90
QUEUE_DEPTH = 16
CPU_CLOCK = "800MHz"
CPU_HZ = 800e6
WARMUP, MEASURED = "warmup", "measure"
QUICK = {"profiles": ["leaftl_hm", "leaftl_prxy"], "gammas": [0, 16],
         "warmup_requests": 4000, "measure_requests": 2000}
# --real-traces: the two DiskSim traces of ../shared/traces (ssdvp_results.TRACES), whole (no
# request limit, --quick too: each takes a second or two). One phase, the trace once, named as the profiles' measured
# phase; no precondition, so reads of LPNs the trace has not written yet find no mapping.
TRACES = ssdvp_results.TRACES
# Figure 16b: one memory of M bytes holds the mapping table and the data cache, the table at
# most 80 % of it. M is the paper's DRAM per byte of device (1 GiB for 2 TiB) times our device.
PAPER_MEMORY_RATIO = 1 / 2048
TABLE_SHARE_MAX = 0.8
FIG16B_SCHEMES = ("leaftl", "sftl", "dftl")
FIG16B_GAMMA = 0  # the paper's default error bound, and the pass-1 LeaFTL run's
LEAFTL_BATCH_PAGES = 256  # the paper's learning batch, kept whatever the data cache's size
MIN_MAP_BUDGET = 1024  # ftl.map_budget's smallest value (ssdsim --list-params)
ARENA_ALIGN = 8  # firmware/lib/arena.h: each arena allocation is aligned (and charged) so
MIB = 2**20
SRAM_WINDOW, DRAM_WINDOW = 256 * MIB, 2048 * MIB  # sram.size and dram.size at most


def footprint_bytes(profile, scale):
    quanta = round(PROFILES[profile]["footprint_mib"] * scale * 2**20 / FOOTPRINT_QUANTUM)
    return max(1, quanta) * FOOTPRINT_QUANTUM


def phase_bytes(profile, scale, writes):
    """Bytes of requests (reads and writes: a phase's `bytes` counts both) whose writes total
    `writes` footprints, rounded to 64 KiB."""
    p = PROFILES[profile]
    total = writes * footprint_bytes(profile, scale) / (1 - p["read"])
    return round(total / FOOTPRINT_QUANTUM) * FOOTPRINT_QUANTUM


def expected_requests(profile, scale, writes):
    return round(phase_bytes(profile, scale, writes) / (PROFILES[profile]["mean_kib"] * 1024))


def scenario(name, profile, gamma, scale, quick, scheme="leaftl"):
    def phase(phase_name, writes, requests):
        # The stream's seed follows the phase's index: the measured phase draws its own
        # requests, and its own hot chunks (the profiles place them by a seeded permutation).
        stream = {"name": profile, "profile": profile, "footprint_scale": scale,
                  "queue_depth": QUEUE_DEPTH}
        found = {"name": phase_name, "streams": [stream]}
        if quick:
            found["requests"] = requests
        else:
            found["bytes"] = f"{phase_bytes(profile, scale, writes)}B"
        return found

    return device_scenario(name, gamma, scheme, [
        phase(WARMUP, WARMUP_WRITES, QUICK["warmup_requests"]),
        phase(MEASURED, MEASURE_WRITES, QUICK["measure_requests"])])


def trace_scenario(name, trace, gamma, requests=None):
    """A real trace's run: the profile runs' device and settings, one phase (MEASURED) replaying
    TRACES[trace] once, whole unless `requests` limits it."""
    phase = {"name": MEASURED, "streams": [dict(TRACES[trace], name=trace)]}
    if requests:
        phase["requests"] = requests
    return device_scenario(name, gamma, "leaftl", [phase])


def device_scenario(name, gamma, scheme, phases):
    """The device, firmware and host settings every run shares, with the workload's phases."""
    found = {
        "name": name, "seed": 1,
        "cpu": {"clock": CPU_CLOCK},
        "sram": {"size": SRAM}, "dram": {"size": DRAM},
        "nand": NAND,
        "firmware": {"scheme": scheme},
        "ftl": {"map_budget": MAP_BUDGET, "op": FTL_OP,
                "write_buffer": {"pages": WRITE_BUFFER_PAGES, "location": "dram",
                                 "flush_watermark": FLUSH_WATERMARK},
                "fsp": {"policy": "sorted"},
                # SFTL's run heads are kept exactly only at gamma 0 (the platform refuses more).
                "leaftl": {"gamma": gamma, "account_sftl": gamma == 0}},
        "host": {"oracle": True, "stats_interval": "0s"},
        "workload": {"phases": phases},
    }
    if scheme != "leaftl":
        del found["ftl"]["leaftl"]
    return found


def points(profiles, gammas, scale, quick):
    """Every run, the largest footprints and the smallest gammas (deeper tables) first."""
    found = []
    for profile in profiles:
        for gamma in gammas:
            name = f"{profile}_g{gamma}"
            found.append({"profile": profile, "gamma": gamma, "name": name,
                          "scenario": scenario(name, profile, gamma, scale, quick)})
    return sorted(found, key=lambda p: (-footprint_bytes(p["profile"], scale), p["gamma"]))


def trace_points(traces, gammas, requests=None):
    """Every real trace's run (kind "trace"), per trace the smallest gamma first."""
    return [{"kind": "trace", "trace": trace, "gamma": gamma, "name": f"{trace}_g{gamma}",
             "scenario": trace_scenario(f"{trace}_g{gamma}", trace, gamma, requests)}
            for trace in traces for gamma in sorted(gammas)]


run_point = ssdvp_results.run_point
lookup = ssdvp_results.lookup_or_none  # a metric by dotted path, None when absent


ratio = ssdvp_results.ratio


TABLES = ("bytes_paper", "bytes_ours", "bytes_sftl", "bytes_dftl")


def tables(span):
    return {key: lookup(span, f"leaftl.{key}") for key in TABLES}


def levels_cdf(counts):
    """[(levels, share of the lookups searching at most that many)] from the histogram (bucket
    i: i levels; the last bucket: that many or more). None when there was no lookup."""
    total = sum(counts)
    if not total:
        return None
    cdf, running = [], 0
    for levels, count in enumerate(counts):
        running += count
        if levels >= 1:
            cdf.append((levels, running / total))
    return cdf


def mean_levels(counts):
    """Mean levels searched per lookup (the last bucket counted at its lower bound)."""
    total = sum(counts)
    return None if not total else sum(i * c for i, c in enumerate(counts)) / total


clock_hz = ssdvp_results.clock_hz


def figures_of(run, warmup=WARMUP):
    """A run's figures: the table after the warm-up and at the end, the measured phase's
    predictions, lookups and latency, the whole run's learning and lookup costs. `warmup` None:
    a run of one phase (a real trace's), MEASURED; no table after a warm-up (None)."""
    stats = run.stats
    outcome = stats["outcome"]["outcome"]
    if outcome != "workload_done":
        raise RuntimeError(f"{run.path}: outcome {outcome}: {stats['outcome'].get('message')}")
    measured, whole = run.ftl_phase(MEASURED), run.ftl()["run"]
    hz = clock_hz(lookup(stats, "config.cpu.clock") or CPU_CLOCK)
    host = next(h for h in stats["host"]["phases"] if h["name"] == MEASURED)
    warm_host = (None if warmup is None else
                 next(h for h in stats["host"]["phases"] if h["name"] == warmup))
    read = host["ops"]["read"]
    counts = lookup(measured, "leaftl.levels_searched.counts") or []
    learned = lookup(whole, "leaftl.lpns_learned")
    learn = ratio(lookup(whole, "leaftl.learn_cycles"), learned)
    plr = ratio(lookup(whole, "leaftl.plr_cycles"), learned)
    per_lookup = ratio(lookup(whole, "leaftl.lookup_cycles"), lookup(whole, "leaftl.level_lookups"))
    predictions = lookup(measured, "scheme.predictions")
    update_predictions = lookup(measured, "leaftl.update_predictions")
    mispredictions = lookup(measured, "scheme.mispredictions")
    end = tables(whole)
    return {
        "outcome": outcome,
        "after_warmup": None if warmup is None else tables(run.ftl_phase(warmup)),
        "end": end,
        "ratio_dftl": ratio(end["bytes_dftl"], end["bytes_paper"]),
        "ratio_sftl": ratio(end["bytes_sftl"], end["bytes_paper"]),
        "ratio_dftl_ours": ratio(end["bytes_dftl"], end["bytes_ours"]),
        "mapped_lpns": lookup(whole, "leaftl.mapped_lpns"),
        "segments": lookup(whole, "leaftl.segments"),
        "approximate_segments": lookup(whole, "leaftl.approximate_segments"),
        "single_point_segments": lookup(whole, "leaftl.single_point_segments"),
        "crb_bytes": lookup(whole, "leaftl.crb_bytes"),
        "compactions": lookup(whole, "leaftl.compactions"),
        "map_evictions": lookup(whole, "scheme.evictions"),
        # Measured phase: host lookups' predictions (Figure 24), and apart from them the
        # overwrites whose old page had to be predicted.
        "predictions": predictions,
        "mispredictions": mispredictions,
        "misprediction_ratio": ratio(mispredictions, predictions),
        "update_predictions": update_predictions,
        "update_mispredictions": lookup(measured, "leaftl.update_mispredictions"),
        "levels_searched": counts,
        "levels_cdf": levels_cdf(counts),
        "mean_levels": mean_levels(counts),
        "update_oob_reads": lookup(measured, "map.update_oob_reads"),
        "update_oob_reads_run": lookup(whole, "map.update_oob_reads"),
        "read_latency_us": read["latency_ns"]["mean"] / 1000 if read["commands"] else None,
        "read_commands": read["commands"],
        "warmup_commands": None if warm_host is None else warm_host["commands"],
        "measure_commands": host["commands"],
        # Whole run (learning is mostly in the warm-up).
        "learn_cycles_per_256": None if learn is None else learn * 256,
        "plr_cycles_per_256": None if plr is None else plr * 256,
        "learn_us_per_256": None if learn is None else learn * 256 / hz * 1e6,
        "lookup_cycles": per_lookup,
        "lookup_ns": None if per_lookup is None else per_lookup / hz * 1e9,
        "cpu_hz": hz,
    }


# ---- Figure 16b: one memory for the mapping table and the data cache ------------------------

def device_bytes():
    return PLANES * NAND["blocks"] * NAND["pages"] * PAGE_BYTES


def default_memory_bytes():
    """M: the paper's DRAM per byte of device (1 GiB for 2 TiB) times our device (4 MiB)."""
    return round(device_bytes() * PAPER_MEMORY_RATIO)


def size_bytes(text):
    """A size as ssdsim takes it (B, KiB, MiB, GiB; KB, MB, GB) in bytes; a bare number is
    bytes."""
    units = {"GiB": 2**30, "MiB": 2**20, "KiB": 2**10, "GB": 10**9, "MB": 10**6, "KB": 10**3,
             "B": 1}
    text = str(text).strip()
    for unit, factor in units.items():
        if text.endswith(unit):
            return round(float(text[:-len(unit)]) * factor)
    return round(float(text))


def ceil_mib(value):
    return -(-int(value) // MIB) * MIB


def table_point(profile, scheme, scale, quick):
    """Pass 1 for SFTL and DFTL: the gamma-0 LeaFTL run's scenario with the scheme swapped, under
    the same budget (MAP_BUDGET), which holds a mapping of every LPN any profile touches."""
    name = f"{profile}_{scheme}_table"
    return {"kind": "table", "profile": profile, "scheme": scheme, "name": name,
            "scenario": scenario(name, profile, FIG16B_GAMMA, scale, quick, scheme)}


def regions(stats):
    return {r["name"]: r["bytes"] for r in stats["ftl"]["memory"]["regions"]}


def memory_use(stats):
    """What a run's firmware took: SRAM and DRAM used, the map budget's regions, the SRAM the
    firmware image keeps (sram.size minus the arena's budget), the write buffer's pages."""
    memory, found = stats["ftl"]["memory"], regions(stats)
    return {"sram_used": memory["sram"]["used_bytes"],
            "sram_reserved": size_bytes(lookup(stats, "config.sram.size"))
            - memory["sram"]["budget_bytes"],
            "dram_used": memory["dram"]["used_bytes"],
            "map_region_bytes": sum(b for n, b in found.items() if n.startswith("map.")),
            "write_buffer_pages": lookup(stats, "config.ftl.write_buffer.pages")}


def dftl_table_bytes(found, entries):
    """The map budget in which DFTL (entry mode, firmware/ftl/map/dftl.c) caches `entries`
    mappings: per mapping its slot arrays (LPN, VPN, LRU, hash and dirty links, flag: their
    bytes per slot from the pass-1 run's regions) and at most one 4-byte hash bucket; besides,
    the dirty-list heads, the patch buffer and the alignment of its 9 allocations."""
    capacity = found["map.dftl.lpn"] // 4
    per_slot = sum(found[f"map.dftl.{n}"] for n in
                   ("lpn", "vpn", "lru", "hash_next", "flags", "dirty_next")) / capacity
    fixed = found["map.dftl.dirty_heads"] + found["map.dftl.patches"] + 9 * ARENA_ALIGN
    return fixed + math.ceil(entries * (per_slot + 4))


def sftl_table_bytes(found, tps, pool_bytes, entries_per_tp=PAGE_BYTES // 4):
    """The map budget in which SFTL (firmware/ftl/map/sftl.c) caches `tps` translation pages
    whose extents take `pool_bytes`: sftl_init splits what is left after two scratch pages
    between slots (their bytes per slot from the pass-1 run's regions, plus a 4-byte bucket) and
    the extent pool in the ratio of a slot to a typical extent (8 runs), and keeps one raw TP
    of pool; so both the slots and the pool must fit that split."""
    slots = found["map.sftl.tp"] // 4
    per_slot = sum(found[f"map.sftl.{n}"] for n in
                   ("tp", "hash_next", "lru", "extent", "flags", "dirty_count", "dirty_offset",
                    "dirty_vpn")) / slots + 4
    bitmap_words = -(-entries_per_tp // 32)
    rank_words = (-(-bitmap_words // 8) + 1) // 2
    typical = 4 * (2 + bitmap_words + rank_words + 8)
    raw = 4 * (2 + entries_per_tp)
    fixed = found["map.sftl.merged"] + found["map.sftl.evicted"] + 12 * ARENA_ALIGN + 8
    available = max(tps * (per_slot + typical),
                    (pool_bytes + raw) * (per_slot + typical) / typical)
    return fixed + math.ceil(available)


def table_of(run, scheme):
    """Pass 1: the memory the scheme's table takes in ftl.map_budget (our accounting), the
    larger of its figure after the warm-up and at the end (the two samples a run keeps; stats
    has no peak). LeaFTL: leaftl.bytes_ours (group records, extents, levels, CRBs, the batch,
    scratch) and the pool's alignment; DFTL and SFTL: the budget that holds what they cached
    (map.translatable_lpns, and SFTL's extents, map.table_bytes). map.table_bytes itself is kept
    as table_gauge_bytes (DFTL's: 8 B a mapping, the paper's accounting)."""
    stats = run.stats
    outcome = stats["outcome"]["outcome"]
    if outcome != "workload_done":
        raise RuntimeError(f"{run.path}: outcome {outcome}: {stats['outcome'].get('message')}")
    spans = (run.ftl_phase(WARMUP), run.ftl()["run"])

    def peak(path):
        values = [v for v in (lookup(s, path) for s in spans) if v is not None]
        return max(values) if values else None

    found = regions(stats)
    if scheme == "leaftl":
        table = peak("leaftl.bytes_ours") + 2 * ARENA_ALIGN
    elif scheme == "dftl":
        table = dftl_table_bytes(found, peak("map.translatable_lpns"))
    elif scheme == "sftl":
        tps = -(-peak("map.translatable_lpns") // (PAGE_BYTES // 4))
        table = sftl_table_bytes(found, tps, peak("map.table_bytes"))
    else:
        raise ValueError(f"no table accounting for scheme {scheme}")
    return {"scheme": scheme, "table_bytes": table, "table_gauge_bytes": peak("map.table_bytes"),
            "evictions": lookup(spans[1], "scheme.evictions"), "use": memory_use(stats)}


def memory_split(table_bytes, memory_bytes, page_bytes=PAGE_BYTES):
    """The map budget, min(table, 80 % of M) (never below ftl.map_budget's smallest value), and
    the data cache, the rest of M in whole pages."""
    cap = int(TABLE_SHARE_MAX * memory_bytes)
    budget = max(MIN_MAP_BUDGET, min(int(table_bytes), cap))
    cache_bytes = memory_bytes - budget
    if cache_bytes < page_bytes:
        raise ValueError(f"memory {memory_bytes} B leaves no page for the data cache")
    return {"map_budget": budget, "cache_bytes": cache_bytes,
            "cache_pages": cache_bytes // page_bytes, "capped": table_bytes > cap}


def memory_sizes(use, budget, cache_pages, page_bytes=PAGE_BYTES):
    """sram.size and dram.size for a Figure 16b run, from its pass-1 run's use: in SRAM the map
    budget, the rest of that run's arena (scaled up with the write buffer's slots, whose index,
    owners, mapping updates and waiters grow with them) and what the image keeps; in DRAM the
    cache's pages and whatever else that run put there. Never below the other runs' sizes;
    rounded up to MiB. ValueError past the platform's windows."""
    grow = max(1.0, cache_pages / use["write_buffer_pages"])
    sram = (budget + (use["sram_used"] - use["map_region_bytes"]) * grow
            + use["sram_reserved"])
    dram = (cache_pages * page_bytes
            + max(0, use["dram_used"] - use["write_buffer_pages"] * page_bytes))
    sram, dram = max(size_bytes(SRAM), ceil_mib(sram)), max(size_bytes(DRAM), ceil_mib(dram))
    if sram > SRAM_WINDOW or dram > DRAM_WINDOW:
        raise ValueError(f"sram.size {sram} B or dram.size {dram} B past the platform's "
                         f"{SRAM_WINDOW} and {DRAM_WINDOW} B")
    return sram, dram


def fig16b_point(profile, scheme, scale, quick, table, memory_bytes):
    """Pass 2: the profile's gamma-0 scenario with the scheme's map budget and data cache (the
    write buffer, clean entries kept for reads) splitting M; LeaFTL at gamma 0 with the paper's
    256-page learning batch."""
    split = memory_split(table["table_bytes"], memory_bytes)
    sram, dram = memory_sizes(table["use"], split["map_budget"], split["cache_pages"])
    name = f"{profile}_fig16b_{scheme}"
    s = scenario(name, profile, FIG16B_GAMMA, scale, quick, scheme)
    s["sram"]["size"], s["dram"]["size"] = f"{sram // MIB}MiB", f"{dram // MIB}MiB"
    s["ftl"]["map_budget"] = f"{split['map_budget']}B"
    s["ftl"]["write_buffer"].update({"pages": split["cache_pages"], "clean_entries": True})
    if scheme == "leaftl":
        s["ftl"]["leaftl"] = {"gamma": FIG16B_GAMMA, "batch_pages": LEAFTL_BATCH_PAGES}
    return {"kind": "fig16b", "profile": profile, "scheme": scheme, "name": name, "scenario": s,
            "memory_bytes": memory_bytes, "table_bytes": table["table_bytes"],
            "table_gauge_bytes": table["table_gauge_bytes"],
            "pass1_evictions": table["evictions"], **split, "sram_bytes": sram,
            "dram_bytes": dram}


def latency_of(run):
    """A Figure 16b run's measured phase: mean latency over every host command (reads and
    writes), the reads' and the writes' apart, and what the map and the cache did."""
    stats = run.stats
    outcome = stats["outcome"]["outcome"]
    if outcome != "workload_done":
        raise RuntimeError(f"outcome {outcome}: {stats['outcome'].get('message')}")
    host = next(h for h in stats["host"]["phases"] if h["name"] == MEASURED)
    measured = run.ftl_phase(MEASURED)
    served = [(op["commands"], op["latency_ns"]["mean"]) for op in host["ops"].values()
              if op["commands"]]
    commands = sum(c for c, _ in served)

    def op_us(name):
        op = host["ops"].get(name) or {}
        return op["latency_ns"]["mean"] / 1000 if op.get("commands") else None

    return {"latency_us": sum(c * m for c, m in served) / commands / 1000 if commands else None,
            "read_latency_us": op_us("read"), "write_latency_us": op_us("write"),
            "commands": commands, "map_hit_ratio": lookup(measured, "map.hit_ratio"),
            "map_evictions": lookup(measured, "scheme.evictions"),
            "groups_relearned": lookup(measured, "leaftl.groups_relearned"),
            "tp_reads": lookup(measured, "tp_reads"),
            "cache_read_hits": lookup(measured, "cache.read_hits"),
            "host_read_pages": lookup(measured, "host_read_pages")}


failure_reason = ssdvp_results.failure_reason


def fig16b_ratios(results, key="latency_us"):
    """Per baseline: per profile its `key` over LeaFTL's, and the mean and max over the profiles
    where both ran."""
    value = {(r["profile"], r["scheme"]): r.get(key) for r in results}
    profiles = list(dict.fromkeys(r["profile"] for r in results))
    found = {}
    for scheme in FIG16B_SCHEMES[1:]:
        per = {p: ratio(value.get((p, scheme)), value.get((p, "leaftl"))) for p in profiles}
        per = {p: v for p, v in per.items() if v is not None}
        found[scheme] = {"per_profile": per, "mean": mean(per.values()),
                         "max": max(per.values(), default=None)}
    return found


# ---- aggregation and the claims ------------------------------------------------------------

def by_point(results):
    return {(r["profile"], r["gamma"]): r for r in results}


mean = ssdvp_results.mean


def span(values):
    values = [v for v in values if v is not None]
    return (min(values), max(values)) if values else None


def times(x):
    return "n/a" if x is None else f"{x:.1f}x"


def times_span(s):
    return "n/a" if s is None else f"{s[0]:.1f}-{s[1]:.1f}x"


pct = ssdvp_results.pct


def gamma_reduction(results, gamma):
    """Per profile: table at gamma 0 / table at `gamma` (paper's accounting)."""
    table = by_point(results)
    found = {}
    for (profile, g), r in table.items():
        base = table.get((profile, 0))
        if g == gamma and base is not None:
            value = ratio(base["end"]["bytes_paper"], r["end"]["bytes_paper"])
            if value is not None:
                found[profile] = value
    return found


def claims(results, fig16b=None):
    """(claim, the paper's figure, ours) rows; a figure not run reads n/a. `fig16b`: the Figure
    16b runs' records (None: not run)."""
    g0 = [r for r in results if r["gamma"] == 0]
    rows = []
    dftl = [r["ratio_dftl"] for r in g0]
    rows.append(("Mapping table, DFTL's / LeaFTL's, gamma 0 (range over the traces)",
                 "7.5-37.7x", times_span(span(dftl))))
    rows.append(("Mapping table, SFTL's / LeaFTL's, gamma 0: mean (max)", "2.9x (5.3x)",
                 f"{times(mean(r['ratio_sftl'] for r in g0))} "
                 f"({times(max([r['ratio_sftl'] for r in g0 if r['ratio_sftl']], default=None))})"))
    rows.append(("Same, LeaFTL in our accounting (extents, levels, CRBs): DFTL's / ours",
                 "-", times_span(span(r["ratio_dftl_ours"] for r in g0))))
    g16 = gamma_reduction(results, 16)
    rows.append(("Mapping table at gamma 0 / at gamma 16, mean", "1.3x",
                 times(mean(g16.values()))))
    r16 = [r for r in results if r["gamma"] == 16 and r["misprediction_ratio"] is not None]
    under = sum(1 for r in r16 if r["misprediction_ratio"] < 0.10)
    rows.append(("Misprediction ratio at gamma 16", "most traces under 10 %",
                 "n/a" if not r16 else
                 f"{under} of {len(r16)} under 10 %; {pct(min(r['misprediction_ratio'] for r in r16))}"
                 f" to {pct(max(r['misprediction_ratio'] for r in r16))}"))
    for metric, key, us_key, paper, unit in (
            ("Learning a batch of 256 LPNs", "learn_cycles_per_256", "learn_us_per_256",
             "9.8-10.8 us (gamma 0-4, Cortex-A72)", "us"),
            ("Lookup per LPN", "lookup_cycles", "lookup_ns",
             "40.2-67.5 ns (gamma 0-4, Cortex-A72)", "ns")):
        for gamma in sorted({r["gamma"] for r in results}):
            at = [r for r in results if r["gamma"] == gamma]
            cycles, real = span(r[key] for r in at), span(r[us_key] for r in at)
            ours = ("n/a" if cycles is None else
                    f"{cycles[0]:,.0f}-{cycles[1]:,.0f} cycles, {real[0]:,.1f}-{real[1]:,.1f} "
                    f"{unit} at {at[0]['cpu_hz'] / 1e6:.0f} MHz")
            plr = span(r.get("plr_cycles_per_256") for r in at)
            if key == "learn_cycles_per_256" and plr is not None:
                ours += f" (PLR alone {plr[0]:,.0f}-{plr[1]:,.0f} cycles)"
            rows.append((f"{metric}, gamma {gamma}", paper, ours))
    g0_cdf = [r for r in g0 if r["levels_cdf"]]
    top = [r["levels_cdf"][0][1] for r in g0_cdf]
    within10 = [r["levels_cdf"][9][1] for r in g0_cdf if len(r["levels_cdf"]) >= 10]
    rows.append(("Lookups answered at the topmost level, gamma 0",
                 "90 % for most traces",
                 "n/a" if not top else f"{sum(t >= 0.9 for t in top)} of {len(top)} at 90 % or "
                 f"more; {pct(min(top))} to {pct(max(top))}"))
    rows.append(("Lookups within 10 levels, gamma 0", "99 %",
                 "n/a" if not within10 else f"{pct(min(within10))} to {pct(max(within10))}"))
    prn = by_point(results).get(("leaftl_prn", 0))
    rows.append(("Levels searched per lookup, MSR-prn", "1.4 on average",
                 "n/a" if prn is None or prn["mean_levels"] is None else
                 f"{prn['mean_levels']:.2f} (gamma 0)"))
    rows += fig16b_claims(fig16b)
    return rows


def fig16b_claims(fig16b):
    """Figure 16b's rows: each baseline's mean latency over LeaFTL's, mean (max) over the
    profiles where both ran, and how many did not."""
    ratios = fig16b_ratios(fig16b or [])
    profiles = list(dict.fromkeys(r["profile"] for r in fig16b or []))
    rows = []
    for scheme, paper in (("sftl", "1.4x (3.4x)"), ("dftl", "1.6x (4.9x)")):
        claim = (f"Figure 16b: mean latency, {scheme.upper()}'s / LeaFTL's, one memory for "
                 f"table and data cache (table at most 80 %): mean (max)")
        if fig16b is None:
            rows.append((claim, paper, "not run"))
            continue
        r = ratios[scheme]
        ours = f"{times(r['mean'])} ({times(r['max'])})"
        ours += f" over {len(r['per_profile'])} of {len(profiles)} profiles"
        failed = sorted({f"{x['profile']} {x['scheme']}" for x in fig16b if x.get("failed")
                         and x["scheme"] in ("leaftl", scheme)})
        if failed:
            ours += f"; failed: {', '.join(failed)}"
        rows.append((claim, paper, ours))
    return rows


# ---- figures and summary.md ----------------------------------------------------------------

def plot(summary, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = summary["results"]
    table = by_point(results)
    profiles = list(dict.fromkeys(r["profile"] for r in results))
    gammas = sorted({r["gamma"] for r in results})
    nan = float("nan")
    xs = range(len(profiles))
    labels = [p.replace("leaftl_", "") for p in profiles]

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(out / name, dpi=110)
        plt.close(fig)

    if 0 in gammas:
        fig, ax = plt.subplots(figsize=(8, 4))
        series = (("DFTL", "bytes_dftl"), ("SFTL", "bytes_sftl"),
                  ("LeaFTL (paper's accounting)", "bytes_paper"), ("LeaFTL (ours)", "bytes_ours"))
        width = 0.8 / len(series)
        for i, (label, key) in enumerate(series):
            ys = [(table.get((p, 0)) or {}).get("end", {}).get(key) for p in profiles]
            ax.bar([x + (i - (len(series) - 1) / 2) * width for x in xs],
                   [nan if y is None else y for y in ys], width, label=label)
        ax.set_yscale("log")
        ax.set_xticks(list(xs), labels)
        ax.set_ylabel("mapping table (bytes, log)")
        ax.legend(fontsize=8)
        ax.set_title("Figure 15: mapping table size at the end, gamma 0")
        save(fig, "fig15_table_size.png")
        fig, ax = plt.subplots(figsize=(8, 4))
        width = 0.8 / len(gammas)
        for i, gamma in enumerate(gammas):
            ys = [ratio((table.get((p, gamma)) or {}).get("end", {}).get("bytes_paper"),
                        (table.get((p, 0)) or {}).get("end", {}).get("bytes_paper"))
                  for p in profiles]
            ax.bar([x + (i - (len(gammas) - 1) / 2) * width for x in xs],
                   [nan if y is None else y for y in ys], width, label=f"gamma {gamma}")
        ax.set_xticks(list(xs), labels)
        ax.set_ylabel("table size / gamma 0's")
        ax.legend(fontsize=8)
        ax.set_title("Figure 19: mapping table (paper's accounting) per gamma")
        save(fig, "fig19_gamma.png")
    shown = [g for g in gammas if g > 0]
    if shown:
        fig, ax = plt.subplots(figsize=(8, 4))
        width = 0.8 / len(shown)
        for i, gamma in enumerate(shown):
            ys = [(table.get((p, gamma)) or {}).get("misprediction_ratio") for p in profiles]
            ax.bar([x + (i - (len(shown) - 1) / 2) * width for x in xs],
                   [nan if y is None else 100 * y for y in ys], width, label=f"gamma {gamma}")
        ax.set_xticks(list(xs), labels)
        ax.set_ylabel("mispredictions (% of predictions)")
        ax.legend(fontsize=8)
        ax.set_title("Figure 24: misprediction ratio (host reads and overwrites' OOB reads)")
        save(fig, "fig24_mispredictions.png")
    fig, axes = plt.subplots(1, len(gammas), squeeze=False, figsize=(4 * len(gammas), 3.5))
    for ax, gamma in zip(axes[0], gammas):
        for p in profiles:
            r = table.get((p, gamma))
            if r and r["levels_cdf"]:
                ax.step([x for x, _ in r["levels_cdf"]], [y for _, y in r["levels_cdf"]],
                        where="post", label=p.replace("leaftl_", ""))
        ax.set_title(f"gamma {gamma}", fontsize=9)
        ax.set_xlabel("levels searched (last: that many or more)", fontsize=8)
        ax.set_ylabel("CDF of lookups", fontsize=8)
        ax.set_ylim(0, 1.02)
        ax.legend(fontsize=7)
    fig.suptitle("Figure 23a: levels searched per lookup, measured phase")
    save(fig, "fig23a_levels_cdf.png")
    if summary.get("figure_16b"):
        plot_fig16b(summary["figure_16b"], out, plt)


def plot_fig16b(fig16b, out, plt):
    """Grouped bars per profile: the measured phase's mean latency (every host command) of each
    scheme normalised to LeaFTL's (left, as the paper's Figure 16b) and absolute (right); a
    failed run is a missing bar marked "failed"."""
    results = fig16b["results"]
    table = {(r["profile"], r["scheme"]): r for r in results}
    profiles = list(dict.fromkeys(r["profile"] for r in results))
    labels = [p.replace("leaftl_", "") for p in profiles]
    xs = range(len(profiles))
    width = 0.8 / len(FIG16B_SCHEMES)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4))
    for ax, normalised in zip(axes, (True, False)):
        for i, scheme in enumerate(FIG16B_SCHEMES):
            x = [x + (i - (len(FIG16B_SCHEMES) - 1) / 2) * width for x in xs]
            ys = []
            for p in profiles:
                r = table.get((p, scheme)) or {}
                base = (table.get((p, "leaftl")) or {}).get("latency_us")
                y = ratio(r.get("latency_us"), base) if normalised else r.get("latency_us")
                ys.append(float("nan") if y is None else y)
            ax.bar(x, ys, width, label=scheme.upper() if scheme != "leaftl" else "LeaFTL")
            for xi, p in zip(x, profiles):
                if (table.get((p, scheme)) or {}).get("failed"):
                    ax.text(xi, 0, "failed", rotation=90, ha="center", va="bottom", fontsize=7)
        if normalised:
            ax.axhline(1.0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xticks(list(xs), labels)
        ax.set_ylabel("mean latency / LeaFTL's" if normalised else "mean latency (us)")
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=3)
    axes[0].set_title("normalised to LeaFTL (lower is better)", fontsize=9)
    axes[1].set_title("absolute", fontsize=9)
    fig.suptitle(f"Figure 16b: one memory of {fig16b['memory_bytes'] / MIB:g} MiB for table and "
                 f"data cache (table at most {TABLE_SHARE_MAX:.0%}), measured phase")
    fig.tight_layout()
    fig.savefig(out / "fig16b_latency.png", dpi=110)
    plt.close(fig)


def fmt(value, spec):
    return "n/a" if value is None else format(value, spec)


def markdown(summary):
    results = summary["results"]
    lines = ["# LeaFTL (ASPLOS 2023) reproduction", "",
             f"Scale: {json.dumps(summary['scale'])}", "",
             ssdvp_results.wall_line(summary), "",
             "## The paper's claims beside ours", "",
             "Table sizes at the end of the run; ratios averaged per trace as the paper's; "
             "n/a: not run or not reported."
             + (" From the profiles' runs alone: the real traces are in their own table (Real "
                "traces)." if summary.get("traces") is not None else ""), "",
             "| claim | paper | ours |", "|---|---|---|"]
    lines += [f"| {claim} | {paper} | {ours} |" for claim, paper, ours in summary["claims"]]
    if summary["not_run"]:
        lines += ["", "## Not run", ""] + list(summary["not_run"].values())
    lines += [""] + fig16b_markdown(summary.get("figure_16b"))
    lines += ["## Per run", "",
              "Bytes at the end (after the warm-up in brackets, paper's accounting). SFTL n/a: "
              "counted at gamma 0 only (through predictions it cannot be kept).", "",
              "| profile | gamma | LeaFTL paper | LeaFTL ours | SFTL | DFTL | DFTL/LeaFTL | "
              "SFTL/LeaFTL | segments (approx., single) | CRB B | mispred. | mean levels | "
              "learn cyc/256 (PLR) | lookup cyc | update OOB reads | read lat. us |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        e, w = r["end"], r["after_warmup"]
        lines.append(
            f"| {r['profile']} | {r['gamma']} | {fmt(e['bytes_paper'], ',')} "
            f"({fmt(w['bytes_paper'], ',')}) | {fmt(e['bytes_ours'], ',')} | "
            f"{fmt(e['bytes_sftl'], ',')} | {fmt(e['bytes_dftl'], ',')} | "
            f"{fmt(r['ratio_dftl'], '.1f')} | {fmt(r['ratio_sftl'], '.2f')} | "
            f"{fmt(r['segments'], ',')} ({fmt(r['approximate_segments'], ',')}, "
            f"{fmt(r['single_point_segments'], ',')}) | {fmt(r['crb_bytes'], ',')} | "
            f"{pct(r['misprediction_ratio'])} | {fmt(r['mean_levels'], '.2f')} | "
            f"{fmt(r['learn_cycles_per_256'], ',.0f')} ({fmt(r['plr_cycles_per_256'], ',.0f')})"
            f" | {fmt(r['lookup_cycles'], ',.0f')} | {fmt(r['update_oob_reads'], ',')} | "
            f"{fmt(r['read_latency_us'], '.0f')} |")
    if summary.get("traces") is not None:
        lines += [""] + traces_markdown(summary["traces"])
    return "\n".join(lines) + "\n"


def traces_markdown(traces):
    """summary.md's rows of the real traces (--real-traces), failed runs with their log."""
    lines = ["## Real traces", "",
             "The traces of ../shared/traces, each replayed once, whole, in one phase (no "
             "warm-up: the table is at the end only), folded onto the device, on the profile "
             "runs' device and settings. Bytes at the end; SFTL n/a above gamma 0 (as above). "
             "Mispredictions and levels: the host lookups' over the whole trace (gamma 0 "
             "predicts nothing); reads of LPNs not yet written find no mapping and predict "
             "nothing.", "",
             "| trace | gamma | commands (reads) | mapped LPNs | LeaFTL paper | LeaFTL ours | SFTL "
             "| DFTL | DFTL/LeaFTL | SFTL/LeaFTL | DFTL/ours | segments (approx., single) | CRB B "
             "| predictions | mispred. | mean levels | learn cyc/256 (PLR) | lookup cyc | "
             "update OOB reads | read lat. us | wall s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
             "---|"]
    for r in traces:
        if r.get("failed"):
            lines.append(f"| {r['trace']} | {r['gamma']} | FAILED: {r['error']} "
                         f"({r.get('log') or 'no log'}) |" + " |" * 18)
            continue
        e = r["end"]
        lines.append(
            f"| {r['trace']} | {r['gamma']} | {fmt(r['measure_commands'], ',')} "
            f"({fmt(r['read_commands'], ',')}) | {fmt(r['mapped_lpns'], ',')} | "
            f"{fmt(e['bytes_paper'], ',')} | {fmt(e['bytes_ours'], ',')} | "
            f"{fmt(e['bytes_sftl'], ',')} | {fmt(e['bytes_dftl'], ',')} | "
            f"{fmt(r['ratio_dftl'], '.1f')} | {fmt(r['ratio_sftl'], '.2f')} | "
            f"{fmt(r['ratio_dftl_ours'], '.2f')} | "
            f"{fmt(r['segments'], ',')} ({fmt(r['approximate_segments'], ',')}, "
            f"{fmt(r['single_point_segments'], ',')}) | {fmt(r['crb_bytes'], ',')} | "
            f"{fmt(r['predictions'], ',')} | {pct(r['misprediction_ratio'])} | "
            f"{fmt(r['mean_levels'], '.2f')} | "
            f"{fmt(r['learn_cycles_per_256'], ',.0f')} ({fmt(r['plr_cycles_per_256'], ',.0f')})"
            f" | {fmt(r['lookup_cycles'], ',.0f')} | {fmt(r['update_oob_reads'], ',')} | "
            f"{fmt(r['read_latency_us'], '.0f')} | {fmt(r.get('wall_seconds'), '.1f')} |")
    return lines + [""]


def fig16b_markdown(fig16b):
    if not fig16b:
        return []
    lines = ["## Figure 16b: one memory for the mapping table and the data cache", "",
             f"M = {fig16b['memory_bytes']:,} B ({fig16b['memory_source']}); map budget = "
             f"min(table, {TABLE_SHARE_MAX:.0%} of M), the data cache (write buffer with clean "
             "entries) the rest in pages. Table: pass 1's memory in the map budget, our "
             "accounting (LeaFTL: leaftl.bytes_ours; DFTL, SFTL: the budget holding what they "
             "cached); gauge: map.table_bytes. Latency: the measured phase's mean over every "
             "host command (reads and writes), and the reads' alone.", "",
             "| profile | scheme | table B | gauge B | map budget B | capped | cache pages | "
             "SRAM / DRAM MiB | mean lat. us | read lat. us | / LeaFTL | map hit | map evictions "
             "| cache read hits | outcome |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    table = {(r["profile"], r["scheme"]): r for r in fig16b["results"]}
    for r in fig16b["results"]:
        base = (table.get((r["profile"], "leaftl")) or {}).get("latency_us")
        sizes = ("n/a" if r.get("sram_bytes") is None else
                 f"{r['sram_bytes'] // MIB} / {r['dram_bytes'] // MIB}")
        outcome = f"FAILED: {r['error']} ({r.get('log') or 'no log'})" if r.get("failed") else "ok"
        lines.append(
            f"| {r['profile']} | {r['scheme']} | {fmt(r.get('table_bytes'), ',')} | "
            f"{fmt(r.get('table_gauge_bytes'), ',')} | {fmt(r.get('map_budget'), ',')} | "
            f"{'yes' if r.get('capped') else 'no'} | {fmt(r.get('cache_pages'), ',')} | {sizes} | "
            f"{fmt(r.get('latency_us'), '.1f')} | {fmt(r.get('read_latency_us'), '.1f')} | "
            f"{fmt(ratio(r.get('latency_us'), base), '.2f')} | {pct(r.get('map_hit_ratio'))} | "
            f"{fmt(r.get('map_evictions'), ',')} | {fmt(r.get('cache_read_hits'), ',')} | "
            f"{outcome} |")
    return lines + [""]


parse_list = ssdvp_results.parse_list


def scale_block(profiles, scale, quick, memory_bytes=None, traces=None):
    device = device_bytes()
    found = {
        "footprint_scale": scale,
        "footprint_bytes": {p: footprint_bytes(p, scale) for p in profiles},
        "phases": ("quick: fixed request counts" if quick else
                   f"warm-up writes {WARMUP_WRITES:g} footprints, the measured phase "
                   f"{MEASURE_WRITES:g} (phase `bytes` counts reads too)"),
        "phase_bytes": None if quick else {
            p: {WARMUP: phase_bytes(p, scale, WARMUP_WRITES),
                MEASURED: phase_bytes(p, scale, MEASURE_WRITES)} for p in profiles},
        "expected_requests": (
            {p: {WARMUP: QUICK["warmup_requests"], MEASURED: QUICK["measure_requests"]}
             for p in profiles} if quick else
            {p: {WARMUP: expected_requests(p, scale, WARMUP_WRITES),
                 MEASURED: expected_requests(p, scale, MEASURE_WRITES)} for p in profiles}),
        "device_bytes": device, "paper_device_bytes": PAPER["capacity_bytes"],
        "device_factor": device / PAPER["capacity_bytes"],
        "exported_lpns": int(device // PAGE_BYTES * (1 - FTL_OP)),
        "page_bytes": PAGE_BYTES, "paper_page_bytes": PAPER["page_bytes"],
        "pages_per_block": NAND["pages"], "paper_pages_per_block": PAPER["pages_per_block"],
        "ftl_op": FTL_OP, "paper_op": PAPER["op"],
        "oob_bytes": 256, "paper_oob_bytes": PAPER["oob_bytes"],
        "map_budget": MAP_BUDGET, "sram": SRAM,
        "paper_dram_bytes": PAPER["dram_bytes"],
        "write_buffer_pages": WRITE_BUFFER_PAGES, "flush_watermark_percent": FLUSH_WATERMARK,
        "fsp_policy": "sorted", "learning_batch_lpns": WRITE_BUFFER_PAGES,
        "queue_depth": QUEUE_DEPTH, "cpu_clock": CPU_CLOCK, "paper_cpu": PAPER["cpu"],
        "seed": 1,
        # Figure 16b: M, one memory for the table and the data cache.
        "fig16b_memory_bytes": memory_bytes,
        "fig16b_memory_per_device_byte": None if memory_bytes is None else memory_bytes / device,
        "paper_memory_per_device_byte": PAPER_MEMORY_RATIO,
        "fig16b_table_share_max": TABLE_SHARE_MAX,
        "fig16b_leaftl_batch_pages": LEAFTL_BATCH_PAGES,
    }
    if traces is not None:
        # --real-traces: each trace's stream as replayed, once, whole, in one phase.
        found["traces"] = {name: dict(stream, name=name) for name, stream in traces.items()}
        found["trace_phases"] = (f"one phase ({MEASURED}), the trace once, whole; no warm-up "
                                 "or precondition")
    return found


NOT_RUN_FIG16B = (
    "Figure 16b (latency with one memory shared by the mapping table and the data cache) is not "
    "run: {why}.")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ssdsim", default=str(ROOT / "build" / "tb" / "ssdsim"))
    parser.add_argument("--out", default=str(ROOT / "results" / "reproduce" / "leaftl"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--profiles", default=",".join(PROFILES),
                        help="comma-separated, of: " + ", ".join(PROFILES))
    parser.add_argument("--gammas", default=",".join(map(str, GAMMAS)),
                        help="error bounds, comma-separated (default 0,1,4,16)")
    parser.add_argument("--scale", type=float, default=DEFAULT_SCALE,
                        help="footprint_scale of every profile (default 1: the profiles' "
                             "footprints, 512 MiB to 4 GiB)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the finished runs of an earlier invocation whose scenario "
                             "is unchanged (with the same ssdsim build)")
    parser.add_argument("--quick", action="store_true",
                        help=f"smoke run: {', '.join(QUICK['profiles'])}, gamma "
                             f"{' and '.join(map(str, QUICK['gammas']))}, "
                             f"{QUICK['warmup_requests']} + {QUICK['measure_requests']} requests"
                             f" (and their Figure 16b runs; the real traces stay whole)")
    parser.add_argument("--memory", default=None,
                        help="Figure 16b's memory M for table and data cache, e.g. 4MiB (default: "
                             "the paper's 1 GiB per 2 TiB of device, 4 MiB for our 8 GiB)")
    parser.add_argument("--no-fig16b", action="store_true",
                        help="skip Figure 16b's runs (SFTL's and DFTL's table runs and the "
                             "shared-memory runs)")
    parser.add_argument("--real-traces", action="store_true",
                        help="also replay the two traces of ../shared/traces ("
                             + ", ".join(TRACES) + ") at each gamma, one phase each, whole "
                             "(--quick too), folded onto the device (no Figure 16b)")
    args = parser.parse_args(argv)
    profiles = parse_list(args.profiles, list(PROFILES), "profile", parser)
    try:
        gammas = [int(g) for g in args.gammas.split(",")]
    except ValueError:
        parser.error(f"--gammas: whole numbers, comma-separated, not '{args.gammas}'")
    if any(not 0 <= g <= 31 for g in gammas):
        parser.error("--gammas: 0 to 31 (256 B of OOB hold 12 + 4 (2 gamma + 1) bytes)")
    if not 0 < args.scale <= 1:
        parser.error("--scale: in (0, 1]")
    memory = default_memory_bytes()
    memory_source = (f"the paper's 1 GiB per 2 TiB of device ({PAPER_MEMORY_RATIO:.6g}) times "
                     f"{device_bytes() / 2**30:g} GiB")
    if args.memory is not None:
        try:
            memory = size_bytes(args.memory)
        except ValueError:
            parser.error(f"--memory: a size such as 4MiB, not '{args.memory}'")
        memory_source = "--memory"
        if memory < 2 * PAGE_BYTES:
            parser.error(f"--memory: at least two pages ({2 * PAGE_BYTES} B)")
    if args.quick:
        profiles, gammas = QUICK["profiles"], QUICK["gammas"]
    not_run = {}
    if args.no_fig16b:
        not_run["figure_16b"] = NOT_RUN_FIG16B.format(why="--no-fig16b")
    elif FIG16B_GAMMA not in gammas:
        not_run["figure_16b"] = NOT_RUN_FIG16B.format(
            why=f"it takes LeaFTL's table from the gamma {FIG16B_GAMMA} runs, and --gammas "
                f"has no {FIG16B_GAMMA}")
    fig16b = "figure_16b" not in not_run
    out = ssdvp_results.check_run_options(args, parser)
    started = time.time()
    results, fig16b_results, todo = run_all(args, out, profiles, gammas, fig16b, memory)
    order = list(PROFILES)
    results.sort(key=lambda r: (order.index(r["profile"]), r["gamma"]))
    traces = sorted(todo["traces"], key=lambda r: (list(TRACES).index(r["trace"]), r["gamma"]))
    fig16b_results.sort(key=lambda r: (order.index(r["profile"]),
                                       FIG16B_SCHEMES.index(r["scheme"])))
    runs = todo["runs"]
    summary = {
        "paper": "LeaFTL: a learning-based flash translation layer (J. Sun et al., ASPLOS 2023)",
        "scale": scale_block(profiles, args.scale, args.quick, memory if fig16b else None,
                             TRACES if args.real_traces else None),
        "jobs": args.jobs,
        "wall_seconds": round(time.time() - started, 1),
        "runs_wall_seconds": round(sum(runs.values()), 1),
        "runs": len(runs), "reused_runs": todo["reused"],
        "not_run": not_run,
        "results": results,
        # --real-traces: per trace and gamma the figures of `results` (one phase: no table
        # after a warm-up); None without it. The claims and figures are the profiles' alone.
        "traces": traces if args.real_traces else None,
        "figure_16b": None if not fig16b else {
            "memory_bytes": memory, "memory_source": memory_source,
            "memory_per_device_byte": memory / device_bytes(),
            "table_share_max": TABLE_SHARE_MAX,
            "latency": "the measured phase's mean over every host command (reads and writes)",
            "tables": todo["tables"],
            "results": fig16b_results,
            "ratios": fig16b_ratios(fig16b_results),
            "read_ratios": fig16b_ratios(fig16b_results, "read_latency_us")},
    }
    summary["claims"] = claims(results, fig16b_results if fig16b else None)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    plot(summary, out)
    (out / "summary.md").write_text(markdown(summary))
    print(f"wrote {out}/summary.json, summary.md and the figures; {ssdvp_results.wall_line(summary)}")
    return 0


def run_all(args, out, profiles, gammas, fig16b, memory):
    """Runs every point, --jobs at a time: the LeaFTL runs and (with `fig16b`) SFTL's and DFTL's
    table runs first, then each profile's Figure 16b runs as soon as its three tables are known.
    A LeaFTL run that fails stops everything (--resume goes on from there); a Figure 16b run or
    table run that fails is recorded as a failed point with its log. With args.real_traces,
    the real traces' runs (trace_points, after the rest: a second or two each), a failure
    recorded as a Figure 16b one. Answers the LeaFTL results, the Figure 16b records, and
    {"runs": name -> wall seconds, "reused": runs kept by --resume, "tables": pass-1 tables,
    "traces": the real traces' results, [] without args.real_traces}."""
    todo = points(profiles, gammas, args.scale, args.quick)
    if fig16b:
        todo += [table_point(p, s, args.scale, args.quick) for p in profiles
                 for s in FIG16B_SCHEMES[1:]]
        todo.sort(key=lambda p: -footprint_bytes(p["profile"], args.scale))
    if getattr(args, "real_traces", False):
        todo += trace_points(TRACES, gammas)
    results, fig16b_results, runs, tables, started16b = [], [], {}, {}, set()
    trace_results = []
    reused = finished = 0
    pending = {}
    total = len(todo) + (len(profiles) * len(FIG16B_SCHEMES) if fig16b else 0)

    def submit(pool, point):
        nonlocal reused
        if args.resume and ssdvp_results.finished_run(out, point) is not None:
            reused += 1
        pending[pool.submit(run_point, args.ssdsim, out, point, args.resume)] = point

    def failed_point(point, error):
        directory = out / "runs" / point["name"]
        log = directory / "ssdsim.log"
        return {**{k: v for k, v in point.items() if k not in ("scenario", "kind")},
                "failed": True, "error": failure_reason(directory, error),
                "log": str(log) if log.exists() else None}

    def start_fig16b(pool, profile):
        if profile in started16b or any((profile, s) not in tables for s in FIG16B_SCHEMES):
            return
        started16b.add(profile)
        for scheme in FIG16B_SCHEMES:
            table = tables[(profile, scheme)]
            name = f"{profile}_fig16b_{scheme}"
            if table.get("failed"):
                fig16b_results.append({"profile": profile, "scheme": scheme, "name": name,
                                       "failed": True, "log": table.get("log"),
                                       "error": f"its table run failed: {table['error']}"})
                continue
            try:
                point = fig16b_point(profile, scheme, args.scale, args.quick, table, memory)
            except ValueError as error:
                fig16b_results.append({"profile": profile, "scheme": scheme, "name": name,
                                       "failed": True, "error": str(error), "log": None})
                continue
            submit(pool, point)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for point in todo:
            submit(pool, point)
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    point = pending.pop(future)
                    finished += 1
                    counted = f" ({finished}/{total})"
                    kind = point.get("kind", "leaftl")
                    if kind == "leaftl":
                        _, directory, seconds = future.result()
                        runs[point["name"]] = seconds
                        run = ssdvp_results.load_run(directory)
                        figures = figures_of(run)
                        figures.update({"profile": point["profile"], "gamma": point["gamma"],
                                        "wall_seconds": round(seconds, 1)})
                        results.append(figures)
                        print(f"{point['name']}: table {figures['end']['bytes_paper']} B (DFTL "
                              f"{times(figures['ratio_dftl'])}), mispredictions "
                              f"{pct(figures['misprediction_ratio'])} in {seconds:.0f} s"
                              f"{counted}", flush=True)
                        if fig16b and point["gamma"] == FIG16B_GAMMA:
                            tables[(point["profile"], "leaftl")] = table_of(run, "leaftl")
                            start_fig16b(pool, point["profile"])
                        continue
                    if kind == "trace":
                        record = trace_result(point, future, runs, failed_point)
                        trace_results.append(record)
                        print(f"{point['name']}: " + (
                            f"FAILED: {record['error']}" if record.get("failed") else
                            f"table {record['end']['bytes_paper']} B (ours "
                            f"{fmt(record['end']['bytes_ours'], ',')} B, DFTL "
                            f"{times(record['ratio_dftl'])}, SFTL {times(record['ratio_sftl'])}),"
                            f" mispredictions {pct(record['misprediction_ratio'])} in "
                            f"{record['wall_seconds']:.0f} s") + counted, flush=True)
                        continue
                    try:
                        _, directory, seconds = future.result()
                        runs[point["name"]] = seconds
                        run = ssdvp_results.load_run(directory)
                        found = (table_of(run, point["scheme"]) if kind == "table"
                                 else latency_of(run))
                    except Exception as error:  # noqa: BLE001 (recorded and reported)
                        found = failed_point(point, error)
                        seconds = None
                    if kind == "table":
                        tables[(point["profile"], point["scheme"])] = found
                        print(f"{point['name']}: " + (
                            f"FAILED: {found['error']}" if found.get("failed") else
                            f"table {found['table_bytes']:,} B in the map budget (gauge "
                            f"{fmt(found['table_gauge_bytes'], ',')} B), evictions "
                            f"{found['evictions']}, in {seconds:.0f} s") + counted, flush=True)
                        start_fig16b(pool, point["profile"])
                    else:
                        record = {k: v for k, v in point.items() if k not in ("scenario", "kind")}
                        record.update(found)
                        if seconds is not None:
                            record["wall_seconds"] = round(seconds, 1)
                        fig16b_results.append(record)
                        print(f"{point['name']}: budget {point['map_budget']:,} B, cache "
                              f"{point['cache_pages']:,} pages: " + (
                                  f"FAILED: {record['error']}" if record.get("failed") else
                                  f"mean latency {record['latency_us']:.1f} us (reads "
                                  f"{fmt(record['read_latency_us'], '.1f')}) in {seconds:.0f} s")
                              + counted, flush=True)
        except BaseException:
            pool.shutdown(cancel_futures=True)  # stop at the first failure; --resume goes on
            raise
    tables_out = [{"profile": p, **{k: v for k, v in t.items()}} for (p, _), t in tables.items()]
    return results, fig16b_results, {"runs": runs, "reused": reused, "tables": tables_out,
                                     "traces": trace_results}


def trace_result(point, future, runs, failed_point):
    """A real trace's run: figures_of its one phase with the trace and gamma, or, when it
    failed, the point marked failed with its log (failed_point)."""
    try:
        _, directory, seconds = future.result()
        runs[point["name"]] = seconds
        figures = figures_of(ssdvp_results.load_run(directory), warmup=None)
    except Exception as error:  # noqa: BLE001 (recorded and reported)
        return failed_point(point, error)
    figures.update({"trace": point["trace"], "gamma": point["gamma"],
                    "wall_seconds": round(seconds, 1)})
    return figures


if __name__ == "__main__":
    sys.exit(main())
