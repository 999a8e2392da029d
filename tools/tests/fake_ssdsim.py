#!/usr/bin/python3
"""A stand-in for ssdsim in the tools' tests: `fake_ssdsim.py SCENARIO --out DIR` writes a run
directory (stats.json, latency.csv, timeseries.csv, ftl_timeseries.csv) whose figures follow
from the scenario by fixed formulas, in milliseconds; `--list-params` prints a few keys.

The formulas: the map's hit ratio is the map budget's share of 256 KiB (SFTL and the ideal FTL
always hit; TPFTL's sequential reads 95 %), the p99 read latency 100 us x (2 - hit ratio), the
area 0.5 mm2 + 1 mm2 per MiB of SRAM. A scenario named "...fail..." fails (status 3).
"""

import json
import re
import sys
from pathlib import Path

KEYS = ("name", "seed", "sram.size", "cpu.harts", "firmware.scheme", "ftl.map_budget",
        "ftl.op", "accel.present", "nand.channels", "nand.t_read.lsb", "host.oracle",
        "workload.phases[].requests", "workload.phases[].streams[].queue_depth")
UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}


def size(text, default):
    match = re.fullmatch(r"([0-9.]+)(B|KiB|MiB|GiB)", str(text or default))
    return float(match.group(1)) * UNITS[match.group(2)]


def main(argv):
    if argv[:1] == ["--list-params"]:
        print("key  type  default  allowed  description")
        print("\n".join(f"{key}  x  x  x  x" for key in KEYS))
        return 0
    scenario = json.loads(Path(argv[0]).read_text())
    out = Path(argv[argv.index("--out") + 1])
    if "fail" in scenario.get("name", ""):
        print("ssdsim: a failure the test asked for", file=sys.stderr)
        return 3
    out.mkdir(parents=True, exist_ok=True)
    scheme = scenario.get("firmware", {}).get("scheme", "dftl")
    budget = size(scenario.get("ftl", {}).get("map_budget"), "64KiB")
    sram = size(scenario.get("sram", {}).get("size"), "1MiB")
    host_phases, ftl_phases = [], []
    latency = ["phase,op,lower_ns,upper_ns,count"]
    for phase in scenario["workload"]["phases"]:
        name = phase["name"]
        sequential = any(s.get("pattern") == "sequential" for s in phase.get("streams", []))
        hit = 1.0 if scheme in ("sftl", "ideal") else min(1.0, budget / 2**18)
        if scheme == "tpftl" and sequential:
            hit = 0.95
        p99 = 100_000 * (2 - hit)
        host_phases.append({"name": name, "ops": {"read": {
            "commands": 100, "iops": 1e9 / p99, "latency_ns": {"p99": p99, "mean": p99 / 2}}}})
        ftl_phases.append({"name": name, "flash_reads_per_host_read": 2 - hit,
                           "map": {"hit_ratio": hit, "lookups": 100, "hits": round(100 * hit),
                                   "misses": 100 - round(100 * hit),
                                   "translatable_lpns": round(budget / 8)}})
        latency += [f"{name},read,0,{int(p99 // 2)},90", f"{name},read,{int(p99 // 2)},"
                    f"{int(p99)},10"]
    stats = {"config": scenario, "outcome": {"outcome": "workload_done", "exit_code": 0},
             "scenario": {"name": scenario.get("name", ""), "source": argv[0],
                          "sweep_label": ""},
             "simulator": {"wall_seconds": 0.01},
             "platform": {"area": {"total_mm2": 0.5 + sram / 2**20},
                          "memories": {"sram": {"size_bytes": sram}}},
             "host": {"phases": host_phases},
             "ftl": {"phases": ftl_phases, "run": ftl_phases[-1]}}
    (out / "stats.json").write_text(json.dumps(stats))
    (out / "latency.csv").write_text("\n".join(latency) + "\n")
    (out / "timeseries.csv").write_text(
        "phase,start_ns,iops\n" + "".join(f"{p['name']},{i * 1000},{100 + i}\n"
                                          for i, p in enumerate(host_phases)))
    (out / "ftl_timeseries.csv").write_text(
        "phase,time_ns,waf\n" + "".join(f"{p['name']},{i * 1000},{1 + i / 10}\n"
                                        for i, p in enumerate(ftl_phases)))
    return 0


def make_run(directory: Path, scenario: dict) -> Path:
    """A run directory as the fake writes it, for tests that need one without running it."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "scenario.yaml").write_text(json.dumps(scenario))
    main([str(directory / "scenario.yaml"), "--out", str(directory)])
    return directory


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
