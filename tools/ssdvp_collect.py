#!/usr/bin/python3
"""`ssdvp collect`: a sweep's key figures as one tidy CSV, a row per point.

    tools/ssdvp collect sweep --out sweep.csv

Columns: `point` (the directory), `status` (done; failed: the run did not pass, or
ssdsim.log holds its output; missing: no stats.json yet), `error` (a failed point's reason),
`scenario`, `outcome`, one column per swept key (ssdsim's `scenario.sweep_label`, else the
point's scenario.yaml sweep), `phase`, then the metrics of METRICS from that phase of the host
and the FTL, and the run's own. A value a run lacks (a phase not reached, a firmware without
FTL metrics, an op without commands, the area before it is reported) is an empty cell.
"""

import argparse
import csv
import sys
from pathlib import Path
from typing import Any, Sequence

import ssdvp_results
import ssdvp_runner
import ssdvp_sweep

_LATENCIES = ("mean", "p50", "p99", "p99.9")
# column -> (where, dotted path): "host" a host phase, "ftl" the FTL's same phase, "stats" the
# whole stats.json.
METRICS: dict[str, tuple[str, str]] = {
    "iops": ("host", "iops"),
    **{f"{op}_iops": ("host", f"ops.{op}.iops") for op in ("read", "write")},
    **{f"{op}_latency_{stat}_ns": ("host", f"ops.{op}.latency_ns.{stat}")
       for op in ("read", "write") for stat in _LATENCIES},
    "map_hit_ratio": ("ftl", "map.hit_ratio"),
    "waf": ("ftl", "waf"),
    "flash_reads_per_host_read": ("ftl", "flash_reads_per_host_read"),
    "firmware_cycles_per_command": ("ftl", "firmware.cycles_per_command"),
    "sram_used_bytes": ("stats", "ftl.memory.sram.used_bytes"),
    "sram_size_bytes": ("stats", "platform.memories.sram.size_bytes"),
    "area_mm2": ("stats", "platform.area.total_mm2"),
    "wall_seconds": ("stats", "simulator.wall_seconds"),
}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "collect", help="one CSV row per point of a sweep: swept keys and key metrics",
        description="Collect a sweep directory (or one run) into a tidy CSV: a row per point, "
                    "its swept keys and key metrics of one workload phase. Missing values are "
                    "empty cells.")
    parser.add_argument("directory", type=Path,
                        help="a sweep directory (<index>_<label>/ points) or a run directory")
    parser.add_argument("--out", type=Path, help="the CSV file (default: standard output)")
    parser.add_argument("--phase",
                        help="the workload phase the host and FTL metrics come from (default: "
                             "each run's last)")
    parser.add_argument("--metric", action="append", default=[], metavar="PATH",
                        help="another FTL metric of the phase as a column, e.g. gc.invocations "
                             "(repeatable)")
    parser.set_defaults(handler=collect_command)


def collect_command(args: argparse.Namespace) -> int:
    try:
        rows = collect(args.directory, args.phase, args.metric)
    except (OSError, ValueError) as error:
        print(f"ssdvp collect: {error}", file=sys.stderr)
        return 2
    columns = table_columns(rows, args.metric)
    if args.out is None:
        write_csv(sys.stdout, columns, rows)
        return 0
    try:
        with args.out.open("w", newline="", encoding="utf-8") as stream:
            write_csv(stream, columns, rows)
    except OSError as error:
        print(f"ssdvp collect: --out: cannot write '{args.out}': {error.strerror}",
              file=sys.stderr)
        return 2
    return 0


def write_csv(stream: Any, columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
    writer = csv.DictWriter(stream, columns, restval="", lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: "" if v is None else v for k, v in row.items()} for row in rows)


_HEAD = ("point", "status", "error", "scenario", "outcome")
_TAIL = ("phase", *METRICS, "cache_read_hit_ratio")


def table_columns(rows: Sequence[dict[str, Any]], extra: Sequence[str] = ()) -> list[str]:
    """The CSV's columns: the point's, the swept keys (in their order), the metrics."""
    swept = [c for c in dict.fromkeys(c for row in rows for c in row)
             if c not in _HEAD and c not in _TAIL and c not in extra]
    return [*_HEAD, *swept, *_TAIL, *extra]


def collect(directory: Path, phase: str | None = None,
            extra: Sequence[str] = ()) -> list[dict[str, Any]]:
    """One dict per point of the sweep at `directory` (or its one run), in index order."""
    return [_row(point, directory, phase, extra)
            for point in ssdvp_results.point_directories(directory)]


def _row(point: Path, sweep: Path, phase: str | None, extra: Sequence[str]) -> dict[str, Any]:
    row: dict[str, Any] = {"point": point.name if point != sweep else "."}
    log = point / ssdvp_runner.LOG
    try:
        run = ssdvp_results.load_run(point)
    except (OSError, ValueError) as error:
        row.update(status="failed" if log.exists() else "missing",
                   error=ssdvp_results.failure_reason(point, error))
        return {**row, **_swept_from_scenario(point)}
    # ssdsim's exit status 0 (tb/ssdsim.cpp exit_code_for); its own sweeps keep no log.
    passed = (run.outcome.get("outcome") in ("workload_done", "tohost_pass")
              or run.outcome.get("outcome") == "exit" and run.outcome.get("exit_code") == 0)
    failed = log.exists() or not passed
    reason = RuntimeError(run.outcome.get("message", ""))
    row.update(status="failed" if failed else "done",
               error=ssdvp_results.failure_reason(point, reason) if failed else None,
               scenario=ssdvp_results.lookup_or_none(run.stats, "scenario.name"),
               outcome=run.outcome.get("outcome"))
    row.update(split_label(ssdvp_results.lookup_or_none(run.stats, "scenario.sweep_label") or ""))
    host_phases = run.stats.get("host", {}).get("phases", [])
    name = phase or (host_phases[-1]["name"] if host_phases else None)
    host = next((p for p in host_phases if p.get("name") == name), {})
    ftl = _ftl_phase(run, name)
    row["phase"] = name
    sources = {"host": host, "ftl": ftl, "stats": run.stats}
    for column, (where, path) in METRICS.items():
        row[column] = ssdvp_results.lookup_or_none(sources[where], path)
    for op in ("read", "write"):  # an op without commands has zeros, not latencies
        if not ssdvp_results.lookup_or_none(host, f"ops.{op}.commands"):
            row.update({f"{op}_latency_{stat}_ns": None for stat in _LATENCIES})
    row["cache_read_hit_ratio"] = ssdvp_results.ratio(
        ssdvp_results.lookup_or_none(ftl, "cache.read_hits"), ftl.get("host_read_pages"))
    row.update({path: ssdvp_results.lookup_or_none(ftl, path) for path in extra})
    return row


def _ftl_phase(run: ssdvp_results.Run, name: str | None) -> dict[str, Any]:
    """The FTL's metrics of the phase, {} when the run has none (another firmware, a failed
    boot, a phase not reached)."""
    try:
        return run.ftl_phase(name) if name else {}
    except (KeyError, ValueError):
        return {}


def split_label(label: str) -> dict[str, str]:
    """A sweep label (key=value,key=value) as {key: value}; a value's own commas ({4KiB: 1,
    8KiB: 1}, [1, 2]) stay inside its brackets."""
    swept, depth, start = {}, 0, 0
    for i, char in enumerate(label + ","):
        depth += (char in "[{") - (char in "]}")
        if char == "," and depth == 0:
            key, _, value = label[start:i].partition("=")
            if key:
                swept[key] = value
            start = i + 1
    return swept


def _swept_from_scenario(point: Path) -> dict[str, Any]:
    """The swept values of a point `ssdvp run` wrote but that left no stats.json, as its
    scenario.yaml narrows them (one value per key, as written)."""
    try:
        tree = ssdvp_sweep.load_yaml(point / ssdvp_runner.SCENARIO)
    except ssdvp_sweep.ScenarioInputError:
        return {}
    sweep = tree.get("sweep") if isinstance(tree, dict) else None
    return ({key: values[0] for key, values in sweep.items() if values}
            if isinstance(sweep, dict) else {})
