#!/usr/bin/python3
"""LearnedFTL's motivation (S. Wang et al., HPCA 2024, ../shared/papers/000_*.txt, section 2.2,
Figure 3): demand-based FTLs under random and sequential reads, one thread.

    /usr/bin/python3 tools/ssdvp_reproduce.py learnedftl_motivation [--jobs 2] [--quick]
    (or tools/ssdvp reproduce learnedftl_motivation; this file's main() is the same)

Figure 3(a) and (b): DFTL, TPFTL and the ideal FTL (the whole table in SRAM): read IOPS and
CMT hit ratio under 4 KiB random and sequential reads at queue depth 1 (the paper's single
thread). The paper: TPFTL's sequential hit ratio 93 % and its throughput near the ideal's;
DFTL's sequential hit ratio 0 %; random hit ratios almost 0 (0.1 % DFTL, 0.09 % TPFTL), a read
amplification of almost 2. Figure 3(c): TPFTL's random-read hit ratio with a CMT of 2 %, 10 %
and 50 % of the mapping table: 1 %, 5 % and 25.9 %.

Each run: `fill`, the exported capacity written once sequentially (128 KiB, queue depth 8);
`settle`, an idle second (GC finishes before the reads); `random_read` and (Figure 3 a/b)
`sequential_read`, REQUESTS 4 KiB reads each at queue depth 1.

Scale (scale() in summary.json): an SLC device of 4 channels x 2 ways, 64 blocks of 128 pages
of 4 KiB (256 MiB raw, ssdsim's default 7 % over-provisioning) with the paper's FEMU timings
(40 us read, 200 us program, 2 ms erase), where the paper's FEMU SSD is 64 chips and 32 GiB.
The CMT (ftl.map_budget) of DFTL and TPFTL is 4 KiB: the paper's 8,192 slots are 0.1 % of its
pages, which here would be 60 mappings, below what TPFTL's two-level cache runs with; 4 KiB
holds about 0.2 % of our mappings. Figure 3(c)'s CMT sizes are shares of the table's mappings:
a TPFTL mapping costs about 30 B of ftl.map_budget with its nodes (a first run with budgets of
2, 10 and 50 % of the table's 4-byte entries, 121,896 B, held 4,108 mappings: 6.7 % of the
LPNs, hit ratio 6.4 %), so the budget is the share x the LPNs x TPFTL_MAPPING_BYTES; the
report gives the share the CMT held (map.translatable_lpns).
"""

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ssdvp_results  # noqa: E402
from reproduce_learnedftl import LABELS, PAPER, host_phase  # noqa: E402

TITLE = ("LearnedFTL (HPCA 2024), section 2.2, Figure 3: demand-based FTLs under random and "
         "sequential reads")
NAND = {"channels": 4, "ways": 2, "dies": 1, "planes": 1, "blocks": 64, "pages": 128,
        "page_size": "4KiB", "cell": "slc", "t_read": {"lsb": "40us"}, "t_prog": "200us",
        "t_erase": "2ms"}
PAGE_BYTES = 4096
FTL_OP = 0.07  # ssdsim's default
SRAM = "2MiB"
CMT_BUDGET = "4KiB"
IDEAL_BUDGET = "512KiB"  # the whole table (4 B a mapping, 238 KiB) and slack
SCHEMES = ("dftl", "tpftl", "ideal")
CMT_SHARES = {0.02: 0.01, 0.10: 0.05, 0.50: 0.259}  # Figure 3(c): share of table -> hit ratio
TPFTL_MAPPING_BYTES = 30  # of ftl.map_budget per mapping cached, measured (module docstring)
REQUESTS, QUICK_REQUESTS = 5000, 1000
FILL, SETTLE, RANDOM, SEQUENTIAL = "fill", "settle", "random_read", "sequential_read"
NEAR_ZERO = 0.01  # "almost 0": within a percentage point


def exported_lpns() -> int:
    pages = NAND["channels"] * NAND["ways"] * NAND["blocks"] * NAND["pages"]
    return int(pages * (1 - FTL_OP))


def table_bytes() -> int:
    return exported_lpns() * 4


def _reads(name: str, pattern: str, requests: int) -> dict[str, Any]:
    return {"name": name, "requests": requests,
            "streams": [{"pattern": pattern, "size": "4KiB", "queue_depth": 1,
                         "read_fraction": 1.0}]}


def scenario(name: str, scheme: str, budget: str, requests: int,
             sequential: bool) -> dict[str, Any]:
    phases = [{"name": FILL, "capacity_multiple": 1,
               "streams": [{"pattern": "sequential", "size": "128KiB", "queue_depth": 8,
                            "read_fraction": 0.0}]},
              {"name": SETTLE, "duration": "1s", "streams": []},
              _reads(RANDOM, "random", requests)]
    if sequential:
        phases.append(_reads(SEQUENTIAL, "sequential", requests))
    return {"name": name, "seed": 1, "sram": {"size": SRAM}, "nand": dict(NAND),
            "firmware": {"scheme": scheme},
            "ftl": {"map_budget": budget, "op": FTL_OP,
                    "write_buffer": {"pages": 32, "location": "sram"}},
            "host": {"oracle": False, "stats_interval": "0s"},
            "workload": {"phases": phases}}


def points(quick: bool) -> list[dict[str, Any]]:
    """Figure 3 a/b: a run per scheme; Figure 3 c: TPFTL's random reads per CMT share."""
    requests = QUICK_REQUESTS if quick else REQUESTS
    found = [{"name": scheme, "scheme": scheme, "cmt_share": None,
              "scenario": scenario(scheme, scheme, IDEAL_BUDGET if scheme == "ideal"
                                   else CMT_BUDGET, requests, sequential=True)}
             for scheme in SCHEMES]
    for share in CMT_SHARES:
        name = f"tpftl_cmt{round(share * 100)}"
        budget = f"{max(1024, round(share * exported_lpns() * TPFTL_MAPPING_BYTES))}B"
        found.append({"name": name, "scheme": "tpftl", "cmt_share": share,
                      "scenario": scenario(name, "tpftl", budget, requests, sequential=False)})
    return found


def figures(run: ssdvp_results.Run, point: dict[str, Any]) -> dict[str, Any]:
    """Per read phase: read IOPS, CMT hit ratio, flash reads per read, p99, LPNs cached."""
    if run.outcome.get("outcome") != "workload_done":
        raise RuntimeError(f"{run.path}: outcome {run.outcome.get('outcome')}: "
                           f"{run.outcome.get('message')}")
    lookup = ssdvp_results.lookup_or_none
    phases = {}
    for name in (RANDOM, SEQUENTIAL):
        if name not in run.phase_names():
            continue
        ftl = run.ftl_phase(name)
        read = host_phase(run.stats, name)["ops"]["read"]
        phases[name] = {"read_iops": read["iops"], "hit_ratio": lookup(ftl, "map.hit_ratio"),
                        "flash_reads_per_host_read": lookup(ftl, "flash_reads_per_host_read"),
                        "read_p99_us": read["latency_ns"]["p99"] / 1000,
                        "cached_share": ssdvp_results.ratio(
                            lookup(ftl, "map.translatable_lpns"), exported_lpns())}
    return {"name": point["name"], "scheme": point["scheme"], "cmt_share": point["cmt_share"],
            "map_budget": run.config_value("ftl.map_budget"), "phases": phases}


def _get(records, name: str, phase: str, key: str) -> float | None:
    for r in records:
        if r["name"] == name and not r.get("failed"):
            return (r["phases"].get(phase) or {}).get(key)
    return None


def claims(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Figure 3's claims beside ours (ssdvp_reproduce's common form)."""
    def iops_over_ideal(scheme: str, phase: str) -> float | None:
        return ssdvp_results.ratio(_get(records, scheme, phase, "read_iops"),
                   _get(records, "ideal", phase, "read_iops"))

    found = [
        {"claim": "Sequential reads: TPFTL's CMT hit ratio", "paper": 0.93,
         "ours": _get(records, "tpftl", SEQUENTIAL, "hit_ratio"), "kind": "value"},
        {"claim": "Sequential reads: DFTL's CMT hit ratio (0 %)", "paper": 0.0,
         "ours": _get(records, "dftl", SEQUENTIAL, "hit_ratio"), "kind": "value",
         "tolerance": NEAR_ZERO},
        {"claim": "Sequential reads: IOPS, TPFTL / ideal (similar)", "paper": 1.0,
         "ours": iops_over_ideal("tpftl", SEQUENTIAL), "kind": "value"},
        # The paper shows these in Figure 3(a) without numbers; 0.5 is what a double read for
        # every read means at one thread.
        {"claim": "Sequential reads: IOPS, DFTL / ideal (0 % hits: double reads, about 1/2)",
         "paper": 0.5, "ours": iops_over_ideal("dftl", SEQUENTIAL), "kind": "ratio"},
    ]
    for scheme, paper in (("dftl", 0.001), ("tpftl", 0.0009)):
        found += [
            {"claim": f"Random reads: {LABELS[scheme]}'s CMT hit ratio (almost 0)",
             "paper": paper, "ours": _get(records, scheme, RANDOM, "hit_ratio"),
             "kind": "value", "tolerance": NEAR_ZERO},
            {"claim": f"Random reads: {LABELS[scheme]}'s flash reads per read (almost 2)",
             "paper": 2.0, "ours": _get(records, scheme, RANDOM, "flash_reads_per_host_read"),
             "kind": "value"},
            {"claim": f"Random reads: IOPS, {LABELS[scheme]} / ideal (double reads, about 1/2)",
             "paper": 0.5, "ours": iops_over_ideal(scheme, RANDOM), "kind": "ratio"}]
    for share, paper in CMT_SHARES.items():
        name = f"tpftl_cmt{round(share * 100)}"
        ours, held = (_get(records, name, RANDOM, key) for key in ("hit_ratio", "cached_share"))
        found.append({"claim": f"Random reads: TPFTL's CMT hit ratio, CMT {share:.0%} of the "
                               f"table", "paper": paper, "ours": ours, "kind": "value",
                      "ours_text": None if None in (ours, held) else
                      f"{ours:.4g} (the CMT held {held:.1%} of the mappings)"})
    return found


def plot(records: list[dict[str, Any]], out: Path) -> list[str]:
    """Figure 3 (a) IOPS, (b) hit ratios, (c) TPFTL's hit ratio against the CMT's share."""
    from ssdvp_plot import pyplot, save
    plt = pyplot()
    names = []
    for key, ylabel, file_name, scale in (
            ("read_iops", "read kIOPS (queue depth 1)", "fig3a_iops.png", 1e-3),
            ("hit_ratio", "CMT hit ratio (%)", "fig3b_hit_ratio.png", 100)):
        fig, ax = plt.subplots(figsize=(6.5, 4))
        width = 0.8 / len(SCHEMES)
        for i, scheme in enumerate(SCHEMES):
            values = [(_get(records, scheme, phase, key) or 0) * scale
                      for phase in (RANDOM, SEQUENTIAL)]
            ax.bar([x + (i - 1) * width for x in range(2)], values, width, label=LABELS[scheme])
        ax.set_xticks([0, 1], ["random read", "sequential read"])
        ax.set_ylabel(ylabel)
        ax.legend(fontsize=8)
        ax.set_title(f"Figure 3({file_name[4]}): {ylabel}")
        save(fig, out / file_name)
        names.append(file_name)
    fig, ax = plt.subplots(figsize=(6.5, 4))
    shares = list(CMT_SHARES)
    ax.plot([100 * s for s in shares], [100 * p for p in CMT_SHARES.values()], "s--",
            label="paper")
    ax.plot([100 * s for s in shares],
            [100 * (_get(records, f"tpftl_cmt{round(s * 100)}", RANDOM, "hit_ratio") or 0)
             for s in shares], "o-", label="ours")
    ax.set_xlabel("CMT size (% of the mapping table)")
    ax.set_ylabel("TPFTL random-read hit ratio (%)")
    ax.legend(fontsize=8)
    ax.set_title("Figure 3(c): TPFTL's hit ratio against CMT size")
    save(fig, out / "fig3c_tpftl_cmt.png")
    return names + ["fig3c_tpftl_cmt.png"]


def scale(quick: bool) -> dict[str, Any]:
    raw = NAND["channels"] * NAND["ways"] * NAND["blocks"] * NAND["pages"] * PAGE_BYTES
    paper_raw = PAPER["exported_bytes"] + PAPER["op_bytes"]
    return {"chips": NAND["channels"] * NAND["ways"], "paper_chips": PAPER["chips"],
            "raw_bytes": raw, "paper_raw_bytes": paper_raw, "device_factor": raw / paper_raw,
            "exported_lpns": exported_lpns(), "table_bytes": table_bytes(),
            "cmt_budget": CMT_BUDGET, "paper_cmt_slots": PAPER["cmt_slots"],
            "ideal_budget": IDEAL_BUDGET, "requests_per_read_phase":
                QUICK_REQUESTS if quick else REQUESTS,
            "queue_depth": 1, "paper_threads": 1,
            "t_read": NAND["t_read"]["lsb"], "t_prog": NAND["t_prog"], "t_erase": NAND["t_erase"],
            "fig3c_cmt_shares_of_mappings": list(CMT_SHARES),
            "tpftl_mapping_bytes": TPFTL_MAPPING_BYTES}


def main() -> int:
    import ssdvp_reproduce
    return ssdvp_reproduce.main(["learnedftl_motivation", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
