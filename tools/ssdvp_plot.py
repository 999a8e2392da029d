#!/usr/bin/python3
"""The standard figures of ssdsim runs, one PNG each (and an SVG with --svg), by matplotlib:

    ssdvp plot cdf RUN [RUN ...] [--op read,write] [--phase NAME]        latency CDFs
    ssdvp plot series RUN [RUN ...] --column NAME [--phase NAME]         a metric over time
    ssdvp plot sweep SWEEP --metric PATH --key PATH [--group PATH]       a metric against a key
    ssdvp plot area DIR [DIR ...] --metric PATH [--maximize] [--x PATH]  a metric against area,
                                                                         the Pareto front marked

Metrics and keys are dotted stats.json paths as in ssdvp_results.table ("ftl.run.waf",
"config.ftl.map_budget"); a list of named records is entered by name, so
"host.phases.measure.ops.read.latency_ns.p99" is the measure phase's p99 read latency.
Standalone: /usr/bin/python3 tools/ssdvp_plot.py cdf results -o cdf.png
"""

import argparse
import re
import sys
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ssdvp_results  # noqa: E402
from ssdvp_pareto import MAXIMIZE, MINIMIZE, pareto_front  # noqa: E402

AREA = "platform.area.total_mm2"
SCHEME = "config.firmware.scheme"
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*(B|KiB|MiB|GiB|KB|MB|GB)")
_SIZE_FACTOR = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "KB": 1e3, "MB": 1e6,
                "GB": 1e9}


# ---- metrics ------------------------------------------------------------------------------

def _named(tree: Any) -> Any:
    """The tree with every list of records that all have a "name" made a dict by name."""
    if isinstance(tree, dict):
        return {key: _named(value) for key, value in tree.items()}
    if isinstance(tree, list) and tree and all(isinstance(e, dict) and "name" in e
                                               for e in tree):
        return {e["name"]: _named(e) for e in tree}
    return tree


def metric(stats: dict[str, Any], path: str, where: str = "stats.json") -> Any:
    """The value at a dotted path as ssdvp_results reads it (keys holding dots, "p99.9", match
    whole, the longest first), where a list of records with a "name" is entered by that name.
    MissingKeyError (a KeyError) names what there is where the path went wrong."""
    return ssdvp_results._lookup(_named(stats), path, where)  # noqa: SLF001 (the one reader)


def metric_or_none(stats: dict[str, Any], path: str) -> Any:
    try:
        return metric(stats, path)
    except ssdvp_results.MissingKeyError:
        return None


def as_number(value: Any) -> float | None:
    """A number for an axis: numbers as they are, sizes ("64KiB") in bytes, else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    match = _SIZE.fullmatch(str(value).strip())
    return float(match.group(1)) * _SIZE_FACTOR[match.group(2)] if match else None


def run_label(run: ssdvp_results.Run) -> str:
    """A run's name in a legend: its sweep point's label, else its directory's name."""
    return run.stats.get("scenario", {}).get("sweep_label") or run.path.name


# ---- drawing ------------------------------------------------------------------------------

def pyplot():
    """matplotlib's pyplot on the Agg backend, imported only when a figure is drawn (the other
    ssdvp subcommands run without matplotlib)."""
    try:
        import matplotlib
    except ImportError as error:
        raise RuntimeError("matplotlib is missing: run with /usr/bin/python3 (Debian's "
                           "python3-matplotlib, scripts/bootstrap)") from error
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save(fig, out: str | Path, svg: bool = False) -> list[Path]:
    """Writes the figure to `out` (PNG) and, with `svg`, beside it as SVG; answers the paths."""
    plt = pyplot()
    png = Path(out)
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    written = [png]
    if svg:
        fig.savefig(png.with_suffix(".svg"))
        written.append(png.with_suffix(".svg"))
    plt.close(fig)
    return written


def latency_cdf(runs: Sequence[ssdvp_results.Run], out: str | Path, ops: Sequence[str] = ("read",),
                phase: str | None = None, svg: bool = False) -> list[Path]:
    """One CDF per run and op from latency.csv (every phase merged unless `phase`)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for run in runs:
        for op in ops:
            rows = [r for r in run.latency if r["op"] == op and phase in (None, r["phase"])]
            if not rows:
                present = sorted({(r["phase"], r["op"]) for r in run.latency})
                raise ValueError(f"{run.path / ssdvp_results.LATENCY}: no latencies of op '{op}'"
                                 f"{f' in phase {phase!r}' if phase else ''}; there are: "
                                 f"{', '.join(f'{p}/{o}' for p, o in present) or 'none'}")
            counts: dict[int, int] = {}
            for r in rows:
                counts[r["upper_ns"]] = counts.get(r["upper_ns"], 0) + r["count"]
            total, seen, xs, ys = sum(counts.values()), 0, [], []
            for upper in sorted(counts):
                seen += counts[upper]
                xs.append(upper / 1000)
                ys.append(seen / total)
            label = run_label(run) + (f" {op}" if len(ops) > 1 else "")
            ax.step(xs, ys, where="post", label=label)
    ax.set_xscale("log")
    ax.set_xlabel("latency (us)")
    ax.set_ylabel("fraction of commands")
    ax.set_ylim(0, 1.01)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(f"{'/'.join(ops)} latency CDF" + (f", phase {phase}" if phase else ""))
    return save(fig, out, svg)


def time_series(runs: Sequence[ssdvp_results.Run], column: str, out: str | Path,
                phase: str | None = None, svg: bool = False) -> list[Path]:
    """A column of ftl_timeseries.csv (FTL metrics) or else timeseries.csv (host) over time."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for run in runs:
        if column in run.ftl_timeseries_columns:
            pairs = run.series(column, phase)
        elif column in run.timeseries_columns:
            pairs = run.host_series(column, phase)
        else:
            raise ssdvp_results.MissingKeyError(
                f"{run.path}: no column '{column}' in {ssdvp_results.FTL_TIMESERIES} or "
                f"{ssdvp_results.TIMESERIES}; columns: "
                f"{', '.join(run.ftl_timeseries_columns + run.timeseries_columns)}")
        ax.plot([t / 1e6 for t, _ in pairs], [v for _, v in pairs], marker=".",
                label=run_label(run))
    ax.set_xlabel("simulated time (ms)")
    ax.set_ylabel(column)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(f"{column} over time" + (f", phase {phase}" if phase else ""))
    return save(fig, out, svg)


def sweep_plot(runs: Sequence[ssdvp_results.Run], metric_path: str, key: str,
               out: str | Path, group: str | None = SCHEME, svg: bool = False) -> list[Path]:
    """A metric against a swept key, one line per value of `group` (e.g. the scheme). A key
    whose values are not all numbers or sizes is drawn as categories, in the runs' order."""
    plt = pyplot()
    rows = [(metric(run.stats, key, str(run.path / ssdvp_results.STATS)),
             metric_or_none(run.stats, group) if group else None,
             metric(run.stats, metric_path, str(run.path / ssdvp_results.STATS)))
            for run in runs]
    numeric = all(as_number(x) is not None for x, _, _ in rows)
    categories = list(dict.fromkeys(str(x) for x, _, _ in rows))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name in dict.fromkeys(g for _, g, _ in rows):
        line = [(as_number(x) if numeric else categories.index(str(x)), y)
                for x, g, y in rows if g == name]
        line.sort(key=lambda p: p[0])
        ax.plot([x for x, _ in line], [y for _, y in line], marker="o",
                label=str(name) if group else None)
    if not numeric:
        ax.set_xticks(range(len(categories)), categories)
    ax.set_xlabel(key)
    ax.set_ylabel(metric_path)
    ax.grid(True, alpha=0.3)
    if group:
        ax.legend(fontsize=8, title=group.rsplit(".", 1)[-1])
    ax.set_title(f"{metric_path} against {key}")
    return save(fig, out, svg)


def tradeoff_plot(points: Sequence[dict[str, Any]], out: str | Path, x_label: str,
                  y_label: str, goals: Sequence[str] = (MINIMIZE, MINIMIZE),
                  title: str | None = None, svg: bool = False) -> tuple[list[Path], list[int]]:
    """Points ({"label", "group", "x", "y"}) coloured by group, the Pareto front of (x, y)
    under `goals` joined by a step line and labelled. Points missing x or y are left out.
    Answers the files and the front's indices into `points`."""
    plt = pyplot()
    front = pareto_front([(p["x"], p["y"]) for p in points], goals)
    fig, ax = plt.subplots(figsize=(7.5, 5))
    for colour, name in enumerate(dict.fromkeys(p.get("group") for p in points)):
        mine = [p for p in points if p.get("group") == name and None not in (p["x"], p["y"])]
        ax.scatter([p["x"] for p in mine], [p["y"] for p in mine], color=f"C{colour}",
                   label=None if name is None else str(name), zorder=2)
    on_front = sorted((points[i] for i in front), key=lambda p: p["x"])
    if on_front:
        ax.step([p["x"] for p in on_front], [p["y"] for p in on_front], where="post",
                color="black", linewidth=1, linestyle="--", label="Pareto front", zorder=1)
        ax.scatter([p["x"] for p in on_front], [p["y"] for p in on_front], s=140,
                   facecolors="none", edgecolors="black", zorder=3)
        for p in on_front:
            ax.annotate(p["label"], (p["x"], p["y"]), textcoords="offset points",
                        xytext=(6, 6), fontsize=7)
    ax.set_xlabel(f"{x_label} ({goals[0]})")
    ax.set_ylabel(f"{y_label} ({goals[1]})")
    ax.grid(True, alpha=0.3)
    if any(p.get("group") is not None for p in points) or on_front:
        ax.legend(fontsize=8)
    ax.set_title(title or f"{y_label} against {x_label}", fontsize=10)
    return save(fig, out, svg), front


def area_plot(runs: Sequence[ssdvp_results.Run], metric_path: str, out: str | Path,
              x: str = AREA, goal: str = MINIMIZE, group: str | None = SCHEME,
              svg: bool = False) -> tuple[list[Path], list[int]]:
    """A metric against area (or any metric `x`, minimised), the Pareto front marked."""
    points = [{"label": run_label(run),
               "group": metric_or_none(run.stats, group) if group else None,
               "x": as_number(metric(run.stats, x, str(run.path / ssdvp_results.STATS))),
               "y": as_number(metric(run.stats, metric_path,
                                     str(run.path / ssdvp_results.STATS)))}
              for run in runs]
    return tradeoff_plot(points, out, x, metric_path, (MINIMIZE, goal))


# ---- command line -------------------------------------------------------------------------

def _runs(directories: Sequence[str]) -> list[ssdvp_results.Run]:
    """The runs below each directory (a run or a sweep), in order."""
    return [run for directory in directories for run in ssdvp_results.load_sweep(directory)]


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def handle(args: argparse.Namespace) -> int:
    """`ssdvp plot`: draws the figure the subcommand names; 1 with the error on bad input."""
    out = args.out or f"{args.figure}.png"
    try:
        runs = _runs(args.dirs)
        if args.figure == "cdf":
            written = latency_cdf(runs, out, _names(args.op), args.phase, args.svg)
        elif args.figure == "series":
            written = time_series(runs, args.column, out, args.phase, args.svg)
        elif args.figure == "sweep":
            written = sweep_plot(runs, args.metric, args.key, out, args.group or None, args.svg)
        else:
            written, front = area_plot(runs, args.metric, out, args.x,
                                       MAXIMIZE if args.maximize else MINIMIZE,
                                       args.group or None, args.svg)
            print("Pareto front: " + ", ".join(run_label(runs[i]) for i in front))
    except (OSError, ValueError, KeyError, RuntimeError) as error:
        print(f"ssdvp plot: {error}", file=sys.stderr)
        return 1
    print("wrote " + ", ".join(map(str, written)))
    return 0


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Registers `plot` and its figures (cdf, series, sweep, area) under `subparsers`."""
    plot = subparsers.add_parser("plot", help="draw the standard figures of runs and sweeps",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    figures = plot.add_subparsers(dest="figure", required=True, metavar="FIGURE")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-o", "--out", help="the PNG to write (default FIGURE.png)")
    common.add_argument("--svg", action="store_true", help="also write an SVG beside the PNG")
    cdf = figures.add_parser("cdf", parents=[common], help="latency CDFs from latency.csv")
    cdf.add_argument("dirs", nargs="+", metavar="RUN", help="run or sweep directories")
    cdf.add_argument("--op", default="read", help="ops, comma-separated (default read)")
    cdf.add_argument("--phase", help="one workload phase (default: all merged)")
    series = figures.add_parser("series", parents=[common],
                                help="a metric over time (ftl_timeseries.csv, timeseries.csv)")
    series.add_argument("dirs", nargs="+", metavar="RUN", help="run or sweep directories")
    series.add_argument("--column", required=True, help="a column, e.g. waf or iops")
    series.add_argument("--phase", help="one workload phase (default: all)")
    sweep = figures.add_parser("sweep", parents=[common],
                               help="a metric against a swept key, a line per scheme")
    sweep.add_argument("dirs", nargs="+", metavar="SWEEP", help="sweep or run directories")
    sweep.add_argument("--metric", required=True, help="dotted stats.json path (y)")
    sweep.add_argument("--key", required=True, help="dotted stats.json path (x), e.g. "
                                                    "config.ftl.map_budget")
    sweep.add_argument("--group", default=SCHEME, help=f"a line per value (default {SCHEME}; "
                                                       "'' for one line)")
    area = figures.add_parser("area", parents=[common],
                              help="a metric against area with the Pareto front marked")
    area.add_argument("dirs", nargs="+", metavar="DIR", help="sweep or run directories")
    area.add_argument("--metric", required=True, help="dotted stats.json path (y)")
    area.add_argument("--maximize", action="store_true", help="more of the metric is better")
    area.add_argument("--x", default=AREA, help=f"the x axis, minimised (default {AREA})")
    area.add_argument("--group", default=SCHEME, help=f"colour by (default {SCHEME})")
    plot.set_defaults(handler=handle)
    return plot


def standalone(add: Any, command: str, argv: Sequence[str] | None) -> int:
    """A subcommand module's main(): its parser (add_parser) alone, as `ssdvp COMMAND`."""
    parser = argparse.ArgumentParser(prog=f"ssdvp {command}")
    add(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args([command, *(sys.argv[1:] if argv is None else argv)])
    return args.handler(args)


def main(argv: Sequence[str] | None = None) -> int:
    return standalone(add_parser, "plot", argv)


if __name__ == "__main__":
    sys.exit(main())
