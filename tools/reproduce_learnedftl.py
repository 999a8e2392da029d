#!/usr/bin/env python3
"""Reproduces LearnedFTL's FIO and trace experiments (S. Wang et al., HPCA 2024,
../shared/papers/000_*.txt, sections 4.1-4.5: Figures 14, 15, 16 and 20) on ssdsim.

    /usr/bin/python3 tools/reproduce_learnedftl.py [--jobs 2] [--out results/reproduce/learnedftl]
        [--schemes dftl,tpftl,learnedftl,ideal] [--traces websearch1,...] [--requests 200000]
        [--trace-requests 100000] [--warmup-multiple 3] [--write-multiple 2] [--quick] [--resume]

Per scheme (`firmware.scheme`: dftl, tpftl, learnedftl and ideal, the paper's full-page mapping
"upper bound") three runs, --jobs at a time:

1. Reads (Figure 14 a/b, section 4.2; Figure 20, section 4.5), one run of phases: `warmup`,
   4 KiB random writes of --warmup-multiple times the exported capacity (default 3: the paper
   warms "the whole SSD" up with 10 minutes of random writes; at 3 about 1/e^3, 5 %, of the LPNs
   stay unwritten, at 1 about 37 %, and a translation page with many unwritten LPNs, rewritten
   in LPN order, is a staircase a few linear pieces give exactly only in part: a first run at 1
   measured 29 % of the relocated mappings exact. Reads of unwritten LPNs need no data read:
   summary.json gives the share of reads that read data); `settle`, an idle second in which
   GC finishes what the warm-up left (FEMU, the paper's platform, collects only in the write
   path, so its reads never meet GC; here DFTL, TPFTL and the ideal FTL began their reads with
   a GC job of about 10 stripes, LearnedFTL without, which put it above the ideal FTL);
   `random_read`,
   4 KiB random reads (--requests, default 200,000); `sequential_read`, 4 KiB sequential reads
   (--requests; one stream of queue depth 64, where the paper has 64 psync threads); then one
   phase per trace profile (README "LearnedFTL profiles": websearch1, websearch2, websearch3,
   systor17 at footprint_scale 1/8: 512, 512, 512 and 256 MiB, within the 1.09 GiB exported)
   of --trace-requests requests (default 100,000) each. Per phase: IOPS, CMT and model hit
   ratios, flash reads per host read, the read latency's p99 and p99.9 (stats.json "host"
   phases), GC count (gc.invocations: stripes collected), WAF.
2. Writes from empty (Figures 14 a/c and 15, section 4.3): one run of 4 KiB random writes and
   one of 4 KiB sequential writes, each writing --write-multiple times the exported capacity
   (default 2; the paper writes for 10 minutes from empty, and its 4,188 collections of 256
   lines rewrote its device about 16 times): IOPS, WAF, GC count, translation page writes.
   Below about 0.5 DFTL and TPFTL do not collect at all (the 36 stripes above the default GC
   threshold hold 294,912 pages); a GC-count claim where no scheme collected reads n/a.
3. GC overhead (Figure 16): from LearnedFTL's runs, per collection of a group (gc.ordered_sets)
   the training (learnedftl.train_cycles) and the sorting (gc.ordered_scan_cycles) cycles, and
   their share of the collections' span (gc.ordered_set_cycles, core cycles at 800 MHz).

Hit ratios (host read lookups in the phase, `map.lookups`): the model's,
learnedftl.model_hits / map.lookups; the CMT's, for LearnedFTL the first lookups the CMT (or
its relocation buffer) answered, (map.hits - learnedftl.model_hits) / map.lookups, since
learnedftl.cmt_hits also counts the lookups repeated once a miss has loaded its TP (kept in
summary.json as cmt_hits_raw); for the other schemes map.hit_ratio.

Scale (every factor is in summary.json "scale"): the paper's FEMU SSD has 64 chips (8 channels
x 8 ways), 256 blocks per chip of 512 pages of 4 KiB (32 GiB exported plus 2 GiB, about 6 %,
over-provisioning), SLC timings 40 us read, 200 us program, 2 ms erase, a CMT of 8192 slots
(about 0.1 % of the pages), GTD entry groups of 64 TPs x 512 entries = one line of 64 blocks.
Ours: 8 channels x 8 ways x 1 die x 1 plane, 4 KiB pages, `nand.cell: slc` with the paper's
timings and an endurance nothing reaches; 128 pages per block (1/4: a stripe of 64 blocks holds
8192 pages), 40 blocks per plane (40 stripes for the paper's 256 lines: 1.25 GiB raw);
`ftl.op` 0.125, not about 6 %: the platform's boot check needs the stripes outside the GC
reserve (2) and the GC and translation streams' open stripes to outnumber the groups, each
group a whole stripe, and 0.125 leaves 35 groups of 8 TPs x 1024 4-byte entries = 8192 LPNs =
one stripe, as the paper's 64 TPs x 512 entries fill one line (286,720 LPNs exported, 1.09 GiB);
`ftl.gtd_group.spare_stripes` 4 (the authors' code: 5 lines for a group of one line),
`ftl.learnedftl.pieces` 8 (the paper's default). GC, every scheme alike:
`ftl.gc.batch_programs` 64 (a program per chip read and written together, as FEMU's GC spreads
a line over its 64 chips; one program at a time bound every write run by GC's 250 us a page)
and `ftl.gc.background_free` 3 (the authors' code collects below 3 free lines; with the
default 4 the 35 groups had one stripe of slack and GC took groups half rewritten). SRAM 4 MiB,
write buffer 64 pages in SRAM,
queue depth 64 (the paper's 64 fio threads), `host.oracle: false` (speed),
`host.stats_interval: 0`. DFTL, TPFTL and the ideal FTL use greedy victims and the baseline
write grouping (the paper's FEMU default dynamic allocation); LearnedFTL the group-based
allocation (`gc.victim` and `fsp.policy: gtd_group`), which it requires.

Mapping memory (section 4.1, "the same memory space overhead"): LearnedFTL, DFTL and TPFTL get
the same `ftl.map_budget`, MAP_BUDGET (96 KiB): LearnedFTL's models, bitmaps and buffers
(learnedftl.model_bytes, 64,400 B on this device) leave it a CMT of about 32 KiB, and DFTL and
TPFTL spend all of it on their CMT. The paper's CMT is 0.1 % of the pages (0.1 % of our LPNs at
about 33 B an entry would be 9.5 KiB); at the end of a --quick random-write run LearnedFTL's
CMT held about 400 mappings (0.14 % of the LPNs) where TPFTL, with all of the budget, held
about 2,700. summary.json records learnedftl.model_bytes, map.table_bytes and the mappings
cached (map.translatable_lpns) per run. The ideal FTL gets IDEAL_MAP_BUDGET, its whole table
(4 B per LPN, 1,120 KiB) and slack.

--quick: a smoke run of a minute or two: warm-up capacity_multiple 0.1, 5000 requests per read
phase, two traces (websearch1, systor17) of 5000 requests, writes of 0.05 of the capacity.
Its figures say nothing about the paper (most reads find unwritten LPNs; hardly any GC).

A failed run is reported with its log (runs/<name>/ssdsim.log) and the rest go on; claims that
need it read n/a. --resume keeps finished runs whose scenario is unchanged; summary.md's wall
time then says how many were kept. Outputs: summary.json, summary.md (the paper's claims beside
ours, computed from the runs, with whether they agree), fig14a_iops.png, fig14b_hit_ratios.png,
fig14c_waf.png, fig15_gc_count.png, fig16_gc_overhead.png, fig20_tail_latency.png, and runs/.
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ssdvp_results  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCHEMES = ["dftl", "tpftl", "learnedftl", "ideal"]
LABELS = {"dftl": "DFTL", "tpftl": "TPFTL", "learnedftl": "LearnedFTL", "ideal": "ideal"}

# ---- the device (module docstring, "Scale") ---------------------------------------------------
PAGE_BYTES = 4096
CHANNELS, WAYS = 8, 8
NAND = {"channels": CHANNELS, "ways": WAYS, "dies": 1, "planes": 1,
        "blocks": 40,  # stripes: the paper's 256 lines, scaled
        "pages": 128,  # the paper's 512 / 4: a stripe of 64 blocks holds 8192 pages
        "page_size": "4KiB", "cell": "slc",
        "t_read": {"lsb": "40us"}, "t_prog": "200us", "t_erase": "2ms",  # the paper's (FEMU)
        "endurance": 1000000}
FTL_OP = 0.125  # the paper's ~6 % leaves too few stripes for 35 groups plus the open ones
GTD_GROUP_TPS = 8  # 8 TPs x 1024 entries = 8192 LPNs = one stripe (paper: 64 x 512 = a line)
GTD_SPARE_STRIPES = 4  # the authors' code: 5 lines for a group of one line
LEARNEDFTL_PIECES = 8  # the paper's default
# The paper collects whole groups (a stripe the host wholly rewrote goes alone: it moves nothing);
# "fits" is the authors' single-line GC (--lone-stripe).
LONE_STRIPES = ("empty", "fits")
ENTRIES_PER_TP = PAGE_BYTES // 4
PAPER = {"chips": 64, "blocks_per_chip": 256, "pages_per_block": 512, "page_bytes": 4096,
         "exported_bytes": 32 * 2**30, "op_bytes": 2 * 2**30, "cmt_slots": 8192,
         "group_tps": 64, "tp_entries": 512, "pieces": 8, "threads": 64,
         "t_read_us": 40, "t_prog_us": 200, "t_erase_ms": 2}
# ---- memory --------------------------------------------------------------------------------
SRAM = "4MiB"
# LearnedFTL's learnedftl.model_bytes (64,400 B measured on this device) plus a CMT of about
# 32 KiB; DFTL and TPFTL get the same (the paper's equal memory, section 4.1).
MAP_BUDGET = "96KiB"
MODEL_BYTES_MEASURED = 64400  # learnedftl.model_bytes at boot on this device (documentation)
CMT_ENTRY_BYTES = 33  # about, for the 0.1 %-of-pages comparison in the docstring
WRITE_BUFFER_PAGES = 64
# ---- GC (every scheme alike) --------------------------------------------------------------
# FEMU's GC reads and writes a line's pages over all 64 chips at once: a batch of a program per
# unit (one page each, SLC single-plane) does the same here.
GC_BATCH_PROGRAMS = CHANNELS * WAYS
# The authors' code collects below 3 free lines (free_line_threshold): a GC job runs until 3
# stripes are free. The default 4 would leave the 35 groups one stripe of slack beyond the
# reserve, so GC would take groups half rewritten.
GC_BACKGROUND_FREE = 3
QUEUE_DEPTH = 64
CPU_CLOCK = "800MHz"
CPU_HZ = 800e6
# ---- workload -------------------------------------------------------------------------------
WARMUP_MULTIPLE = 3.0  # the read run's warm-up: random writes, capacities
WRITE_MULTIPLE = 2.0  # each write run, from empty
READ_REQUESTS = 200000
TRACE_REQUESTS = 100000
TRACE_FOOTPRINT_SCALE = 0.125  # websearch 4 GiB -> 512 MiB, systor17 2 GiB -> 256 MiB
TRACES = {"websearch1": "learnedftl_websearch1", "websearch2": "learnedftl_websearch2",
          "websearch3": "learnedftl_websearch3", "systor17": "learnedftl_systor17"}
TRACE_FOOTPRINT_MIB = {"websearch1": 4096, "websearch2": 4096, "websearch3": 4096,
                       "systor17": 2048}  # README "LearnedFTL profiles", at footprint_scale 1
QUICK = {"warmup_multiple": 0.1, "requests": 5000, "trace_requests": 5000,
         "write_multiple": 0.05, "traces": ["websearch1", "systor17"]}
WARMUP, RANDOM_READ, SEQUENTIAL_READ = "warmup", "random_read", "sequential_read"
SETTLE = "settle"
SETTLE_DURATION = "1s"  # an idle phase: GC brings the pools to ftl.gc.background_free
RANDOM_WRITE, SEQUENTIAL_WRITE = "random_write", "sequential_write"
KINDS = ("read", "randwrite", "seqwrite")


def exported_lpns():
    pages = CHANNELS * WAYS * NAND["blocks"] * NAND["pages"]
    return int(pages * (1 - FTL_OP))


def stripe_pages():
    return CHANNELS * WAYS * NAND["pages"]


def groups():
    return -(-exported_lpns() // (GTD_GROUP_TPS * ENTRIES_PER_TP))


def ideal_map_budget():
    """The ideal FTL's budget: its whole table, 4 B per exported LPN, plus 1/7 slack, in KiB."""
    table = exported_lpns() * 4
    return f"{-(-int(table * 8 / 7) // 1024)}KiB"


# ---- scenarios ------------------------------------------------------------------------------

def stream(pattern, read_fraction, **more):
    return {"pattern": pattern, "read_fraction": read_fraction, "size": "4KiB",
            "queue_depth": QUEUE_DEPTH, **more}


def device_scenario(name, scheme, phases, lone_stripe=LONE_STRIPES[0]):
    """The device, firmware and host every run shares, with the workload's phases."""
    ftl = {"map_budget": ideal_map_budget() if scheme == "ideal" else MAP_BUDGET,
           "op": FTL_OP,
           "write_buffer": {"pages": WRITE_BUFFER_PAGES, "location": "sram"},
           "gc": {"batch_programs": GC_BATCH_PROGRAMS, "background_free": GC_BACKGROUND_FREE}}
    if scheme == "learnedftl":
        ftl["gc"]["victim"] = "gtd_group"
        ftl.update({"fsp": {"policy": "gtd_group"},
                    "gtd_group": {"tps": GTD_GROUP_TPS, "spare_stripes": GTD_SPARE_STRIPES,
                                  "lone_stripe": lone_stripe},
                    "learnedftl": {"pieces": LEARNEDFTL_PIECES}})
    return {"name": name, "seed": 1, "cpu": {"clock": CPU_CLOCK}, "sram": {"size": SRAM},
            "nand": json.loads(json.dumps(NAND)), "firmware": {"scheme": scheme}, "ftl": ftl,
            "host": {"oracle": False, "stats_interval": "0s"},
            "workload": {"phases": phases}}


def read_scenario(name, scheme, settings):
    phases = [{"name": WARMUP, "capacity_multiple": settings["warmup_multiple"],
               "streams": [stream("random", 0.0)]},
              {"name": SETTLE, "duration": SETTLE_DURATION, "streams": []},
              {"name": RANDOM_READ, "requests": settings["requests"],
               "streams": [stream("random", 1.0)]},
              {"name": SEQUENTIAL_READ, "requests": settings["requests"],
               "streams": [stream("sequential", 1.0)]}]
    for trace in settings["traces"]:
        phases.append({"name": trace, "requests": settings["trace_requests"],
                       "streams": [{"name": trace, "profile": TRACES[trace],
                                    "footprint_scale": TRACE_FOOTPRINT_SCALE,
                                    "queue_depth": QUEUE_DEPTH}]})
    return device_scenario(name, scheme, phases, settings["lone_stripe"])


def write_scenario(name, scheme, pattern, settings):
    phase = RANDOM_WRITE if pattern == "random" else SEQUENTIAL_WRITE
    return device_scenario(name, scheme,
                           [{"name": phase, "capacity_multiple": settings["write_multiple"],
                             "streams": [stream(pattern, 0.0)]}], settings["lone_stripe"])


def settings_of(requests=READ_REQUESTS, trace_requests=TRACE_REQUESTS, traces=None,
                write_multiple=WRITE_MULTIPLE, quick=False, warmup_multiple=WARMUP_MULTIPLE,
                lone_stripe=LONE_STRIPES[0]):
    if quick:
        return dict(QUICK, lone_stripe=lone_stripe)
    return {"warmup_multiple": warmup_multiple, "requests": requests,
            "trace_requests": trace_requests, "write_multiple": write_multiple,
            "traces": list(TRACES) if traces is None else traces, "lone_stripe": lone_stripe}


def points(schemes, settings):
    """Every run: per scheme its read run (the longest) first, then its two write runs."""
    found = []
    for scheme in schemes:
        found.append({"kind": "read", "scheme": scheme, "name": f"{scheme}_read",
                      "scenario": read_scenario(f"{scheme}_read", scheme, settings)})
    for scheme in schemes:
        for kind, pattern in (("randwrite", "random"), ("seqwrite", "sequential")):
            name = f"{scheme}_{kind}"
            found.append({"kind": kind, "scheme": scheme, "name": name,
                          "scenario": write_scenario(name, scheme, pattern, settings)})
    return found


# ---- figures of a run -----------------------------------------------------------------------

lookup = ssdvp_results.lookup_or_none
ratio = ssdvp_results.ratio
mean = ssdvp_results.mean
pct = ssdvp_results.pct


def host_phase(stats, name):
    return next(h for h in stats["host"]["phases"] if h["name"] == name)


def us(ns):
    return None if ns is None else ns / 1000


def phase_figures(run, name, scheme):
    """One phase: host throughput and latency, hit ratios, flash reads, GC and WAF."""
    host = host_phase(run.stats, name)
    ftl = run.ftl_phase(name)
    ops = host.get("ops", {})
    read, write = ops.get("read") or {}, ops.get("write") or {}
    lookups = lookup(ftl, "map.lookups")
    hits = lookup(ftl, "map.hits")
    model = lookup(ftl, "learnedftl.model_hits") if scheme == "learnedftl" else None
    if scheme == "learnedftl":
        cmt = None if hits is None else max(0, hits - (model or 0))
        cmt_ratio, model_ratio = ratio(cmt, lookups), ratio(model, lookups)
    else:
        cmt_ratio, model_ratio = lookup(ftl, "map.hit_ratio"), None
    combined = (None if cmt_ratio is None and model_ratio is None
                else (cmt_ratio or 0) + (model_ratio or 0))
    read_pages = lookup(ftl, "host_read_pages")
    rl = read.get("latency_ns") or {}
    wl = write.get("latency_ns") or {}
    return {
        "commands": host.get("commands"), "duration_s": host.get("duration_s"),
        "iops": host.get("iops"),
        "read_commands": read.get("commands"), "read_iops": read.get("iops"),
        "write_commands": write.get("commands"), "write_iops": write.get("iops"),
        "read_mean_us": us(rl.get("mean")) if read.get("commands") else None,
        "read_p99_us": us(rl.get("p99")) if read.get("commands") else None,
        "read_p999_us": us(rl.get("p99.9")) if read.get("commands") else None,
        "write_p99_us": us(wl.get("p99")) if write.get("commands") else None,
        "map_lookups": lookups, "map_hits": hits,
        "cmt_hit_ratio": cmt_ratio, "model_hit_ratio": model_ratio,
        "combined_hit_ratio": combined,
        "cmt_hits_raw": lookup(ftl, "learnedftl.cmt_hits"),
        "model_hits": model,
        "flash_reads_per_host_read": lookup(ftl, "flash_reads_per_host_read"),
        "translation_reads_per_host_read": ratio(lookup(ftl, "flash_reads.translation_host"),
                                                 read_pages),
        # Reads of LPNs never written read no data page.
        "data_read_share": ratio(lookup(ftl, "flash_reads.host"), read_pages),
        "gc_count": lookup(ftl, "gc.invocations"), "gc_sets": lookup(ftl, "gc.ordered_sets"),
        "waf": lookup(ftl, "waf"), "tp_reads": lookup(ftl, "tp_reads"),
        "tp_writes": lookup(ftl, "tp_writes"), "pages_moved": lookup(ftl, "gc.pages_moved"),
        "host_write_pages": lookup(ftl, "host_write_pages"),
        # The controller's cost, its sleep left out: at 800 MHz, 100,000 awake cycles a command
        # cap a phase at 8,000 commands a second whatever the flash does.
        "cycles_per_command": lookup(ftl, "firmware.awake_cycles_per_command"),
    }


def gc_overhead(span, hz=CPU_HZ):
    """Figure 16: training and sorting per collected group and their share of its span."""
    sets = lookup(span, "gc.ordered_sets")
    train = lookup(span, "learnedftl.train_cycles")
    scan = lookup(span, "gc.ordered_scan_cycles")
    set_cycles = lookup(span, "gc.ordered_set_cycles")
    both = None if train is None or scan is None else train + scan
    return {"sets": sets, "train_cycles": train, "scan_cycles": scan,
            "set_cycles": set_cycles, "trainings": lookup(span, "learnedftl.trainings"),
            "train_us_per_set": None if not sets or train is None else train / sets / hz * 1e6,
            "scan_us_per_set": None if not sets or scan is None else scan / sets / hz * 1e6,
            "set_ms": None if not sets or set_cycles is None else set_cycles / sets / hz * 1e3,
            "train_share": ratio(train, set_cycles), "scan_share": ratio(scan, set_cycles),
            "share": ratio(both, set_cycles)}


clock_hz = ssdvp_results.clock_hz


def figures_of(run, point):
    """A finished run's figures: per phase (phase_figures), the memory, and for LearnedFTL the
    GC overhead per phase and over the run. RuntimeError unless the workload finished."""
    stats = run.stats
    outcome = stats["outcome"]["outcome"]
    if outcome != "workload_done":
        raise RuntimeError(f"{run.path}: outcome {outcome}: {stats['outcome'].get('message')}")
    scheme = point["scheme"]
    hz = clock_hz(lookup(stats, "config.cpu.clock") or CPU_CLOCK)
    names = [h["name"] for h in stats["host"]["phases"]]
    whole = run.ftl()["run"]
    found = {"scheme": scheme, "kind": point["kind"], "name": point["name"],
             "phases": {n: phase_figures(run, n, scheme) for n in names},
             "waf_run": lookup(whole, "waf"), "gc_count_run": lookup(whole, "gc.invocations"),
             "map_budget": lookup(stats, "config.ftl.map_budget"),
             "table_bytes": lookup(whole, "map.table_bytes"),
             # Mappings the CMT (or the ideal's table) held at the end of the run.
             "cached_mappings": lookup(whole, "map.translatable_lpns"),
             "model_bytes": lookup(whole, "learnedftl.model_bytes"),
             "filter_errors": lookup(whole, "learnedftl.filter_errors"),
             "simulated_seconds": lookup(stats, "simulator.simulated_seconds")}
    if scheme == "learnedftl":
        found["gc_overhead"] = {n: gc_overhead(run.ftl_phase(n), hz) for n in names}
        found["gc_overhead"]["run"] = gc_overhead(whole, hz)
    return found


def run_all(args, out, todo):
    """Runs every point, args.jobs at a time; a failed run is a record with its log. Answers
    the records (in todo's order) and {"runs": name -> wall seconds, "reused": kept runs}."""
    return ssdvp_results.run_points(args.ssdsim, out, todo, args.jobs, args.resume, figures_of)


# ---- aggregation and the claims -------------------------------------------------------------

def index(records):
    """{(scheme, kind): record} of the runs that finished."""
    return {(r["scheme"], r["kind"]): r for r in records if not r.get("failed")}


def metric(table, scheme, kind, phase, key):
    r = table.get((scheme, kind))
    return None if r is None else (r["phases"].get(phase) or {}).get(key)


def times(x):
    return "n/a" if x is None else f"{x:.2f}x"


def fmt(value, spec):
    return "n/a" if value is None else format(value, spec)


def agree_speedup(ours, paper, tolerance=0.25):
    """A ratio claim: "yes" within `tolerance` of the paper's ratio, "direction" when only on
    the same side of 1, else "no"; "n/a" when not measured."""
    if ours is None:
        return "n/a"
    if abs(ours / paper - 1) <= tolerance:
        return "yes"
    if (ours - 1) * (paper - 1) > 0:
        return "direction"
    return "no"


def agree_share(ours, paper, points=0.10):
    """A share claim: "yes" within `points` (absolute) of the paper's."""
    if ours is None:
        return "n/a"
    return "yes" if abs(ours - paper) <= points else "no"


def agree_bool(value):
    return "n/a" if value is None else ("yes" if value else "no")


def trace_ratios(table, traces, key):
    """Per trace: TPFTL's `key` over LearnedFTL's, and LearnedFTL's over the ideal's."""
    found = {}
    for trace in traces:
        tp = metric(table, "tpftl", "read", trace, key)
        lf = metric(table, "learnedftl", "read", trace, key)
        ideal = metric(table, "ideal", "read", trace, key)
        found[trace] = {"tpftl_over_learnedftl": ratio(tp, lf),
                        "learnedftl_over_ideal": ratio(lf, ideal)}
    return found


def claims(records, traces):
    """(claim, paper, ours, agrees) rows, every figure of ours computed from the runs."""
    t = index(records)
    rows = []

    def iops_ratio(kind, phase, other, key):
        return ratio(metric(t, "learnedftl", kind, phase, key), metric(t, other, kind, phase, key))

    for phase, label, paper_d, paper_tp, paper_ideal in (
            (RANDOM_READ, "Random reads", 1.5, 1.4, 0.892),
            (SEQUENTIAL_READ, "Sequential reads", 1.1, 1.1, 0.968)):
        for other, paper in (("dftl", paper_d), ("tpftl", paper_tp)):
            ours = iops_ratio("read", phase, other, "read_iops")
            rows.append((f"{label}: IOPS, LearnedFTL / {LABELS[other]}", f"{paper}x",
                         times(ours), agree_speedup(ours, paper)))
        ours = iops_ratio("read", phase, "ideal", "read_iops")
        rows.append((f"{label}: IOPS, LearnedFTL / ideal", pct(paper_ideal), pct(ours),
                     agree_share(ours, paper_ideal)))
    model = metric(t, "learnedftl", "read", RANDOM_READ, "model_hit_ratio")
    rows.append(("Random reads: LearnedFTL's model hit ratio", "55.5 %", pct(model),
                 agree_share(model, 0.555)))
    cmts = [metric(t, s, "read", RANDOM_READ, "cmt_hit_ratio") for s in ("dftl", "tpftl")]
    rows.append(("Random reads: CMT hit ratio of DFTL, TPFTL", "almost 0 (both)",
                 " / ".join(pct(c) for c in cmts),
                 "n/a" if None in cmts else agree_bool(max(cmts) < 0.05)))
    lf_cmt = metric(t, "learnedftl", "read", RANDOM_READ, "cmt_hit_ratio")
    rows.append(("Random reads: LearnedFTL's CMT hit ratio", "near 0", pct(lf_cmt),
                 "n/a" if lf_cmt is None else agree_bool(lf_cmt < 0.05)))
    for scheme, paper in (("dftl", 0.61), ("tpftl", 0.80)):
        ours = metric(t, scheme, "read", SEQUENTIAL_READ, "cmt_hit_ratio")
        rows.append((f"Sequential reads: {LABELS[scheme]}'s CMT hit ratio", pct(paper),
                     pct(ours), agree_share(ours, paper)))
    combined = metric(t, "learnedftl", "read", SEQUENTIAL_READ, "combined_hit_ratio")
    rows.append(("Sequential reads: LearnedFTL's CMT + model hit ratio", "up to 90 %",
                 pct(combined), agree_share(combined, 0.90)))
    for other, paper in (("dftl", 1.4), ("tpftl", 1.2)):
        ours = iops_ratio("randwrite", RANDOM_WRITE, other, "write_iops")
        rows.append((f"Random writes: IOPS, LearnedFTL / {LABELS[other]}", f"{paper}x",
                     times(ours), agree_speedup(ours, paper)))
    for kind, phase, label in (("randwrite", RANDOM_WRITE, "Random writes"),
                               ("seqwrite", SEQUENTIAL_WRITE, "Sequential writes")):
        wafs = {s: metric(t, s, kind, phase, "waf") for s in ("learnedftl", "dftl", "tpftl")}
        gcs = {s: metric(t, s, kind, phase, "gc_count") for s in ("learnedftl", "dftl", "tpftl")}
        ours_waf = " / ".join(f"{LABELS[s]} {fmt(v, '.2f')}" for s, v in wafs.items())
        ours_gc = " / ".join(f"{LABELS[s]} {fmt(v, ',')}" for s, v in gcs.items())
        if kind == "randwrite":
            paper_waf, paper_gc = "LearnedFTL lower than DFTL, TPFTL", "4188 / 4335 / 4335"
            ok_waf = (None if None in wafs.values() else
                      wafs["learnedftl"] < min(wafs["dftl"], wafs["tpftl"]))
        else:
            paper_waf, paper_gc = "comparable", "4285 / 4572 / 4304"
            ok_waf = (None if None in wafs.values() else
                      wafs["learnedftl"] <= 1.1 * min(wafs["dftl"], wafs["tpftl"]))
        ok_gc = (None if None in gcs.values() else
                 gcs["learnedftl"] <= min(gcs["dftl"], gcs["tpftl"]))
        if ok_gc is not None and not any(gcs.values()):
            # No scheme collected anything: the runs never filled the device (--write-multiple
            # too small), and 0 <= 0 says nothing about the claim.
            ok_gc, ours_gc = None, ours_gc + " (no GC in these runs)"
        rows.append((f"{label}: WAF (LearnedFTL / DFTL / TPFTL)", paper_waf, ours_waf,
                     agree_bool(ok_waf)))
        rows.append((f"{label}: GC count, not higher for LearnedFTL (LearnedFTL / DFTL / TPFTL)",
                     paper_gc, ours_gc, agree_bool(ok_gc)))
    seq = [iops_ratio("seqwrite", SEQUENTIAL_WRITE, o, "write_iops") for o in ("dftl", "tpftl")]
    rows.append(("Sequential writes: IOPS, LearnedFTL / DFTL, / TPFTL", "within 2 %",
                 " / ".join(times(s) for s in seq),
                 "n/a" if None in seq else agree_bool(all(abs(s - 1) <= 0.02 for s in seq))))
    p99 = trace_ratios(t, traces, "read_p99_us")
    p999 = trace_ratios(t, traces, "read_p999_us")
    paper_p99 = {"websearch1": 5.3, "websearch2": 7.4, "websearch3": 6.5, "systor17": 3.0}
    per = [p99[tr]["tpftl_over_learnedftl"] for tr in traces]
    avg = mean(per)
    rows.append(("Traces: p99 read latency, TPFTL / LearnedFTL, mean over the traces",
                 "4.8x (5.3, 7.4, 6.5, 3.0)",
                 f"{times(avg)} (" + ", ".join(f"{tr} {times(v)}" for tr, v in zip(traces, per))
                 + ")", agree_speedup(avg, 4.8, tolerance=0.5)))
    top = max([p999[tr]["tpftl_over_learnedftl"] for tr in traces
               if p999[tr]["tpftl_over_learnedftl"] is not None], default=None)
    rows.append(("Traces: p99.9 read latency, TPFTL / LearnedFTL, max", "up to 13.9x",
                 times(top), agree_speedup(top, 13.9, tolerance=0.5)))
    close = [(tr, p99[tr]["learnedftl_over_ideal"]) for tr in traces
             if tr in ("websearch2", "websearch3")]
    vals = [v for _, v in close if v is not None]
    rows.append(("Traces: p99 read latency, LearnedFTL / ideal, WebSearch2 and 3",
                 "extremely close (about 1x)",
                 ", ".join(f"{tr} {times(v)}" for tr, v in close) or "not run",
                 "n/a" if not vals else agree_bool(max(vals) <= 1.25)))
    shares = [(k, ((t.get(("learnedftl", k)) or {}).get("gc_overhead") or {}).get("run", {})
               .get("share")) for k in KINDS]
    known = [s for _, s in shares if s is not None]
    rows.append(("GC: training + sorting, share of the GC time (max over LearnedFTL's runs)",
                 "up to 3.2 %",
                 "n/a (no group collected)" if not known else
                 pct(max(known)) + " (" + ", ".join(f"{k} {pct(s)}" for k, s in shares) + ")",
                 "n/a" if not known else agree_bool(max(known) <= 0.04)))
    return rows


AGREEMENT = ("Agrees: ratios \"yes\" within 25 % of the paper's (traces' tail ratios 50 %), "
             "\"direction\" when only on the same side of 1; shares within 10 points; \"almost "
             "0\" under 5 %; WAF lower (random writes) or within 10 % (sequential); GC count not "
             "higher than both; sequential-write IOPS within 2 %; close to ideal: within 1.25x; "
             "training + sorting at most 4 %.")


# ---- figures and summary.md ----------------------------------------------------------------

def plot(summary, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = index(summary["results"])
    schemes = summary["schemes"]
    traces = summary["traces"]
    nan = float("nan")

    def num(v):
        return nan if v is None else v

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(out / name, dpi=110)
        plt.close(fig)

    def grouped(ax, groups, values, scale=1.0):
        width = 0.8 / max(1, len(schemes))
        for i, scheme in enumerate(schemes):
            ys = [num(values(scheme, g)) * scale for g in range(len(groups))]
            ax.bar([x + (i - (len(schemes) - 1) / 2) * width for x in range(len(groups))], ys,
                   width, label=LABELS[scheme])
        ax.set_xticks(list(range(len(groups))), groups)
        ax.legend(fontsize=8)

    patterns = [("read", RANDOM_READ, "read_iops", "random read"),
                ("read", SEQUENTIAL_READ, "read_iops", "sequential read"),
                ("randwrite", RANDOM_WRITE, "write_iops", "random write"),
                ("seqwrite", SEQUENTIAL_WRITE, "write_iops", "sequential write")]
    fig, ax = plt.subplots(figsize=(8, 4))
    grouped(ax, [p[3] for p in patterns],
            lambda s, g: metric(t, s, patterns[g][0], patterns[g][1], patterns[g][2]), 1e-3)
    ax.set_ylabel("kIOPS")
    ax.set_title("Figure 14a: 4 KiB throughput, queue depth 64")
    save(fig, "fig14a_iops.png")

    fig, ax = plt.subplots(figsize=(8, 4))
    reads = [(RANDOM_READ, "random"), (SEQUENTIAL_READ, "sequential")]
    width = 0.8 / max(1, len(schemes))
    for g, (phase, label) in enumerate(reads):
        for i, scheme in enumerate(schemes):
            x = g + (i - (len(schemes) - 1) / 2) * width
            cmt = num(metric(t, scheme, "read", phase, "cmt_hit_ratio"))
            model = metric(t, scheme, "read", phase, "model_hit_ratio") or 0.0
            ax.bar(x, 100 * cmt, width, color=f"C{i}", label=f"{LABELS[scheme]} CMT"
                   if g == 0 else None)
            if model:
                ax.bar(x, 100 * model, width, bottom=100 * cmt, color=f"C{i}", hatch="//",
                       alpha=0.5, label=f"{LABELS[scheme]} model" if g == 0 else None)
    ax.set_xticks([0, 1], [r[1] + " read" for r in reads])
    ax.set_ylabel("hit ratio (% of host read lookups)")
    ax.set_ylim(0, 105)
    ax.legend(fontsize=7)
    ax.set_title("Figure 14b: CMT and model hit ratios (stacked)")
    save(fig, "fig14b_hit_ratios.png")

    writes = [("randwrite", RANDOM_WRITE, "random write"),
              ("seqwrite", SEQUENTIAL_WRITE, "sequential write")]
    for key, ylabel, title, name in (
            ("waf", "WAF", "Figure 14c: write amplification from empty", "fig14c_waf.png"),
            ("gc_count", "GC count (stripes collected)",
             "Figure 15: GC count, writes from empty", "fig15_gc_count.png")):
        fig, ax = plt.subplots(figsize=(7, 4))
        grouped(ax, [w[2] for w in writes], lambda s, g: metric(t, s, writes[g][0],
                                                                 writes[g][1], key))
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        save(fig, name)

    fig, ax = plt.subplots(figsize=(7, 4))
    lf = [(k, ((t.get(("learnedftl", k)) or {}).get("gc_overhead") or {}).get("run") or {})
          for k in KINDS]
    xs = range(len(lf))
    train = [100 * num(o.get("train_share")) for _, o in lf]
    scan = [100 * num(o.get("scan_share")) for _, o in lf]
    ax.bar(xs, train, 0.5, label="training")
    ax.bar(xs, scan, 0.5, bottom=[0 if a != a else a for a in train], label="sorting")
    ax.axhline(3.2, color="grey", linestyle="--", linewidth=0.8, label="paper: up to 3.2 %")
    ax.set_xticks(list(xs), [f"{k}\n({fmt(o.get('sets'), ',')} groups)" for k, o in lf])
    ax.set_ylabel("% of the collections' span")
    ax.legend(fontsize=8)
    ax.set_title("Figure 16: LearnedFTL's training and sorting in GC")
    save(fig, "fig16_gc_overhead.png")

    shown = [s for s in ("tpftl", "learnedftl", "ideal") if s in schemes]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, (key, label) in zip(axes, (("read_p99_us", "p99"), ("read_p999_us", "p99.9"))):
        width = 0.8 / max(1, len(shown))
        for i, scheme in enumerate(shown):
            ys = [num(metric(t, scheme, "read", tr, key)) for tr in traces]
            ax.bar([x + (i - (len(shown) - 1) / 2) * width for x in range(len(traces))], ys,
                   width, label=LABELS[scheme])
        ax.set_xticks(list(range(len(traces))), traces)
        ax.set_ylabel(f"{label} read latency (us)")
        ax.legend(fontsize=8)
    fig.suptitle("Figure 20: tail read latency under the trace profiles")
    save(fig, "fig20_tail_latency.png")


def markdown(summary):
    lines = ["# LearnedFTL (HPCA 2024) reproduction", "",
             f"Scale: {json.dumps(summary['scale'])}", "", ssdvp_results.wall_line(summary), ""]
    if summary.get("quick"):
        lines += ["**--quick: a smoke run; its figures say nothing about the paper.**", ""]
    lines += ["## The paper's claims beside ours", "", AGREEMENT, "",
              "| claim | paper | ours | agrees |", "|---|---|---|---|"]
    lines += [f"| {c} | {p} | {o} | {a} |" for c, p, o, a in summary["claims"]]
    failed = [r for r in summary["results"] if r.get("failed")]
    if failed:
        lines += ["", "## Failed runs", ""]
        lines += [f"- {r['name']}: {r['error']} (log: {r.get('log') or 'none'})" for r in failed]
    lines += ["", "## Per phase", "",
              "Hit ratios over the phase's host read lookups; flash reads per host read "
              "(data and translation); data reads: the share of host reads that read a data page "
              "(the rest found their LPN unwritten); TP reads/read: translation reads for host "
              "reads (double reads). Latency in us. Cycles/cmd: the firmware's awake core cycles "
              "per host command (800 MHz).", "",
              "| run | phase | IOPS | CMT hit | model hit | flash reads/read | TP reads/read | "
              "data reads | read p99 | read p99.9 | GC count | WAF | TP writes | cycles/cmd |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in summary["results"]:
        if r.get("failed"):
            lines.append(f"| {r['name']} | FAILED: {r['error']} |" + " |" * 12)
            continue
        for phase, f in r["phases"].items():
            lines.append(
                f"| {r['name']} | {phase} | {fmt(f['iops'], ',.0f')} | "
                f"{pct(f['cmt_hit_ratio'])} | {pct(f['model_hit_ratio'])} | "
                f"{fmt(f['flash_reads_per_host_read'], '.3f')} | "
                f"{fmt(f['translation_reads_per_host_read'], '.3f')} | "
                f"{pct(f['data_read_share'])} | "
                f"{fmt(f['read_p99_us'], ',.0f')} | {fmt(f['read_p999_us'], ',.0f')} | "
                f"{fmt(f['gc_count'], ',')} | {fmt(f['waf'], '.3f')} | "
                f"{fmt(f['tp_writes'], ',')} | {fmt(f['cycles_per_command'], ',.0f')} |")
    lines += ["", "## LearnedFTL's GC overhead (Figure 16)", "",
              "| run | groups collected | training us/group | sorting us/group | "
              "group span ms | training share | sorting share | both |",
              "|---|---|---|---|---|---|---|---|"]
    for r in summary["results"]:
        if r.get("failed") or r["scheme"] != "learnedftl":
            continue
        o = r["gc_overhead"]["run"]
        lines.append(f"| {r['name']} | {fmt(o['sets'], ',')} | "
                     f"{fmt(o['train_us_per_set'], ',.1f')} | {fmt(o['scan_us_per_set'], ',.1f')}"
                     f" | {fmt(o['set_ms'], ',.2f')} | {pct(o['train_share'])} | "
                     f"{pct(o['scan_share'])} | {pct(o['share'])} |")
    lines += ["", "## Memory", "",
              "Cached mappings: map.translatable_lpns at the end of the read run (what the CMT "
              "held; the ideal FTL: its whole table); share: of the exported LPNs.", "",
              "| run | ftl.map_budget | map.table_bytes | learnedftl.model_bytes | "
              "cached mappings | share |",
              "|---|---|---|---|---|---|"]
    for r in summary["results"]:
        if not r.get("failed") and r["kind"] == "read":
            lines.append(f"| {r['name']} | {r['map_budget']} | {fmt(r['table_bytes'], ',')} | "
                         f"{fmt(r['model_bytes'], ',')} | {fmt(r.get('cached_mappings'), ',')} | "
                         f"{pct(ratio(r.get('cached_mappings'), exported_lpns()))} |")
    return "\n".join(lines) + "\n"


def scale_block(settings):
    raw = CHANNELS * WAYS * NAND["blocks"] * NAND["pages"] * PAGE_BYTES
    paper_raw = PAPER["exported_bytes"] + PAPER["op_bytes"]
    lpns = exported_lpns()
    return {
        "channels": CHANNELS, "ways": WAYS, "dies": 1, "planes": 1,
        "page_bytes": PAGE_BYTES, "pages_per_block": NAND["pages"],
        "paper_pages_per_block": PAPER["pages_per_block"],
        "pages_per_block_factor": NAND["pages"] / PAPER["pages_per_block"],
        "blocks_per_plane": NAND["blocks"], "paper_blocks_per_chip": PAPER["blocks_per_chip"],
        "blocks_factor": NAND["blocks"] / PAPER["blocks_per_chip"],
        "stripe_pages": stripe_pages(), "raw_bytes": raw, "paper_raw_bytes": paper_raw,
        "device_factor": raw / paper_raw, "ftl_op": FTL_OP,
        "paper_op": PAPER["op_bytes"] / paper_raw, "exported_lpns": lpns,
        "exported_bytes": lpns * PAGE_BYTES, "cell": NAND["cell"],
        "t_read": NAND["t_read"]["lsb"], "t_prog": NAND["t_prog"], "t_erase": NAND["t_erase"],
        "gtd_group_tps": GTD_GROUP_TPS, "paper_group_tps": PAPER["group_tps"],
        "tp_entries": ENTRIES_PER_TP, "paper_tp_entries": PAPER["tp_entries"],
        "groups": groups(), "gtd_group_spare_stripes": GTD_SPARE_STRIPES,
        "gtd_group_lone_stripe": settings["lone_stripe"],
        "learnedftl_pieces": LEARNEDFTL_PIECES,
        "map_budget": MAP_BUDGET, "ideal_map_budget": ideal_map_budget(),
        "model_bytes_measured_at_design": MODEL_BYTES_MEASURED,
        "paper_cmt_slots": PAPER["cmt_slots"],
        "paper_cmt_share_of_pages": PAPER["cmt_slots"] / (paper_raw // PAPER["page_bytes"]),
        "cmt_bytes_at_0.1_percent": round(0.001 * lpns * CMT_ENTRY_BYTES),
        "gc_batch_programs": GC_BATCH_PROGRAMS, "gc_background_free": GC_BACKGROUND_FREE,
        "sram": SRAM, "write_buffer_pages": WRITE_BUFFER_PAGES, "queue_depth": QUEUE_DEPTH,
        "paper_threads": PAPER["threads"], "cpu_clock": CPU_CLOCK, "host_oracle": False,
        "warmup_capacity_multiple": settings["warmup_multiple"],
        "read_requests": settings["requests"], "trace_requests": settings["trace_requests"],
        "write_capacity_multiple": settings["write_multiple"],
        "traces": {tr: TRACES[tr] for tr in settings["traces"]},
        "trace_footprint_scale": TRACE_FOOTPRINT_SCALE,
        "trace_footprint_bytes": {tr: int(TRACE_FOOTPRINT_MIB[tr] * TRACE_FOOTPRINT_SCALE
                                          * 2**20) for tr in settings["traces"]},
        "seed": 1,
    }


parse_list = ssdvp_results.parse_list


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ssdsim", default=str(ROOT / "build" / "tb" / "ssdsim"))
    parser.add_argument("--out", default=str(ROOT / "results" / "reproduce" / "learnedftl"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--schemes", default=",".join(SCHEMES),
                        help="comma-separated, of: " + ", ".join(SCHEMES))
    parser.add_argument("--traces", default=",".join(TRACES),
                        help="trace profiles, comma-separated, of: " + ", ".join(TRACES))
    parser.add_argument("--requests", type=int, default=READ_REQUESTS,
                        help=f"requests of each FIO read phase (default {READ_REQUESTS})")
    parser.add_argument("--trace-requests", type=int, default=TRACE_REQUESTS,
                        help=f"requests of each trace phase (default {TRACE_REQUESTS})")
    parser.add_argument("--warmup-multiple", type=float, default=WARMUP_MULTIPLE,
                        help="capacity multiple the read run's random-write warm-up writes "
                             f"(default {WARMUP_MULTIPLE})")
    parser.add_argument("--write-multiple", type=float, default=WRITE_MULTIPLE,
                        help="capacity multiple each write run writes from empty (default "
                             f"{WRITE_MULTIPLE})")
    parser.add_argument("--lone-stripe", choices=LONE_STRIPES, default=LONE_STRIPES[0],
                        help="LearnedFTL's ftl.gtd_group.lone_stripe: empty, the paper's whole "
                             "groups (default); fits, the authors' single-line GC")
    parser.add_argument("--resume", action="store_true",
                        help="keep the finished runs of an earlier invocation whose scenario is "
                             "unchanged")
    parser.add_argument("--quick", action="store_true",
                        help=f"smoke run: warm-up {QUICK['warmup_multiple']} of the capacity, "
                             f"{QUICK['requests']} requests per read phase, traces "
                             f"{', '.join(QUICK['traces'])}, writes of "
                             f"{QUICK['write_multiple']}")
    args = parser.parse_args(argv)
    schemes = parse_list(args.schemes, SCHEMES, "scheme", parser)
    traces = parse_list(args.traces, list(TRACES), "trace", parser)
    if args.requests < 1 or args.trace_requests < 1:
        parser.error("--requests and --trace-requests: at least 1")
    if not 0 < args.write_multiple <= 100 or not 0 < args.warmup_multiple <= 100:
        parser.error("--write-multiple and --warmup-multiple: in (0, 100]")
    settings = settings_of(args.requests, args.trace_requests, traces, args.write_multiple,
                           args.quick, args.warmup_multiple, args.lone_stripe)
    out = ssdvp_results.check_run_options(args, parser)
    started = time.time()
    todo = points(schemes, settings)
    results, done = run_all(args, out, todo)
    summary = {
        "paper": "LearnedFTL: a learning-based page-level FTL for reducing double reads in "
                 "flash-based SSDs (S. Wang et al., HPCA 2024)",
        "quick": args.quick, "schemes": schemes, "traces": settings["traces"],
        "scale": scale_block(settings), "jobs": args.jobs,
        "wall_seconds": round(time.time() - started, 1),
        "runs_wall_seconds": round(sum(done["runs"].values()), 1),
        "runs": len(todo), "reused_runs": done["reused"],
        "results": results,
        "trace_p99": trace_ratios(index(results), settings["traces"], "read_p99_us"),
        "trace_p999": trace_ratios(index(results), settings["traces"], "read_p999_us"),
    }
    summary["claims"] = claims(results, settings["traces"])
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    plot(summary, out)
    (out / "summary.md").write_text(markdown(summary))
    print(f"wrote {out}/summary.json, summary.md and the figures; {ssdvp_results.wall_line(summary)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
