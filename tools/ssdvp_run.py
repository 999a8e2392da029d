#!/usr/bin/python3
"""`ssdvp run`: the points of scenarios and their sweeps, in parallel, resumable.

    tools/ssdvp run scenarios/default.yaml --set 'sweep.sram.size=[256KiB, 1MiB]' --out sweep

A sweep's points get the directories ssdsim gives them (DIR/<index>_<label>/, ssdvp_sweep), so
ssdvp_results.load_sweep and `ssdvp collect` read them as they read ssdsim's own sweeps.
"""

import argparse
import re
import sys
from pathlib import Path

import ssdvp_runner
import ssdvp_sweep

DEFAULT_SSDSIM = Path(__file__).resolve().parent.parent / "build" / "tb" / "ssdsim"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="run scenarios and their sweep points in parallel (resumable)",
        description="Run the points of the scenarios (each sweep point, or the scenario) on the "
                    "local cores or a Dask cluster. A point already finished with the same "
                    "scenario is kept; a failed point is reported with its log and the rest go "
                    "on. Exit status 1 when a point failed, 2 on bad input.")
    parser.add_argument("scenarios", nargs="+", metavar="SCENARIO", type=Path,
                        help="scenario YAML files; a sweep: section expands into its points")
    parser.add_argument("--out", type=Path, default=Path("results"),
                        help="output directory: a lone point's run directory, else one "
                             "<index>_<label>/ per point (default: results)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="points run at a time on this machine (default: every core, "
                             f"{ssdvp_runner.default_jobs()} here)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run on the Dask cluster of this scheduler (tcp://host:port); its "
                             "workers must see the same paths")
    parser.add_argument("--set", dest="overrides", action="append", default=[],
                        metavar="KEY=VALUE",
                        help="override a scenario key, or sweep.KEY=[v1, v2] to sweep one, as "
                             "ssdsim's --set (repeatable)")
    parser.add_argument("--ssdsim", type=Path, default=DEFAULT_SSDSIM,
                        help="the simulator (default: build/tb/ssdsim of this repository)")
    parser.set_defaults(handler=run_command)


def run_command(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.scheduler:
        return _bad("--jobs: the cluster's worker threads decide how many points run at a "
                    "time with --scheduler; give one of them")
    if args.jobs is not None and args.jobs < 1:
        return _bad(f"--jobs: {args.jobs} is not allowed; at least 1")
    if args.scheduler and not re.fullmatch(r"[a-z+]+://\S+", args.scheduler):
        return _bad(f"--scheduler: '{args.scheduler}' is not an address such as "
                    "tcp://host:8786")
    if not args.ssdsim.is_file():
        return _bad(f"--ssdsim: '{args.ssdsim}' is not a file (make build builds "
                    "build/tb/ssdsim)")
    for scenario in args.scenarios:
        if not scenario.is_file():
            return _bad(f"{scenario}: no such scenario file")
    if args.out.exists() and not args.out.is_dir():
        return _bad(f"--out: '{args.out}' is not a directory")
    try:
        points = ssdvp_sweep.expand(args.scenarios, args.overrides,
                                    ssdvp_sweep.registry(args.ssdsim))
    except ssdvp_sweep.ScenarioInputError as error:
        return _bad(str(error))
    _warn_of_other_points(args.out, {point.name for point in points})
    jobs = [ssdvp_runner.Job(point.name or str(args.out), args.out / point.name,
                             point.scenario, point.arguments) for point in points]
    try:
        results = ssdvp_runner.run_jobs(args.ssdsim, jobs, args.jobs or ssdvp_runner.default_jobs(),
                                        args.scheduler)
    except ConnectionError as error:
        return _bad(str(error))
    failed = [result for result in results if result.status == "failed"]
    if failed:
        print(f"ssdvp run: {len(failed)} of {len(results)} points failed: "
              f"{', '.join(result.job.name for result in failed)}", file=sys.stderr)
    return 1 if failed else 0


def _warn_of_other_points(out: Path, names: set[str]) -> None:
    """Point directories of an earlier, different sweep would be read with this one's."""
    if not out.is_dir():
        return
    others = sorted(child.name for child in out.iterdir()
                    if child.is_dir() and re.match(r"[0-9]+_", child.name)
                    and child.name not in names)
    if others:
        print(f"ssdvp run: warning: {out} also holds {len(others)} point directories this run "
              f"does not have, which collect and load_sweep read too: {', '.join(others[:5])}"
              f"{' ...' if len(others) > 5 else ''}", file=sys.stderr)


def _bad(message: str) -> int:
    print(f"ssdvp run: {message}", file=sys.stderr)
    return 2
