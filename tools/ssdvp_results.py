#!/usr/bin/env python3
"""Reads the results directories ssdsim writes (``ssdsim --out DIR``).

One reader for reproduction tools, tests and users, standard library only:

    run = load_run("results")
    run.metric("map.hit_ratio", phase="fill")
    run.series("map.hit_ratio", phase="fill")   # [(time_ns, value), ...]
    table(load_sweep("sweep"), ["scenario.sweep_label", "ftl.run.waf"])

Run ``python3 tools/ssdvp_results.py DIR [--metric PATH ...]`` for a quick look at the FTL
metrics of a run or a sweep, one column per phase.
"""

import argparse
import csv
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from ssdvp_runner import LOG, SCENARIO, STATS, Job, execute, run_jobs

# The two DiskSim sample traces of ../shared/traces, as the reproduction scripts replay them
# (like scenarios/tpcc_ftl.yaml and ssdsim_trace_ftl.yaml): folded onto the device, whole, at
# their own timestamps (the SSDsim example's a thousand times faster).
TRACES_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "traces"
TRACES = {
    "tpcc": {"trace": str(TRACES_DIR / "tpcc-small.trace"), "format": "disksim",
             "follow_timestamps": True, "queue_depth": 64, "fold": True},
    "ssdsim": {"trace": str(TRACES_DIR / "ssdsim-example.ascii"), "format": "disksim",
               "follow_timestamps": True, "time_scale": 0.001, "queue_depth": 64, "fold": True},
}

LATENCY = "latency.csv"
TIMESERIES = "timeseries.csv"
FTL_TIMESERIES = "ftl_timeseries.csv"

Value = str | int | float | None
Row = dict[str, Value]

_LATENCY_HEADER = ("phase", "op", "lower_ns", "upper_ns", "count")
_TEXT_COLUMNS = frozenset({"phase", "op"})
# ssdsim writes numbers as JSON does; anything else in a number column is a broken file.
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_SWEEP_POINT = re.compile(r"([0-9]+)_")


class MissingKeyError(KeyError):
    """A KeyError whose message reads as a sentence (KeyError quotes its argument)."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass
class Run:
    """One ssdsim run directory: stats.json and the CSV files, numbers already converted."""

    path: Path
    stats: dict[str, Any] = field(repr=False)
    latency: list[Row] = field(repr=False)
    timeseries: list[Row] = field(repr=False)
    ftl_timeseries: list[Row] = field(repr=False)  # [] when the file is absent
    timeseries_columns: list[str] = field(repr=False)
    ftl_timeseries_columns: list[str] = field(repr=False)  # [] when the file is absent

    @property
    def config(self) -> dict[str, Any]:
        """The resolved configuration, nested by key path ({} when absent)."""
        return self.stats.get("config", {})

    @property
    def outcome(self) -> dict[str, Any]:
        """The outcome object, e.g. {"outcome": "workload_done", "exit_code": 0, ...}."""
        return self.stats.get("outcome", {})

    def config_value(self, path: str) -> Any:
        """A configuration value by dotted path, e.g. "cpu.harts"."""
        return _lookup(self.config, path, f"{self.path / STATS} config")

    def phase_names(self) -> list[str]:
        """The workload phases in order: the host's, then any only the FTL reports."""
        return list(dict.fromkeys(phase["name"] for section in ("host", "ftl")
                                  for phase in self.stats.get(section, {}).get("phases", [])))

    def ftl(self) -> dict[str, Any]:
        """The stats.json ftl section; ValueError when the run has none or reports an error."""
        ftl = self.stats.get("ftl")
        if ftl is None:
            raise ValueError(f"{self.path / STATS}: no 'ftl' section (the firmware reports no "
                             f"FTL metrics)")
        if "error" in ftl:
            raise ValueError(f"{self.path / STATS}: no FTL metrics: {ftl['error']}")
        return ftl

    def ftl_phase(self, name: str) -> dict[str, Any]:
        """The FTL metrics of one phase (with its "name" and "finished" fields)."""
        phases = self.ftl()["phases"]
        for phase in phases:
            if phase["name"] == name:
                return phase
        present = ", ".join(phase["name"] for phase in phases) or "none"
        raise MissingKeyError(f"{self.path / STATS}: no FTL phase '{name}'; phases: {present}")

    def metric(self, path: str, phase: str | None = None) -> Any:
        """An FTL metric by dotted path ("map.hit_ratio") in a phase, or the whole run."""
        if phase is None:
            return _lookup(self.ftl()["run"], path, f"{self.path / STATS} ftl.run")
        return _lookup(self.ftl_phase(phase), path, f"{self.path / STATS} FTL phase '{phase}'")

    def series(self, column: str, phase: str | None = None) -> list[tuple[Value, Value]]:
        """(time_ns, value) pairs of an ftl_timeseries.csv column, of one phase or all.

        A sample without a value keeps its place with the value None.
        """
        if not self.ftl_timeseries_columns:
            raise FileNotFoundError(f"{self.path / FTL_TIMESERIES}: absent (no FTL time series)")
        return self._series(FTL_TIMESERIES, self.ftl_timeseries_columns, self.ftl_timeseries,
                            "time_ns", column, phase)

    def host_series(self, column: str, phase: str | None = None) -> list[tuple[Value, Value]]:
        """(time, value) pairs of a timeseries.csv column, timed by time_ns or start_ns."""
        time_column = next((name for name in ("time_ns", "start_ns")
                            if name in self.timeseries_columns), None)
        if time_column is None:
            raise ValueError(f"{self.path / TIMESERIES}: no time_ns or start_ns column; columns: "
                             f"{', '.join(self.timeseries_columns)}")
        return self._series(TIMESERIES, self.timeseries_columns, self.timeseries, time_column,
                            column, phase)

    def _series(self, file_name: str, columns: list[str], rows: list[Row], time_column: str,
                column: str, phase: str | None) -> list[tuple[Value, Value]]:
        where = self.path / file_name
        if column not in columns:
            raise MissingKeyError(f"{where}: no column '{column}'; columns: {', '.join(columns)}")
        sampled = list(dict.fromkeys(row["phase"] for row in rows))
        # A phase the run knows but never sampled has an empty series, not a typo.
        if phase is not None and phase not in sampled and phase not in self.phase_names():
            raise MissingKeyError(f"{where}: no phase '{phase}'; phases: "
                                  f"{', '.join(sampled) or 'none'}")
        return [(row[time_column], row[column]) for row in rows
                if phase is None or row["phase"] == phase]


def load_run(path: str | Path) -> Run:
    """Reads a run directory; ftl_timeseries.csv is optional, the other files are not."""
    directory = Path(path)
    ftl_file = directory / FTL_TIMESERIES
    _, latency = _read_csv(directory / LATENCY, _LATENCY_HEADER)
    timeseries_columns, timeseries = _read_csv(directory / TIMESERIES, ("phase",))
    ftl_columns, ftl_rows = (_read_csv(ftl_file, ("phase", "time_ns")) if ftl_file.exists()
                             else ([], []))
    return Run(path=directory, stats=_read_stats(directory / STATS), latency=latency,
               timeseries=timeseries, ftl_timeseries=ftl_rows,
               timeseries_columns=timeseries_columns, ftl_timeseries_columns=ftl_columns)


def load_sweep(path: str | Path) -> list[Run]:
    """The runs of a sweep directory (<index>_<label>/, by index), or [the run] at path."""
    return [load_run(child) for child in point_directories(path)]


def point_directories(path: str | Path) -> list[Path]:
    """A sweep's point directories (<index>_<label>/, by index, whether or not their run
    finished), or [path] when path is a run directory (it holds stats.json)."""
    directory = Path(path)
    if (directory / STATS).exists():
        return [directory]
    points = [(int(match.group(1)), child) for child in directory.iterdir()
              if child.is_dir() and (match := _SWEEP_POINT.match(child.name))]
    if not points:
        raise FileNotFoundError(f"{directory}: neither a run directory ({STATS}) nor a sweep "
                                f"(<index>_<label>/ sub-directories)")
    return [child for _, child in sorted(points)]


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A nested dict as {dotted key: leaf}; lists are leaves, empty dicts vanish."""
    flat: dict[str, Any] = {}
    for key, value in tree.items():
        name = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            flat.update(flatten(value, name))
        else:
            flat[name] = value
    return flat


def table(runs: Iterable[Run], columns: Sequence[str]) -> list[dict[str, Any]]:
    """One row per run: each column a dotted path into stats.json; missing is None.

    E.g. "config.sram.size", "ftl.run.waf", "outcome.outcome", "scenario.sweep_label".
    """
    return [{column: lookup_or_none(run.stats, column) for column in columns} for run in runs]


def _lookup(tree: dict[str, Any], path: str, where: str) -> Any:
    parts = path.split(".")
    node: Any = tree
    done = 0
    while done < len(parts):
        walked = ".".join(parts[:done]) or "the top level"
        if not isinstance(node, dict):
            raise MissingKeyError(f"{where}: no '{path}': {walked} is a value, not a group")
        # Keys may hold dots themselves ("p99.9", the series' "map.hit_ratio"): the longest
        # key that matches wins.
        for end in range(len(parts), done, -1):
            key = ".".join(parts[done:end])
            if key in node:
                break
        else:
            raise MissingKeyError(f"{where}: no '{path}'; keys at {walked}: "
                                  f"{', '.join(sorted(node)) or 'none'}")
        node = node[key]
        done = end
    return node


def lookup_or_none(tree: dict[str, Any], path: str) -> Any:
    """The value at a dotted path, None when there is none (a metric a firmware lacks)."""
    try:
        return _lookup(tree, path, "")
    except MissingKeyError:
        return None


def run_ssdsim(ssdsim: str | Path, directory: Path, name: str) -> float:
    """Runs directory/scenario.yaml into `directory` (ssdvp_runner.execute); answers its wall
    seconds. RuntimeError with the end of ssdsim's output when it fails; the whole output is
    then in `directory`/ssdsim.log."""
    status, seconds, tail = execute(str(ssdsim), str(directory), [])
    if status != 0:
        raise RuntimeError(f"{name}: ssdsim failed ({status}; {Path(directory) / LOG}):\n{tail}")
    return seconds


def finished_run(out: Path, point: dict[str, Any]) -> dict[str, Any] | None:
    """The stats of a finished run of `point` in out/runs/<name> whose scenario is the point's
    (what run_point keeps with `resume`), None when there is none."""
    directory = out / "runs" / point["name"]
    config, stats = directory / SCENARIO, directory / STATS
    if not (config.exists() and stats.exists()
            and config.read_text() == json.dumps(point["scenario"], indent=1)):
        return None
    done = json.loads(stats.read_text())
    return done if done["outcome"]["outcome"] == "workload_done" else None


def run_point(ssdsim: str | Path, out: Path, point: dict[str, Any],
              resume: bool) -> tuple[dict[str, Any], Path, float]:
    """Runs one point of a reproduction (its "name" and "scenario", a dict) in
    out/runs/<name>: the scenario written as YAML (JSON is YAML), then ssdsim. With `resume`,
    a finished run of the same scenario is kept (finished_run), so an hour's reproduction
    survives an interruption. Answers the point, its directory and the run's wall seconds."""
    directory = out / "runs" / point["name"]
    directory.mkdir(parents=True, exist_ok=True)
    done = finished_run(out, point) if resume else None
    if done is not None:
        return point, directory, done["simulator"]["wall_seconds"]
    (directory / SCENARIO).write_text(json.dumps(point["scenario"], indent=1))
    (directory / LOG).unlink(missing_ok=True)
    return point, directory, run_ssdsim(ssdsim, directory, point["name"])


_BOOT_BANNER = re.compile(r"ftl: \d+ LPNs, ")  # the firmware's memory line at every boot


def failure_reason(directory: str | Path, error: BaseException) -> str:
    """Why a run failed: the firmware's and ssdsim's own lines from its log (ssdsim.log), else
    the error's first line."""
    log = Path(directory) / LOG
    if log.exists():
        lines = [line.strip() for line in log.read_text(errors="replace").splitlines()
                 if line.startswith(("ftl:", "ssdsim:")) and not _BOOT_BANNER.match(line)]
        if lines:
            return "; ".join(dict.fromkeys(lines))
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def failed_record(out: Path, point: dict[str, Any], error: BaseException) -> dict[str, Any]:
    """A failed point's record: its own keys (not its scenario), "failed", why and its log."""
    directory = out / "runs" / point["name"]
    log = directory / LOG
    return {**{k: v for k, v in point.items() if k != "scenario"}, "failed": True,
            "error": failure_reason(directory, error),
            "log": str(log) if log.exists() else None}


def run_points(ssdsim: str | Path, out: Path, todo: Sequence[dict[str, Any]], jobs: int,
               resume: bool, figures: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Runs the points `jobs` at a time in out/runs/<name> (ssdvp_runner: the scenario written
    as YAML, JSON being YAML, then ssdsim; progress on stderr); with `resume`, a finished run of
    the same scenario is kept. A finished run's record is figures(load_run(directory), point)
    with its "wall_seconds"; a run that fails, or whose figures raise, is a failed_record, and
    the rest go on. Answers the records in todo's order and {"runs": name -> wall seconds,
    "reused": runs kept}."""
    results = run_jobs(ssdsim, [Job(point["name"], out / "runs" / point["name"],
                                    json.dumps(point["scenario"], indent=1)) for point in todo],
                       jobs, resume=resume)
    records, runs = [], {}
    for point, result in zip(todo, results):
        try:
            if result.status == "failed":
                raise RuntimeError(f"{point['name']}: {result.error} ({result.log})")
            record = figures(load_run(result.job.directory), point)
            record["wall_seconds"] = round(result.seconds or 0.0, 1)
            runs[point["name"]] = result.seconds
        except Exception as error:  # noqa: BLE001 (recorded and reported)
            record = failed_record(out, point, error)
            if result.status != "failed":  # the runner reported its own failures
                print(f"{point['name']}: FAILED: {record['error']}", file=sys.stderr)
        records.append(record)
    return records, {"runs": runs, "reused": sum(r.status == "kept" for r in results)}


def parse_list(text: str, allowed: Sequence[Any], what: str, parser: argparse.ArgumentParser
               ) -> list[Any]:
    """Comma-separated names, each one of `allowed` (case-insensitive), in the given order; a
    name not allowed is a parser error naming the allowed ones."""
    known = {str(a).lower(): a for a in allowed}
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:  # an empty list ran nothing and overwrote the summary with it
        parser.error(f"no {what} given; allowed: {', '.join(map(str, allowed))}")
    for n in names:
        if n.lower() not in known:
            parser.error(f"unknown {what} '{n}'; allowed: {', '.join(map(str, allowed))}")
    return [known[n.lower()] for n in names]


def check_run_options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Path:
    """The options every reproduction shares, checked before its first run (a bad one ended in
    a traceback, or failed every run and overwrote an earlier summary): --jobs, --ssdsim,
    --firmware where there is one, and --out, which is made. Answers --out."""
    if args.jobs < 1:
        parser.error(f"--jobs: {args.jobs} is not allowed; at least 1")
    ssdsim = Path(args.ssdsim)
    if not ssdsim.is_file() or not os.access(ssdsim, os.X_OK):
        parser.error(f"--ssdsim: '{ssdsim}' is not an executable file (make build builds "
                     "build/tb/ssdsim)")
    firmware = getattr(args, "firmware", None)
    if firmware is not None and not Path(firmware).is_file():
        parser.error(f"--firmware: '{firmware}' is not a file")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        parser.error(f"--out: cannot make the directory '{out}': {error.strerror}")
    if not os.access(out, os.W_OK):
        parser.error(f"--out: cannot write into '{out}'")
    return out


def clock_hz(text: str | float) -> float:
    """A frequency as the scenario writes it (800MHz, 1.5GHz, or a number of Hz) in Hz."""
    for unit, factor in (("GHz", 1e9), ("MHz", 1e6), ("kHz", 1e3), ("Hz", 1.0)):
        if str(text).endswith(unit):
            return float(str(text)[:-len(unit)]) * factor
    return float(text)


def mean(values: Iterable[float | None]) -> float | None:
    """The mean of the values present (None ones left out), None when there are none."""
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def ratio(a: float | None, b: float | None) -> float | None:
    """a / b, None when either is missing or b is zero."""
    return None if a is None or not b else a / b


def pct(x: float | None) -> str:
    """A share as a percentage with one decimal, "n/a" when missing (summary tables)."""
    return "n/a" if x is None else f"{100 * x:.1f} %"


def wall_line(summary: dict[str, Any]) -> str:
    """A reproduction summary's wall time: the runs' and this invocation's; with --resume, how
    many runs were kept from an earlier invocation (their time is from when they ran)."""
    line = (f"Wall time: the runs took {summary['runs_wall_seconds']:.0f} s between them on "
            f"{summary['jobs']} jobs")
    reused, runs = summary.get("reused_runs", 0), summary.get("runs", 0)
    if reused:
        line += (f"; {reused} of {runs} runs were kept from an earlier invocation (--resume) and "
                 f"their time is from then: this invocation took {summary['wall_seconds']:.0f} s")
    else:
        line += f"; this invocation took {summary['wall_seconds']:.0f} s"
    return line + "."


def _read_stats(path: Path) -> dict[str, Any]:
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file (not an ssdsim results directory?)")
    try:
        stats = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}:{error.lineno}: malformed JSON: {error.msg}") from error
    if not isinstance(stats, dict):
        raise ValueError(f"{path}: expected a JSON object at the top level")
    return stats


def _read_csv(path: Path, leading: tuple[str, ...]) -> tuple[list[str], list[Row]]:
    """The header and the rows of a CSV file whose header starts with the leading columns."""
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    with path.open(newline="", encoding="utf-8") as stream:
        reader = csv.reader(stream, strict=True)
        try:
            header = next(reader, [])
            if tuple(header[:len(leading)]) != leading:
                raise ValueError(f"{path}:1: the header must start with {','.join(leading)}, "
                                 f"found {','.join(header) or 'nothing'}")
            rows = [_row(header, fields, f"{path}:{reader.line_num}")
                    for fields in reader if fields]
        except csv.Error as error:
            raise ValueError(f"{path}:{reader.line_num}: {error}") from error
    return header, rows


def _row(header: list[str], fields: list[str], where: str) -> Row:
    if len(fields) != len(header):
        raise ValueError(f"{where}: expected {len(header)} fields, found {len(fields)}")
    return {column: _cell(text, column, where) for column, text in zip(header, fields)}


def _cell(text: str, column: str, where: str) -> Value:
    if column in _TEXT_COLUMNS:
        return text
    # timeseries.csv holds JSON dumps, where a NaN becomes "null"; the FTL's leaves cells empty.
    if text in ("", "null"):
        return None
    match = _NUMBER.fullmatch(text)
    if match is None:
        raise ValueError(f"{where}: column '{column}': '{text}' is not a number")
    return float(text) if match.group(1) or match.group(2) else int(text)


def _format_value(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return f"<{len(value)} values>"
    return str(value)


def _format_run(run: Run, paths: Sequence[str]) -> str:
    """A run's heading and its FTL metrics: one row per metric, one column per phase."""
    lines = [f"{run.path}: {run.outcome.get('outcome', '?')} "
             f"(exit code {run.outcome.get('exit_code', '?')})"]
    try:
        ftl = run.ftl()
    except ValueError as error:
        return "\n".join(lines + [f"  {error}"])
    names: list[str] = []
    for path in paths:
        value = run.metric(path)  # a typo fails here, naming the keys there are
        names += list(flatten(value, path)) if isinstance(value, dict) else [path]
    spans = [(phase["name"], phase) for phase in ftl["phases"]] + [("(whole run)", ftl["run"])]
    grid = [["metric"] + [heading for heading, _ in spans]]
    for name in names or list(flatten(ftl["run"])):
        grid.append([name] + [_format_value(lookup_or_none(metrics, name))
                              for _, metrics in spans])
    widths = [max(len(row[i]) for row in grid) for i in range(len(grid[0]))]
    for row in grid:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width)
                                             for cell, width in zip(row[1:], widths[1:])]
        lines.append("  " + "  ".join(cells))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: prints the FTL metrics of every run below a directory."""
    parser = argparse.ArgumentParser(
        description="Print the FTL metrics of an ssdsim run or sweep, one column per phase.")
    parser.add_argument("directory", help="a run directory (ssdsim --out) or a sweep directory")
    parser.add_argument("--metric", action="append", default=[], metavar="PATH",
                        help="a dotted FTL metric or group, e.g. waf or map (repeatable; "
                             "default: every metric)")
    args = parser.parse_args(argv)
    try:
        print("\n\n".join(_format_run(run, args.metric) for run in load_sweep(args.directory)))
    except (OSError, ValueError, KeyError) as error:
        print(f"ssdvp_results: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
