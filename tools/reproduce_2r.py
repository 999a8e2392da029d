#!/usr/bin/env python3
"""Reproduces the 2R paper's WAF experiments (Kang et al., PVLDB 2020; issue 19) on ssdsim.

    python3 tools/reproduce_2r.py [--jobs 2] [--scale 10] [--out results/reproduce/2r]

Runs, on the ISS with the ideal (all-in-RAM) page map so that only GC differs:
  skew    zipf alpha 0 (uniform) .. 1.0 over a full device, for 1R-Greedy, 2R-Greedy and
          2R-FIFO (Figures 7a and 8): cumulative WAF, and the running WAF curve at alpha 1.0;
  oltp    the OLTP-like growing database (Figure 7b): running WAF curves and cumulative WAF;
  op      over-provisioning 5, 10, 20, 50 % on the OLTP-like workload (Figure 11);
  depth   2R-FIFO's FIFO_SCAN_DEPTH 0.6 .. 1.0 on the OLTP-like workload (Figure 6): pages
          copied by GC.
and writes summary.json (per experiment and policy: cumulative WAF, final running WAF and the
GC figures), one PNG per figure and summary.md, the paper's statements beside ours.

Scale (every factor is in summary.json "scale"): 4 KiB pages as in the paper, but stripes of
64 pages (2 channels x one 32-page QLC block) where the paper's blocks hold 1024, and a 128 MiB
device where the paper's FIO trace writes 360 GB over an 8 GB database (45 device writes); here
each run writes --scale times the logical capacity. Over-provisioning is the paper's
(physical - logical) / logical, converted to ssdsim's ftl.op = 1 - 1 / (1 + OP).
"""

import argparse
import json
import math
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ssdvp_results  # noqa: E402

POLICIES = {  # the paper's configurations: victim policy plus placement
    "1R-Greedy": {"victim": "greedy", "one_region": True},
    "2R-Greedy": {"victim": "2r_greedy", "one_region": False},
    "2R-FIFO": {"victim": "2r_fifo", "one_region": False},
    # LFS's cost-benefit (the paper's section 6), its cleaned data in a stream of its own.
    "Cost-benefit": {"victim": "cost_benefit", "one_region": False},
}
PAPER_POLICIES = ["1R-Greedy", "2R-Greedy", "2R-FIFO"]
# The block-utilisation distribution is taken where the paper's Figure 9 takes it: runs are
# deterministic, so a run cut there has the full run's state at that point.
UTILISATION_POINT = 0.75
ALPHAS = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
OPS = [0.05, 0.10, 0.20, 0.50]
DEPTHS = [0.6, 0.7, 0.8, 0.9, 1.0]
NAND = {"channels": 2, "ways": 1, "dies": 1, "planes": 1, "blocks": 512, "pages": 32,
        "page_size": "4KiB"}
PAGE_BYTES = 4096
RUNNING_WINDOW = 0.05  # running WAF: over the last 5 % of the phase's host writes
# The OLTP model's hot window, pages: at most a 64th of the initial database (a tenth of the
# device) keeps its hot phases stark (tlm/host/synthetic_oltp.h).
OLTP_HOT_WINDOW = 32
# One QLC wordline of write buffer, the least the FTL programs from: the paper's simulator has
# no device cache, and a larger one would absorb the OLTP model's hot rewrites.
WRITE_BUFFER_PAGES = 4


def ftl_op(paper_op):
    """ssdsim hides ftl.op of the physical pages; the paper's OP is over the logical ones."""
    return round(1.0 - 1.0 / (1.0 + paper_op), 6)


def logical_pages(op):
    physical = (NAND["channels"] * NAND["ways"] * NAND["dies"] * NAND["planes"] *
                NAND["blocks"] * NAND["pages"])
    return physical * (10**9 - round(op * 10**9)) // 10**9


def scenario(name, policy, paper_op, phases, depth=0.8, async_merge=False):
    op = ftl_op(paper_op)
    return {
        "name": name, "seed": 1,
        "firmware": {"scheme": "ideal"},
        "nand": NAND,
        "ftl": {"op": op, "map_budget": "256KiB", "write_buffer": {"pages": WRITE_BUFFER_PAGES},
                "gc": {"foreground_free": 1, "background_free": 2,
                       "victim": POLICIES[policy]["victim"],
                       "one_region": POLICIES[policy]["one_region"],
                       "async_merge": async_merge,
                       "2r_fifo": {"blk_util": 0.5, "scan_depth": depth}}},
        "host": {"oracle": False, "stats_interval": "2s"},
        "workload": {"phases": phases},
    }


def fio_phases(alpha, op, scale):
    capacity = logical_pages(op) * PAGE_BYTES
    stream = ({"pattern": "random"} if alpha == 0 else {"pattern": "zipf", "alpha": alpha})
    stream.update({"read_fraction": 0.0, "size": "4KiB", "queue_depth": 32})
    return [
        {"name": "fill", "bytes": capacity,
         "streams": [{"pattern": "sequential", "size": "128KiB", "queue_depth": 8}]},
    ] + measure_phases(scale * capacity, [stream])


def measure_phases(total_bytes, streams):
    """The measured writes: one phase, so that the OLTP model's state runs through it (a phase
    starts its streams afresh)."""
    return [{"name": "measure", "bytes": int(total_bytes) // PAGE_BYTES * PAGE_BYTES,
             "streams": streams}]


def oltp_phases(op, scale, cut=1.0):
    """The growing database (pattern oltp, tlm/host/synthetic_oltp.h), sized as the paper's
    TPC-C trace: from a tenth of the logical capacity to all of it (the device has the OP over
    the final database), growing over the `scale` capacities written; the initial database is
    loaded first. With `cut` < 1 the run stops at that share of the writes."""
    capacity = logical_pages(op) * PAGE_BYTES
    initial = capacity // 10 // PAGE_BYTES * PAGE_BYTES
    oltp = {"pattern": "oltp", "size": "4KiB", "queue_depth": 32,
            "db_initial_size": initial, "db_final_size": capacity,
            "insert_fraction": round((capacity - initial) / (scale * capacity), 6),
            "hot_window": OLTP_HOT_WINDOW, "hot_rewrites": 4, "frozen_fraction": 0.8,
            "alpha": 0.9}
    return [
        {"name": "load", "bytes": initial,
         "streams": [{"pattern": "sequential", "size": "128KiB", "queue_depth": 8,
                      "working_set": initial}]},
    ] + measure_phases(cut * scale * capacity, [oltp])


def run_point(ssdsim, out, point):
    directory = out / "runs" / point["name"]
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "scenario.yaml").write_text(json.dumps(point["scenario"], indent=1))  # JSON is YAML
    return point, directory, ssdvp_results.run_ssdsim(ssdsim, directory, point["name"])


MEASURED = "measure"  # the phase of the measured writes


def measured_rows(run):
    return [r for r in run.ftl_timeseries if r["phase"] == MEASURED]


def waf_curve(run):
    """(host pages written, cumulative WAF, running WAF) over the measured phase, from the FTL
    time series."""
    programmed = [c for c in run.ftl_timeseries[0] if c.startswith("pages_programmed.")]
    points = [(r["host_write_pages"] or 0, sum(r[c] or 0 for c in programmed))
              for r in measured_rows(run)]
    curve = []
    for host, flash in points:
        if host == 0:
            continue
        window_start = host - RUNNING_WINDOW * points[-1][0]
        earlier = [p for p in points if p[0] <= window_start] or [(0, 0)]
        h0, f0 = earlier[-1]
        curve.append((host, flash / host, (flash - f0) / (host - h0) if host > h0 else None))
    return curve


def cold_share_curve(run):
    """(host pages written, share of the regions' groups in the cold one) over the measured
    phase."""
    curve = []
    for r in measured_rows(run):
        cold, normal = r["blocks.gc_groups"] or 0, r["blocks.host_groups"] or 0
        curve.append((r["host_write_pages"] or 0, cold / max(1, cold + normal)))
    return curve


def figures_of(run):
    """The measured phase's figures: counters, histograms, the utilisation distribution and
    the cold region's share at its end, the curves."""
    phase = run.ftl_phase(MEASURED)
    gc = phase["gc"]
    blocks = phase["blocks"]
    programmed = sum(v for k, v in ssdvp_results.flatten(phase).items()
                     if k.startswith("pages_programmed.") and isinstance(v, int))
    writes = next(h for h in run.stats["host"]["phases"] if h["name"] == MEASURED)
    curve = waf_curve(run)
    return {
        "cumulative_waf": programmed / phase["host_write_pages"],
        "final_running_waf": curve[-1][2] if curve else None,
        "pages_moved": gc["pages_moved"],
        "pages_moved_from_cold": gc["pages_moved_from_cold"],
        "collections": gc["invocations"],
        "victims_per_set": gc["victims_per_set"]["counts"],
        "normal_victim_valid_pages": gc["normal_victim_valid_pages"]["counts"],
        "cold_victim_valid_pages": gc["cold_victim_valid_pages"]["counts"],
        "victim_bucket_width": gc["victim_valid_pages"]["bucket_width"],
        "page_copies": gc["page_copies"]["counts"],
        "utilisation": blocks["utilisation"],
        "fifo_fallbacks": gc.get("fifo_fallbacks"),
        "cold_groups_share": blocks["gc_groups"] / max(1, blocks["gc_groups"] +
                                                       blocks["host_groups"]),
        "cycles_per_victim_selection": gc["select_cycles"] / max(1, gc["selections"]),
        "write_latency_us": {k: writes["ops"]["write"]["latency_ns"][k] / 1000
                             for k in ("p99", "p99.9", "max")},
        "curve": curve,
        "cold_share_curve": cold_share_curve(run)[::10],
    }


EXPERIMENTS = ("skew", "oltp", "op", "depth", "merge")
OLTP_EXPERIMENTS = {"oltp", "op", "depth"}


def points(scale, experiments):
    found = []
    for policy in POLICIES:
        if "skew" in experiments:
            for alpha in ALPHAS:
                found.append({"experiment": "skew", "policy": policy, "x": alpha,
                              "name": f"skew_{alpha}_{policy}",
                              "scenario": scenario(f"2r_skew_{alpha}_{policy}", policy, 0.10,
                                                   fio_phases(alpha, ftl_op(0.10), scale))})
        if "op" in experiments or "oltp" in experiments:
            for paper_op in (OPS if "op" in experiments else [0.10]):
                found.append({"experiment": "op", "policy": policy, "x": paper_op,
                              "name": f"oltp_op{paper_op}_{policy}",
                              "scenario": scenario(f"2r_oltp_op{paper_op}_{policy}", policy,
                                                   paper_op,
                                                   oltp_phases(ftl_op(paper_op), scale))})
    if "merge" in experiments:
        for async_merge in (False, True):
            found.append({"experiment": "merge", "policy": "2R-FIFO",
                          "x": "async" if async_merge else "sync",
                          "name": f"merge_{'async' if async_merge else 'sync'}",
                          "scenario": scenario(f"2r_merge_{async_merge}", "2R-FIFO", 0.10,
                                               fio_phases(1.0, ftl_op(0.10), scale),
                                               async_merge=async_merge)})
    if "op" in experiments or "oltp" in experiments:
        for policy in PAPER_POLICIES:
            found.append({"experiment": "utilisation", "policy": policy, "x": UTILISATION_POINT,
                          "name": f"oltp_at{UTILISATION_POINT}_{policy}",
                          "scenario": scenario(f"2r_oltp_at{UTILISATION_POINT}_{policy}", policy,
                                               0.10, oltp_phases(ftl_op(0.10), scale,
                                                                 UTILISATION_POINT))})
    if "depth" in experiments:
        for depth in DEPTHS:
            found.append({"experiment": "depth", "policy": "2R-FIFO", "x": depth,
                          "name": f"oltp_depth{depth}",
                          "scenario": scenario(f"2r_oltp_depth{depth}", "2R-FIFO", 0.10,
                                               oltp_phases(ftl_op(0.10), scale), depth)})
    return found


def plot(summary, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = summary["results"]
    capacity = summary["scale"]["logical_pages"]

    def by(experiment):
        return [r for r in results if r["experiment"] == experiment]

    def figure(name, title, xlabel, ylabel, lines, marker="-", log=False):
        """One PNG: `lines` are (label, xs, ys)."""
        fig, ax = plt.subplots(figsize=(6, 4))
        for label, xs, ys in lines:
            ax.plot(xs, ys, marker, label=label)
        if log:
            ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        if any(label for label, _, _ in lines):
            ax.legend()
        fig.tight_layout()
        fig.savefig(out / name, dpi=120)
        plt.close(fig)

    def per_policy(experiment, scale_x=1):
        lines = []
        for policy in POLICIES:
            rows = sorted((r for r in by(experiment) if r["policy"] == policy),
                          key=lambda r: r["x"])
            lines.append((policy, [scale_x * r["x"] for r in rows],
                          [r["cumulative_waf"] for r in rows]))
        return lines

    def running(rows):
        return [(r["policy"], [h / capacity for h, _, _ in r["curve"]],
                 [w for _, _, w in r["curve"]]) for r in rows]

    writes = "host writes (device logical capacities)"
    running_label = f"running WAF (last {RUNNING_WINDOW:.0%} of writes)"
    if by("skew"):
        figure("fig8_skew.png", "Figure 8: skewness (OP 10 %)", "zipf alpha", "cumulative WAF",
               per_policy("skew"), "o-")
        figure("fig7a_running_waf_zipf1.png", "Figure 7a: zipf 1.0 (OP 10 %)", writes,
               running_label, running([r for r in by("skew") if r["x"] == 1.0]))
    oltp10 = [r for r in by("op") if r["x"] == 0.10]
    cut = by("utilisation")
    if cut:
        stripe_pages = summary["scale"]["stripe_pages"]
        figure("fig9_utilisation.png", "Figure 9: block utilisation at 3/4 (OLTP-like, OP 10 %)",
               "stripe utilisation (valid pages / stripe pages, bucket start)",
               "stripes (0 drawn at 0.5)",
               [(r["policy"],
                 [i * r["utilisation"]["bucket_width"] / stripe_pages
                  for i in range(len(r["utilisation"]["counts"]))],
                 [max(c, 0.5) for c in r["utilisation"]["counts"]])
                for r in cut], "o-", log=True)
    if oltp10:
        figure("fig7b_running_waf_oltp.png", "Figure 7b: OLTP-like growing database (OP 10 %)",
               writes, running_label, running(oltp10))
        figure("fig10_cold_region.png", "Figure 10: adaptive space allocation (OLTP-like, OP 10 %)",
               writes, "cold region (% of the regions' groups)",
               [(r["policy"], [h / capacity for h, _ in r["cold_share_curve"]],
                 [100 * c for _, c in r["cold_share_curve"]]) for r in oltp10])
    if len({r["x"] for r in by("op")}) > 1:
        figure("fig11_op.png", "Figure 11: over-provisioning (OLTP-like)",
               "over-provisioning (%, of the logical capacity)", "cumulative WAF",
               per_policy("op", 100), "o-")
    if by("depth"):
        rows = sorted(by("depth"), key=lambda r: r["x"])
        depths = [100 * r["x"] for r in rows]
        figure("fig6_scan_depth.png", "Figure 6: 2R-FIFO scan depth (OLTP-like, OP 10 %)",
               "FIFO_SCAN_DEPTH (% of the list)", "pages copied by GC",
               [("total", depths, [r["pages_moved"] for r in rows]),
                ("from the normal region", depths,
                 [r["pages_moved"] - r["pages_moved_from_cold"] for r in rows]),
                ("from the cold region", depths, [r["pages_moved_from_cold"] for r in rows])],
               "o-")


def value(results, experiment, policy, x, key="cumulative_waf"):
    for r in results:
        if r["experiment"] == experiment and r["policy"] == policy and r["x"] == x:
            return r[key]
    return None


def markdown(summary):
    results = summary["results"]
    lines = ["# 2R reproduction", "",
             f"Scale: {json.dumps(summary['scale'])}", "",
             f"Wall time: {summary['wall_seconds']:.0f} s on {summary['jobs']} jobs.", ""]
    if any(r["experiment"] == "skew" for r in results):
        lines += ["## Skew (Figure 8): cumulative WAF", "",
                  "| alpha | " + " | ".join(POLICIES) + " |",
                  "|---|" + "---|" * len(POLICIES)]
        for alpha in ALPHAS:
            cells = [value(results, "skew", p, alpha) for p in POLICIES]
            lines.append(f"| {alpha} | " + " | ".join(
                "-" if c is None else f"{c:.3f}" for c in cells) + " |")
        lines.append("")
    if any(r["experiment"] == "op" for r in results):
        lines += ["## OLTP-like growing database (Figures 7b, 11): cumulative / final running WAF",
                  "", "| OP | " + " | ".join(POLICIES) + " |", "|---|" + "---|" * len(POLICIES)]
        for op in sorted({r["x"] for r in results if r["experiment"] == "op"}):
            cells = []
            for p in POLICIES:
                c = value(results, "op", p, op)
                f = value(results, "op", p, op, "final_running_waf")
                cells.append("-" if c is None else f"{c:.3f} / {f:.3f}")
            lines.append(f"| {op:.0%} | " + " | ".join(cells) + " |")
        lines.append("")
    if any(r["experiment"] == "depth" for r in results):
        lines += ["## FIFO_SCAN_DEPTH (Figure 6): pages copied by GC, cumulative WAF", "",
                  "| depth | pages copied | from the normal region | from the cold region | WAF |",
                  "|---|---|---|---|---|"]
        for r in sorted((r for r in results if r["experiment"] == "depth"), key=lambda r: r["x"]):
            cold = r["pages_moved_from_cold"]
            lines.append(f"| {r['x']:.0%} | {r['pages_moved']} | {r['pages_moved'] - cold} | "
                         f"{cold} | {r['cumulative_waf']:.3f} |")
        lines.append("")
    if any(r["experiment"] == "merge" for r in results):
        lines += ["## Multi-block merge, synchronous or not (section 4.3.4), 2R-FIFO at zipf 1.0",
                  "", "| merge | WAF | write p99 (us) | p99.9 (us) | max (us) |",
                  "|---|---|---|---|---|"]
        for r in (r for r in results if r["experiment"] == "merge"):
            lat = r["write_latency_us"]
            lines.append(f"| {r['x']} | {r['cumulative_waf']:.3f} | {lat['p99']:.0f} | "
                         f"{lat['p99.9']:.0f} | {lat['max']:.0f} |")
        lines.append("")
    lines += ["## The paper's claims beside ours", "",
              "| claim (paper) | ours |", "|---|---|"]
    for claim, ours in summary["claims"]:
        lines.append(f"| {claim} | {ours} |")
    return "\n".join(lines) + "\n"


def mean_victim_utilisation(result, region, stripe_pages):
    """The mean utilisation of a region's victims, from their histogram (bucket middles)."""
    counts = result[f"{region}_victim_valid_pages"]
    width = result["victim_bucket_width"]
    victims = sum(counts)
    if victims == 0:
        return None
    pages = sum((i + 0.5) * width * c for i, c in enumerate(counts))
    return min(1.0, pages / victims / stripe_pages)


def claims(results, stripe_pages):
    rows = []

    def fmt(x):
        return "-" if x is None else f"{x:.3f}"
    g1, g2, f2 = (value(results, "skew", p, 1.0) for p in PAPER_POLICIES)
    if g1 is not None:
        rows.append(("alpha 1.0: both 2R well below 1R-Greedy",
                     f"1R {fmt(g1)}, 2R-Greedy {fmt(g2)}, 2R-FIFO {fmt(f2)}"))
        low = []
        for alpha in (0.0, 0.2, 0.4):
            w = [value(results, "skew", p, alpha) for p in PAPER_POLICIES]
            if None not in w:
                low.append(f"alpha {alpha}: spread {max(w) / min(w) - 1:.1%}, 2R worse than 1R by "
                           f"{max(w[1], w[2]) / w[0] - 1:+.1%}")
        rows.append(("alpha <= 0.4: all three within about 5 %, 2R never worse", "; ".join(low)))
    o1, o2, o3 = (value(results, "op", p, 0.10) for p in PAPER_POLICIES)
    if o1 is not None:
        r1, r2, r3 = (value(results, "op", p, 0.10, "final_running_waf") for p in PAPER_POLICIES)
        rows.append(("OLTP: 2R-FIFO cumulative WAF at most about 2/3 of 1R-Greedy's",
                     f"{fmt(o3)} vs {fmt(o1)} = {o3 / o1:.2f}"))
        rows.append(("OLTP: 2R-FIFO final running WAF about 1/3 to 1/2 of 1R-Greedy's",
                     f"{fmt(r3)} vs {fmt(r1)} = {r3 / r1:.2f}"))
        rows.append(("OLTP: 2R-FIFO below 2R-Greedy (1.23 vs 1.61)",
                     f"{fmt(o3)} vs {fmt(o2)}"))
        normal = [mean_victim_utilisation(next(r for r in results if r["experiment"] == "op" and
                                               r["policy"] == p and r["x"] == 0.10),
                                          "normal", stripe_pages) for p in PAPER_POLICIES]
        rows.append(("OLTP: mean utilisation of normal victims, 2R-FIFO 0.16 vs 2R-Greedy 0.41",
                     f"2R-FIFO {fmt(normal[2])} vs 2R-Greedy {fmt(normal[1])} "
                     f"(1R-Greedy {fmt(normal[0])})"))
        share = [value(results, "op", p, 0.10, "cold_groups_share") for p in PAPER_POLICIES]
        rows.append(("OLTP: 2R-FIFO's cold region about 0.2 of the blocks smaller than 2R-Greedy's",
                     f"at the end: 2R-FIFO {fmt(share[2])} vs 2R-Greedy {fmt(share[1])}"))
    ops = sorted({r["x"] for r in results if r["experiment"] == "op"})
    if len(ops) > 1:
        rises = []
        for p in PAPER_POLICIES:
            lo, hi = value(results, "op", p, ops[0]), value(results, "op", p, ops[-1])
            rises.append(f"{p} {fmt(hi)} -> {fmt(lo)}")
        rows.append(("2R-FIFO's WAF rises gently as OP shrinks, 1R-Greedy's steeply",
                     f"OP {ops[-1]:.0%} -> {ops[0]:.0%}: " + ", ".join(rises)))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    root = Path(__file__).resolve().parent.parent
    parser.add_argument("--ssdsim", default=str(root / "build" / "tb" / "ssdsim"))
    parser.add_argument("--out", default=str(root / "results" / "reproduce" / "2r"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scale", type=float, default=10.0,
                        help="host writes per run, in logical capacities (default 10)")
    parser.add_argument("--experiments", default="skew,op,depth,merge",
                        help="comma-separated: skew, oltp (OP 10 %% only), op, depth, merge")
    args = parser.parse_args(argv)
    experiments = set(ssdvp_results.parse_list(args.experiments, EXPERIMENTS, "experiment",
                                               parser))
    if not args.scale > 0:
        parser.error(f"--scale: {args.scale} is not allowed; more than 0 capacities")
    if experiments & OLTP_EXPERIMENTS and args.scale < 1:
        # The database grows by nine tenths of the capacity, at most one insert a write.
        parser.error(f"--scale: {args.scale} is not allowed with the OLTP experiments "
                     f"({', '.join(sorted(experiments & OLTP_EXPERIMENTS))}); at least 1")
    out = ssdvp_results.check_run_options(args, parser)
    started = time.time()
    todo = points(args.scale, experiments)
    results = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for point, directory, seconds in pool.map(lambda p: run_point(args.ssdsim, out, p), todo):
            figures = figures_of(ssdvp_results.load_run(directory))
            figures.update({"experiment": point["experiment"], "policy": point["policy"],
                            "x": point["x"], "wall_seconds": round(seconds, 1)})
            results.append(figures)
            print(f"{point['name']}: WAF {figures['cumulative_waf']:.3f} "
                  f"(running {figures['final_running_waf']:.3f}) in {seconds:.0f} s", flush=True)
    op10 = ftl_op(0.10)
    summary = {
        "paper": "2R (Kang et al., PVLDB 2020)",
        "scale": {"page_bytes": PAGE_BYTES, "stripe_pages": NAND["channels"] * NAND["pages"],
                  "paper_block_pages": 1024, "stripes": NAND["blocks"],
                  "logical_pages": logical_pages(op10),
                  "host_writes_in_capacities": args.scale, "paper_fio_writes_in_capacities": 45,
                  "ftl_op_for_paper_op_10": op10, "scheme": "ideal",
                  "gc_reserve_stripes": 1},
        "jobs": args.jobs,
        "wall_seconds": round(time.time() - started, 1),
        "results": results,
    }
    summary["claims"] = claims(results, summary["scale"]["stripe_pages"])
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    plot(summary, out)
    (out / "summary.md").write_text(markdown(summary))
    print(f"wrote {out}/summary.json, summary.md and the figures in {summary['wall_seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
