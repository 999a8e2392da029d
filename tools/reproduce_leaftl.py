#!/usr/bin/env python3
"""Reproduces LeaFTL's simulator experiments on the mapping table (J. Sun et al., ASPLOS 2023,
../shared/papers/003_*.txt, sections 4.2, 4.4 and 4.5) on ssdsim.

    /usr/bin/python3 tools/reproduce_leaftl.py [--jobs 2] [--out results/reproduce/leaftl]
        [--profiles leaftl_hm,...] [--gammas 0,1,4,16] [--scale 1] [--quick] [--resume]

Runs each of the seven LeaFTL profiles (README "LeaFTL profiles": MSR hm_0, prn_0, prxy_0,
src2_0, usr_0, FIU homes and mail) with `firmware.scheme: leaftl` at error bound gamma 0, 1, 4
and 16, and writes summary.json (per profile and gamma: the mapping table in the paper's
accounting and ours, SFTL's and DFTL's for the same mappings after the warm-up and at the end,
segments, CRB bytes, the misprediction ratio, the levels searched per lookup, learning and
lookup cycles, the overwrites' OOB reads and the measured phase's mean read latency), PNGs like
Figures 15, 19, 23a and 24, and summary.md, the paper's claims beside ours.

Each run: a warm-up phase of the profile's own stream (the paper warms its SSD up by replaying
traces) whose writes total about twice the profile's footprint, then a measured phase of the same
stream (a new seed) writing about the footprint once more. One run gives every table size: the
scheme keeps LeaFTL's segments and counts, from the same mappings, DFTL's 8 bytes per mapped LPN
and (`ftl.leaftl.account_sftl`) SFTL's run heads and frames. The mapping budget is large enough
that nothing is ever evicted (LeaFTL does not evict yet: it would stop naming ftl.map_budget),
so Figure 16b, latency with one memory shared by the table and the data cache, is not run.

Scale (every factor is in summary.json "scale"): footprints are the profiles' times --scale
(default 1: 512 MiB to 4 GiB); the device has the paper's 4 KiB pages, 256 pages per block and
20 % over-provisioning (Table 1) but 8 GiB, not 2 TB; the write buffer (256 pages, the paper's
learning batch) is sorted when 90 % full (`ftl.fsp.policy: sorted`, `flush_watermark: 90`).
"""

import argparse
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
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
# below it unless every LPN is its own segment.
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


def scenario(name, profile, gamma, scale, quick):
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

    return {
        "name": name, "seed": 1,
        "cpu": {"clock": CPU_CLOCK},
        "sram": {"size": SRAM}, "dram": {"size": DRAM},
        "nand": NAND,
        "firmware": {"scheme": "leaftl"},
        "ftl": {"map_budget": MAP_BUDGET, "op": FTL_OP,
                "write_buffer": {"pages": WRITE_BUFFER_PAGES, "location": "dram",
                                 "flush_watermark": FLUSH_WATERMARK},
                "fsp": {"policy": "sorted"},
                # SFTL's run heads are kept exactly only at gamma 0 (the platform refuses more).
                "leaftl": {"gamma": gamma, "account_sftl": gamma == 0}},
        "host": {"oracle": True, "stats_interval": "0s"},
        "workload": {"phases": [
            phase(WARMUP, WARMUP_WRITES, QUICK["warmup_requests"]),
            phase(MEASURED, MEASURE_WRITES, QUICK["measure_requests"])]},
    }


def points(profiles, gammas, scale, quick):
    """Every run, the largest footprints and the smallest gammas (deeper tables) first."""
    found = []
    for profile in profiles:
        for gamma in gammas:
            name = f"{profile}_g{gamma}"
            found.append({"profile": profile, "gamma": gamma, "name": name,
                          "scenario": scenario(name, profile, gamma, scale, quick)})
    return sorted(found, key=lambda p: (-footprint_bytes(p["profile"], scale), p["gamma"]))


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


def clock_hz(text):
    units = {"GHz": 1e9, "MHz": 1e6, "kHz": 1e3, "Hz": 1.0}
    for unit, factor in units.items():
        if str(text).endswith(unit):
            return float(str(text)[:-len(unit)]) * factor
    return float(text)


def figures_of(run):
    """A run's figures: the table after the warm-up and at the end, the measured phase's
    predictions, lookups and latency, the whole run's learning and lookup costs."""
    stats = run.stats
    outcome = stats["outcome"]["outcome"]
    if outcome != "workload_done":
        raise RuntimeError(f"{run.path}: outcome {outcome}: {stats['outcome'].get('message')}")
    warm, measured, whole = run.ftl_phase(WARMUP), run.ftl_phase(MEASURED), run.ftl()["run"]
    hz = clock_hz(lookup(stats, "config.cpu.clock") or CPU_CLOCK)
    host = next(h for h in stats["host"]["phases"] if h["name"] == MEASURED)
    warm_host = next(h for h in stats["host"]["phases"] if h["name"] == WARMUP)
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
        "after_warmup": tables(warm),
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
        "warmup_commands": warm_host["commands"],
        "measure_commands": host["commands"],
        # Whole run (learning is mostly in the warm-up).
        "learn_cycles_per_256": None if learn is None else learn * 256,
        "plr_cycles_per_256": None if plr is None else plr * 256,
        "learn_us_per_256": None if learn is None else learn * 256 / hz * 1e6,
        "lookup_cycles": per_lookup,
        "lookup_ns": None if per_lookup is None else per_lookup / hz * 1e9,
        "cpu_hz": hz,
    }


# ---- aggregation and the claims ------------------------------------------------------------

def by_point(results):
    return {(r["profile"], r["gamma"]): r for r in results}


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


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


def claims(results):
    """(claim, the paper's figure, ours) rows; a figure not run reads n/a."""
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
    rows.append(("Figure 16b: latency with DRAM shared by table and data cache",
                 "1.4x / 1.6x faster than SFTL / DFTL",
                 "not run: LeaFTL does not evict groups when its budget is exceeded yet"))
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


def fmt(value, spec):
    return "n/a" if value is None else format(value, spec)


def markdown(summary):
    results = summary["results"]
    lines = ["# LeaFTL (ASPLOS 2023) reproduction", "",
             f"Scale: {json.dumps(summary['scale'])}", "",
             f"Wall time: {summary['wall_seconds']:.0f} s on {summary['jobs']} jobs (the runs "
             f"took {summary['runs_wall_seconds']:.0f} s between them).", "",
             "## The paper's claims beside ours", "",
             "Table sizes at the end of the run; ratios averaged per trace as the paper's; "
             "n/a: not run or not reported.", "",
             "| claim | paper | ours |", "|---|---|---|"]
    lines += [f"| {claim} | {paper} | {ours} |" for claim, paper, ours in summary["claims"]]
    lines += ["", "## Not run", "", summary["not_run"]["figure_16b"], ""]
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
    return "\n".join(lines) + "\n"


def parse_list(text, allowed, what, parser):
    """Comma-separated names, each one of `allowed` (case-insensitive), in the given order."""
    known = {str(a).lower(): a for a in allowed}
    names = [n.strip() for n in text.split(",") if n.strip()]
    for n in names:
        if n.lower() not in known:
            parser.error(f"unknown {what} '{n}'; allowed: {', '.join(map(str, allowed))}")
    return [known[n.lower()] for n in names]


def scale_block(profiles, scale, quick):
    device = PLANES * NAND["blocks"] * NAND["pages"] * PAGE_BYTES
    return {
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
    }


NOT_RUN = {"figure_16b": (
    "Figure 16b (latency with one DRAM shared by the mapping table and the data cache, at "
    "least 20 % of it for data) is not run: LeaFTL does not yet evict groups when its budget "
    "is exceeded (the firmware stops naming ftl.map_budget), so every run here has a budget "
    "nothing outgrows and only the table's size and costs are measured.")}


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
                             f"{QUICK['warmup_requests']} + {QUICK['measure_requests']} requests")
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
    if args.quick:
        profiles, gammas = QUICK["profiles"], QUICK["gammas"]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.time()
    todo = points(profiles, gammas, args.scale, args.quick)
    results = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_point, args.ssdsim, out, p, args.resume) for p in todo]
        try:
            for done in as_completed(futures):
                point, directory, seconds = done.result()
                figures = figures_of(ssdvp_results.load_run(directory))
                figures.update({"profile": point["profile"], "gamma": point["gamma"],
                                "wall_seconds": round(seconds, 1)})
                results.append(figures)
                print(f"{point['name']}: table {figures['end']['bytes_paper']} B (DFTL "
                      f"{times(figures['ratio_dftl'])}), mispredictions "
                      f"{pct(figures['misprediction_ratio'])} in {seconds:.0f} s "
                      f"({len(results)}/{len(todo)})", flush=True)
        except BaseException:
            pool.shutdown(cancel_futures=True)  # stop at the first failure; --resume goes on
            raise
    order = list(PROFILES)
    results.sort(key=lambda r: (order.index(r["profile"]), r["gamma"]))
    summary = {
        "paper": "LeaFTL: a learning-based flash translation layer (J. Sun et al., ASPLOS 2023)",
        "scale": scale_block(profiles, args.scale, args.quick),
        "jobs": args.jobs,
        "wall_seconds": round(time.time() - started, 1),
        "runs_wall_seconds": round(sum(r["wall_seconds"] for r in results), 1),
        "not_run": NOT_RUN,
        "results": results,
    }
    summary["claims"] = claims(results)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    plot(summary, out)
    (out / "summary.md").write_text(markdown(summary))
    print(f"wrote {out}/summary.json, summary.md and the figures in "
          f"{summary['wall_seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
