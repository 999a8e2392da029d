#!/usr/bin/env python3
"""Reproduces the RL full-sequence-program scheduling paper's experiments (J. Li et al., TCAD
2024, ../shared/papers/002_*.txt, section IV; issue 20) on ssdsim.

    /usr/bin/python3 tools/reproduce_rl_fsp.py [--jobs 2] [--out results/reproduce/rl-fsp]
        [--policies Baseline,Baseline-RW,Frequency,Distance,RL] [--profiles stg0,...]
        [--caches 2,8,32] [--scale 0.0625] [--real-traces] [--quick] [--resume]

Runs each workload (the eight Table II trace profiles, `pattern: profile`, and with
--real-traces the two sample traces of ../shared/traces) x DRAM cache of 2, 8 and 32 MiB x the
five wordline grouping policies on the Table I geometry, scaled in blocks and pages per block,
with the ideal page map so that only the grouping differs, and writes summary.json (per
workload, cache size and policy: mean read and I/O latency, host reads per page type and the
LSB share, cache hit ratios, GC erases, rewrites, the policy's cycles and share of the time, the
RL reward curve), PNGs like Figures 9 to 14 and summary.md, the paper's claims beside ours.

Scale (every factor is in summary.json "scale"): each profile's footprint and request count are
Table II's times --scale (default 1/16, half the profiles' own default, to fit the hour), so
every page is accessed as often as in the trace; the caches keep the paper's sizes and so are
1/scale times larger against the footprint. The device keeps Table I's 8 channels x 2 chips x
2 planes, 8 KiB pages and timing, but has 64 pages per block (Table I: 1024) and 128 blocks per
plane (4096): 2 GiB, which a sequential precondition writes once per run so that GC runs in the
measured phase.
"""

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ssdvp_results  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# The paper's configurations: the firmware's grouping policy, and whether the cache keeps read
# data as clean entries (Baseline-RW).
POLICIES = {
    "Baseline": {"policy": "baseline", "clean_entries": False},
    "Baseline-RW": {"policy": "baseline", "clean_entries": True},
    "Frequency": {"policy": "frequency", "clean_entries": False},
    "Distance": {"policy": "distance", "clean_entries": False},
    "RL": {"policy": "rl", "clean_entries": False},
}
# Table II's request counts: a run issues them times the scale, as its footprint is scaled.
PROFILES = {"stg0": 2030915, "ts0": 1801734, "src1_2": 1907773, "hm0": 3993316,
            "ali188": 6198540, "ali112": 3116126, "ali735": 963179, "ali121": 18565868}
# --real-traces: the sample traces of ../shared/traces, whole (no request limit).
TRACES = ssdvp_results.TRACES
CACHES_MIB = [2, 8, 32]
PAGE_BYTES = 8192
# Table I scaled in blocks (4096 -> 128 per plane) and pages per block (1024 -> 64): a stripe
# (a block of each of the 16 dies' two planes) of 1024-page blocks is 256 MiB, and GC needs
# some 60 stripes at 7 % over-provisioning, a 16 GiB precondition per run.
NAND = {"channels": 8, "ways": 2, "dies": 1, "planes": 2, "blocks": 128, "pages": 64,
        "page_size": "8KiB"}
TABLE_I = {"channels": 8, "ways": 2, "planes": 2, "blocks": 4096, "pages": 1024}
DEFAULT_SCALE = 0.0625
QUEUE_DEPTH = 16  # the profiles run closed-loop (they have no timestamps), as trace_profile.yaml
# A write-back cache evicting near full (README's data cache): dirty pages stay for write hits,
# and the last tenth of the slots lets several wordlines program at once (at 100 % the cache
# programs one wordline at a time, a sixteenth of the dies' throughput).
FLUSH_WATERMARK = 90
FTL_OP = 0.07  # ssdsim's default ftl.op, left as it is: Table I gives none
CPU_HZ = 800e6  # the controller's clock; the paper timed the policies on an 800 MHz Cortex-A7
STATS_INTERVAL = "100ms"  # the time series the RL reward curve is read from
EPISODE_STEPS = 1000  # the paper's episode, for the reward's units
MEASURED = "measure"
QUICK = {"profiles": ["hm0", "ali735"], "caches": [2], "requests": 4000}
RL_COUNTERS = ("fsp.rl.episodes", "fsp.rl.rewarded_steps", "fsp.rl.reward_gained",
               "fsp.rl.reward_lost")


def scenario(name, policy, cache_mib, stream, requests):
    measure = {"name": MEASURED, "streams": [stream]}
    if requests:
        measure["requests"] = requests
    return {
        "name": name, "seed": 1,
        "cpu": {"clock": f"{CPU_HZ / 1e6:.0f}MHz"},
        # The ideal map's table (4 bytes per LPN) is in SRAM; the cache and the policies'
        # access history are in DRAM.
        "sram": {"size": "4MiB"}, "dram": {"size": "64MiB"},
        "firmware": {"scheme": "ideal"},
        "nand": NAND,
        "ftl": {"map_budget": "1MiB",  # the ideal map: 4 bytes per LPN, all of them
                "write_buffer": {"pages": cache_mib * 2**20 // PAGE_BYTES,
                                 "location": "dram", "flush_watermark": FLUSH_WATERMARK,
                                 "clean_entries": POLICIES[policy]["clean_entries"]},
                "fsp": {"policy": POLICIES[policy]["policy"]}},
        "host": {"oracle": True, "stats_interval": STATS_INTERVAL},
        "workload": {"phases": [
            {"name": "precondition", "capacity_multiple": 1,
             "streams": [{"pattern": "sequential", "size": "128KiB", "queue_depth": 8}]},
            measure]},
    }


def workloads(profiles, scale, quick, real_traces):
    """(workload, its measured stream, its request limit: None for a whole trace)."""
    found = []
    for profile in profiles:
        found.append((profile, {"name": profile, "profile": profile, "footprint_scale": scale,
                                "queue_depth": QUEUE_DEPTH},
                      QUICK["requests"] if quick else round(PROFILES[profile] * scale)))
    if real_traces:
        found += [(name, dict(stream, name=name), None) for name, stream in TRACES.items()]
    return found


def points(policies, profiles, caches, scale, quick, real_traces):
    """Every run, the longest first (the most requests, then the largest cache, the policies'
    window) so that the pool does not end on one long run (a trace: some 10,000 requests)."""
    found = []
    for workload, stream, requests in workloads(profiles, scale, quick, real_traces):
        for cache in caches:
            for policy in policies:
                name = f"{workload}_{cache}MiB_{policy}"
                found.append({"workload": workload, "cache_mib": cache, "policy": policy,
                              "name": name, "requests": requests or 10000,
                              "scenario": scenario(name, policy, cache, stream, requests)})
    return sorted(found, key=lambda p: (-p["requests"], -p["cache_mib"]))


def check_policies(ssdsim, policies):
    """Fails at once, with ssdsim's list of the names it knows, when the firmware lacks a
    policy (RL until it lands), rather than when its first run comes up."""
    for name in {POLICIES[p]["policy"] for p in policies}:
        result = subprocess.run([ssdsim, "--set", f"ftl.fsp.policy={name}", "--memory-map"],
                                capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"{ssdsim} refuses ftl.fsp.policy={name}: {result.stderr.strip()}\n"
                     f"(leave its policy out with --policies)")


run_point = ssdvp_results.run_point
lookup = ssdvp_results.lookup_or_none  # a metric by dotted path, None when absent


ratio = ssdvp_results.ratio


def reward_curve(series):
    """(episodes completed, average reward per step over the episodes since the last point)
    from the phase's time series: rewards are cumulative milli-rewards, so a point is
    Δ(gained - lost) / 1000 / Δsteps, taken whenever an episode has ended since the last. The
    steps are those rewarded (a step is rewarded an episode later), all of them until the
    firmware counts those."""
    series = dict(series)
    series.setdefault("fsp.rl.rewarded_steps", series.get("fsp.rl.steps"))
    if any(series.get(c) is None for c in RL_COUNTERS):
        return None
    episodes, steps, gained, lost = (series[c] for c in RL_COUNTERS)
    curve, last = [], 0
    for i in range(1, len(episodes)):
        if episodes[i] > episodes[last] and steps[i] > steps[last]:
            reward = (gained[i] - lost[i]) - (gained[last] - lost[last])
            curve.append((episodes[i], reward / 1000 / (steps[i] - steps[last])))
            last = i
    return curve


def figures_of(run):
    """The measured phase's figures, from the host's and the FTL's statistics."""
    phase = run.ftl_phase(MEASURED)
    host = next(h for h in run.stats["host"]["phases"] if h["name"] == MEASURED)
    ops = host["ops"]
    commands = sum(op["commands"] for op in ops.values())
    io_ns = sum(op["commands"] * op["latency_ns"]["mean"] for op in ops.values())
    select_cycles = lookup(phase, "fsp.select_cycles")
    # The policy's work: choosing a wordline's pages, and hearing what was programmed (RL
    # logs its steps there).
    policy_cycles = (None if select_cycles is None else
                     select_cycles + (lookup(phase, "fsp.commit_cycles") or 0))
    types = ("lsb", "clsb", "cmsb", "msb")
    return {
        "read_latency_us": (ops["read"]["latency_ns"]["mean"] / 1000
                            if ops["read"]["commands"] else None),
        "io_latency_us": io_ns / commands / 1000 if commands else None,
        "host_reads_by_page_type": {t: lookup(phase, f"host_reads_by_page_type.{t}")
                                    for t in types},
        "lsb_reads": lookup(phase, "host_reads_by_page_type.lsb"),
        "lsb_share": lookup(phase, "host_reads_lsb_fraction"),
        "read_hit_ratio": ratio(lookup(phase, "cache.read_hits"), phase["host_read_pages"]),
        "write_hit_ratio": ratio(lookup(phase, "cache.write_hits"), phase["host_write_pages"]),
        # Every erase is GC's: static wear levelling is off. Groups: a multi-plane erase each.
        "gc_erases": phase["blocks_erased"],
        "rewrites": lookup(phase, "cache.rewrites"),
        "waf": phase["waf"],
        "policy_cycles_per_selection": ratio(select_cycles, lookup(phase, "fsp.selections")),
        # Of the phase's simulated time: the CPU time the policy takes from serving I/O.
        "policy_time_share": ratio(None if policy_cycles is None else policy_cycles / CPU_HZ,
                                   host["duration_s"]),
        "reward_curve": reward_curve(phase.get("series", {})),
        "phase_seconds": host["duration_s"],
    }


# ---- aggregation and the claims ------------------------------------------------------------

def by_point(results):
    return {(r["workload"], r["cache_mib"], r["policy"]): r for r in results}


def pairs(results, policy, reference, key, among):
    """(ours, reference's) of `key` at each (workload, cache) both ran with a value."""
    table = by_point(results)
    found = []
    for (workload, cache, p), r in table.items():
        other = table.get((workload, cache, reference))
        if p == policy and workload in among and other is not None:
            if r[key] is not None and other[key] is not None:
                found.append((r[key], other[key]))
    return found


mean = ssdvp_results.mean


def mean_reduction(results, policy, reference, key, among):
    """1 - policy / reference, averaged over traces and cache sizes (the paper's averages of
    normalised latencies)."""
    return mean(1 - a / b for a, b in pairs(results, policy, reference, key, among) if b)


def mean_ratio(results, policy, reference, key, among):
    """policy / reference, averaged where the reference is not zero."""
    return mean(a / b for a, b in pairs(results, policy, reference, key, among) if b)


pct = ssdvp_results.pct


def times(x):
    return "n/a" if x is None else f"{x:.2f}x"


def claims(results):
    """(claim, the paper's figure, ours) rows over the Table II profiles, as the paper averages
    over its eight traces; a policy or metric missing reads n/a."""
    w = set(PROFILES)
    rows = []
    for metric, key, paper in (("mean read latency", "read_latency_us", (40.4, 28.3, 38.8)),
                               ("mean I/O latency", "io_latency_us", (27.8, 17.4, 28.2))):
        for reference, figure in zip(("Baseline", "Frequency", "Distance"), paper):
            rows.append((f"RL lowers {metric} against {reference}", f"{figure} %",
                         pct(mean_reduction(results, "RL", reference, key, w))))
    rows.append(("Frequency lowers mean read latency against Baseline", "13.6 %",
                 pct(mean_reduction(results, "Frequency", "Baseline", "read_latency_us", w))))
    rows.append(("Distance lowers mean read latency against Baseline", "1.9 %",
                 pct(mean_reduction(results, "Distance", "Baseline", "read_latency_us", w))))
    for policy, figure in (("RL", "2.9x"), ("Frequency", "1.7x")):
        rows.append((f"LSB page reads, {policy} against Baseline", figure,
                     times(mean_ratio(results, policy, "Baseline", "lsb_reads", w))))
    rl = [r["lsb_share"] for r in results
          if r["policy"] == "RL" and r["workload"] in w and r["lsb_share"] is not None]
    rl2 = [r["lsb_share"] for r in results if r["policy"] == "RL" and r["workload"] in w and
           r["cache_mib"] == 2 and r["lsb_share"] is not None]
    rows.append(("RL's LSB share of the host reads from flash, mean (2 MiB cache)",
                 "73.1 % (71.2 %)", f"{pct(mean(rl))} ({pct(mean(rl2))})"))
    for policy, figure in (("RL", "+2.5 %"), ("Frequency", "+7.6 %"), ("Baseline-RW", "2.2x")):
        r = mean_ratio(results, policy, "Baseline", "gc_erases", w)
        ours = (times(r) if policy == "Baseline-RW" or r is None else
                f"{100 * (r - 1):+.1f} %")
        rows.append((f"GC erases, {policy} against Baseline", figure, ours))
    timed = [r for r in results if r["policy"] in ("Frequency", "Distance", "RL") and
             r["workload"] in w and r["policy_time_share"] is not None]
    ours = "n/a"
    if timed:
        top = max(timed, key=lambda r: r["policy_time_share"])
        ours = (f"at most {pct(top['policy_time_share'])} ({top['policy']}, {top['workload']}, "
                f"{top['cache_mib']} MiB); mean " + ", ".join(
                    f"{p} {pct(mean(r['policy_time_share'] for r in timed if r['policy'] == p))}"
                    for p in ("Frequency", "Distance", "RL")
                    if any(r["policy"] == p for r in timed)))
    rows.append(("Grouping policy's time (Frequency, Distance, RL), share of the I/O time",
                 "1.6e-05 % to 0.31 %", ours))
    for policy, paper in (("Baseline-RW", "read higher, write lower"), ("RL", "about the same")):
        ours = []
        for key in ("read_hit_ratio", "write_hit_ratio"):
            found = pairs(results, policy, "Baseline", key, w)
            ours.append(f"{pct(mean(a for a, _ in found))} vs {pct(mean(b for _, b in found))}"
                        if found else "n/a")
        rows.append((f"Cache hit ratios (read; write), {policy} against Baseline", paper,
                     "; ".join(ours)))
    return rows


# ---- figures and summary.md ----------------------------------------------------------------

def plot(summary, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = summary["results"]
    table = by_point(results)
    names = list(dict.fromkeys(r["workload"] for r in results))
    caches = sorted({r["cache_mib"] for r in results})
    policies = [p for p in POLICIES if any(r["policy"] == p for r in results)]

    def value(workload, cache, policy, key, normalise):
        r, base = table.get((workload, cache, policy)), table.get((workload, cache, "Baseline"))
        y = None if r is None else r[key]
        if normalise:
            y = ratio(y, None if base is None else base[key])
        return float("nan") if y is None else y  # a gap in the bars

    def bars(ax, cache, key, normalise):
        width = 0.8 / len(policies)
        for i, policy in enumerate(policies):
            ys = [value(w, cache, policy, key, normalise) for w in names]
            ax.bar([j + (i - (len(policies) - 1) / 2) * width for j in range(len(names))],
                   ys, width, label=policy)
        ax.set_xticks(range(len(names)), names, rotation=45, fontsize=7)

    def figure(name, title, rows):
        """One PNG, a panel per cache size and per (key, ylabel, normalise) row."""
        fig, axes = plt.subplots(len(rows), len(caches), squeeze=False,
                                 figsize=(4.5 * len(caches), 3.2 * len(rows)))
        for row, (key, ylabel, normalise) in zip(axes, rows):
            for ax, cache in zip(row, caches):
                bars(ax, cache, key, normalise)
                ax.set_title(f"cache {cache} MiB", fontsize=9)
                ax.set_ylabel(ylabel, fontsize=8)
        fig.legend(*axes[0][0].get_legend_handles_labels(), loc="lower center",
                   ncol=len(policies), fontsize=8)
        fig.suptitle(title)
        fig.tight_layout(rect=(0, 0.06, 1, 1))
        fig.savefig(out / name, dpi=110)
        plt.close(fig)

    figure("fig9_read_latency.png", "Figure 9: mean read latency, normalised to Baseline",
           [("read_latency_us", "read latency / Baseline's", True)])
    figure("fig10_io_latency.png", "Figure 10: mean I/O latency, normalised to Baseline",
           [("io_latency_us", "I/O latency / Baseline's", True)])
    figure("fig11_lsb_reads.png", "Figure 11: host reads from LSB pages",
           [("lsb_reads", "LSB reads / Baseline's", True),
            ("lsb_share", "LSB share of flash reads", False)])
    figure("fig13_hit_ratios.png", "Figure 13: cache hit ratios",
           [("read_hit_ratio", "read hit ratio", False),
            ("write_hit_ratio", "write hit ratio", False)])
    figure("fig14_gc_erases.png", "Figure 14: erases caused by GC",
           [("gc_erases", "erases (multi-plane groups)", False)])
    curves = [r for r in results if r["reward_curve"]]
    if curves:
        shown = [w for w in names if any(r["workload"] == w for r in curves)]
        cols = min(4, len(shown))
        fig, axes = plt.subplots((len(shown) + cols - 1) // cols, cols, squeeze=False,
                                 figsize=(4 * cols, 3 * ((len(shown) + cols - 1) // cols)))
        for ax, workload in zip(axes.flat, shown):
            for r in (r for r in curves if r["workload"] == workload):
                ax.plot([e for e, _ in r["reward_curve"]], [v for _, v in r["reward_curve"]],
                        label=f"{r['cache_mib']} MiB", linewidth=0.8, marker=".")
            ax.set_title(workload, fontsize=9)
            ax.set_xlabel(f"episode ({EPISODE_STEPS} steps)", fontsize=8)
            ax.set_ylabel("average reward per step", fontsize=8)
            ax.legend(fontsize=7)
        for ax in list(axes.flat)[len(shown):]:
            ax.set_visible(False)
        fig.suptitle("Figure 12: RL's average reward per episode")
        fig.tight_layout()
        fig.savefig(out / "fig12_reward.png", dpi=110)
        plt.close(fig)


def metric_table(results, title, key, fmt):
    policies = [p for p in POLICIES if any(r["policy"] == p for r in results)]
    table = by_point(results)
    lines = [f"## {title}", "", "| workload | cache | " + " | ".join(policies) + " |",
             "|---|---|" + "---|" * len(policies)]
    for workload, cache in dict.fromkeys((r["workload"], r["cache_mib"]) for r in results):
        cells = [table.get((workload, cache, p), {}).get(key) for p in policies]
        lines.append(f"| {workload} | {cache} MiB | " + " | ".join(
            "n/a" if c is None else fmt.format(c) for c in cells) + " |")
    return lines + [""]


def markdown(summary):
    results = summary["results"]
    lines = ["# RL full-sequence-program scheduling (TCAD 2024) reproduction", "",
             f"Scale: {json.dumps(summary['scale'])}", "",
             f"Wall time: {summary['wall_seconds']:.0f} s on {summary['jobs']} jobs (the runs "
             f"took {summary['runs_wall_seconds']:.0f} s between them).", "",
             "## The paper's claims beside ours", "",
             "Averaged over the Table II profiles and cache sizes, as the paper averages; "
             "n/a: a policy or a metric was not run or not reported.", "",
             "| claim | paper | ours |", "|---|---|---|"]
    lines += [f"| {claim} | {paper} | {ours} |" for claim, paper, ours in summary["claims"]]
    lines.append("")
    lines += metric_table(results, "Mean read latency (us)", "read_latency_us", "{:.0f}")
    lines += metric_table(results, "Mean I/O latency (us)", "io_latency_us", "{:.0f}")
    lines += metric_table(results, "LSB share of the host reads from flash", "lsb_share",
                          "{:.3f}")
    lines += metric_table(results, "Erases caused by GC (multi-plane groups)", "gc_erases",
                          "{}")
    lines += metric_table(results, "Rewrites", "rewrites", "{}")
    lines += metric_table(results, "Policy cycles per selection", "policy_cycles_per_selection",
                          "{:.0f}")
    return "\n".join(lines) + "\n"


parse_list = ssdvp_results.parse_list


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ssdsim", default=str(ROOT / "build" / "tb" / "ssdsim"))
    parser.add_argument("--out", default=str(ROOT / "results" / "reproduce" / "rl-fsp"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--policies", default=",".join(POLICIES),
                        help="comma-separated, of: " + ", ".join(POLICIES))
    parser.add_argument("--profiles", default=",".join(PROFILES),
                        help="comma-separated, of: " + ", ".join(PROFILES))
    parser.add_argument("--caches", default=",".join(map(str, CACHES_MIB)),
                        help="cache sizes in MiB, comma-separated (default 2,8,32)")
    parser.add_argument("--scale", type=float, default=DEFAULT_SCALE,
                        help="footprint and requests of each profile, a share of Table II's "
                             "(default 1/16)")
    parser.add_argument("--real-traces", action="store_true",
                        help="also replay the two traces of ../shared/traces")
    parser.add_argument("--resume", action="store_true",
                        help="keep the finished runs of an earlier invocation whose scenario "
                             "is unchanged (with the same ssdsim build)")
    parser.add_argument("--quick", action="store_true",
                        help=f"smoke run: profiles {', '.join(QUICK['profiles'])}, "
                             f"{QUICK['caches'][0]} MiB, {QUICK['requests']} requests each")
    args = parser.parse_args(argv)
    policies = parse_list(args.policies, list(POLICIES), "policy", parser)
    profiles = parse_list(args.profiles, list(PROFILES), "profile", parser)
    try:
        caches = [int(c) for c in args.caches.split(",")]
    except ValueError:
        parser.error(f"--caches: whole MiB, comma-separated, not '{args.caches}'")
    if any(c < 1 for c in caches):
        parser.error(f"--caches: at least 1 MiB each, not '{args.caches}'")
    if not 0 < args.scale <= 1:
        parser.error("--scale: a share of Table II, in (0, 1]")
    out = ssdvp_results.check_run_options(args, parser)
    if args.quick:
        profiles, caches = QUICK["profiles"], QUICK["caches"]
    check_policies(args.ssdsim, policies)
    started = time.time()
    todo = points(policies, profiles, caches, args.scale, args.quick, args.real_traces)
    results = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_point, args.ssdsim, out, p, args.resume) for p in todo]
        try:
            for done in as_completed(futures):
                point, directory, seconds = done.result()
                figures = figures_of(ssdvp_results.load_run(directory))
                figures.update({"workload": point["workload"], "cache_mib": point["cache_mib"],
                                "policy": point["policy"], "wall_seconds": round(seconds, 1)})
                results.append(figures)
                print(f"{point['name']}: read {figures['read_latency_us']:.0f} us, LSB share "
                      f"{pct(figures['lsb_share'])}, erases {figures['gc_erases']} in "
                      f"{seconds:.0f} s ({len(results)}/{len(todo)})", flush=True)
        except BaseException:
            pool.shutdown(cancel_futures=True)  # stop at the first failure; --resume goes on
            raise
    order = {w: i for i, w in enumerate(list(PROFILES) + list(TRACES))}
    results.sort(key=lambda r: (order[r["workload"]], r["cache_mib"], list(POLICIES).index(
        r["policy"])))
    summary = {
        "paper": "RL-based FSP scheduling for QLC SSDs (J. Li et al., TCAD 2024)",
        "scale": {"footprint_scale": args.scale,
                  "requests_scale": None if args.quick else args.scale,
                  "requests": {w: n for w, _, n in workloads(profiles, args.scale, args.quick,
                                                             False)},
                  "nand": NAND, "paper_nand": TABLE_I,
                  "pages_per_block_factor": NAND["pages"] / TABLE_I["pages"],
                  "blocks_per_plane_factor": NAND["blocks"] / TABLE_I["blocks"],
                  "device_bytes": (NAND["channels"] * NAND["ways"] * NAND["planes"] *
                                   NAND["blocks"] * NAND["pages"] * PAGE_BYTES),
                  "precondition": "the device written once, 128 KiB sequential",
                  "cache_mib": caches, "cache_location": "dram",
                  "flush_watermark_percent": FLUSH_WATERMARK, "queue_depth": QUEUE_DEPTH,
                  "scheme": "ideal", "ftl_op": FTL_OP, "cpu_hz": CPU_HZ,
                  "stats_interval": STATS_INTERVAL, "seed": 1},
        "jobs": args.jobs,
        "wall_seconds": round(time.time() - started, 1),
        # The runs' own wall times, summed: the cost of runs --resume kept too.
        "runs_wall_seconds": round(sum(r["wall_seconds"] for r in results), 1),
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
