#!/usr/bin/python3
"""`ssdvp explore STUDY.yaml [--out DIR] [--jobs N]`: a design-space study of SRAM and silicon
area against miss rate and latency, in one self-contained HTML report.

A study file names a base scenario, axes (scenario keys, each with a list of values; the study
runs their cross product), workloads, objectives and the area metric:

    name: sram_vs_missrate                # optional; default: the file's name
    description: what and at which scale  # optional; shown in the report
    base: ../tpftl.yaml                   # a scenario file, relative to the study file, or
                                          # the scenario itself (a mapping)
    set: {host.oracle: false}             # optional: keys every point sets
    axes:
      firmware.scheme: [dftl, tpftl, sftl]
      memory:                             # not a scenario key: each value sets several keys
        - {label: 64KiB, ftl.map_budget: 64KiB, sram.size: 512KiB}
        - {label: 1MiB, ftl.map_budget: 1MiB, sram.size: 1536KiB}
    workloads:                            # each: phases, or the workload of a scenario file
      random_read: {phases: [...]}
      tpcc: {scenario: ../tpcc_ftl.yaml}
    objectives:                           # metric: a dotted stats.json path (ssdvp plot's)
      - {name: read miss rate, metric: ftl.run.map.misses, per: ftl.run.map.lookups,
         goal: minimize}
      - {name: p99 read latency (us), metric: host.phases.measure.ops.read.latency_ns.p99,
         scale: 0.001, goal: minimize}
    area: platform.area.total_mm2         # or {name: ..., metric: ..., scale: ...}

Every point runs in DIR/runs/<workload>-<labels>/ (ssdvp_results.run_points: --jobs at a time;
a run whose scenario is unchanged is kept unless --fresh). DIR/report.html holds, per workload,
the Pareto-optimal configurations (area and every objective together), each objective against
area with its front marked, and the table of every configuration; DIR/results.json the same
numbers and DIR/plots/ the PNGs the report embeds. A bad study file is an error naming the file
and the key; a scenario key ssdsim does not know (ssdsim --list-params) is one too.
"""

import argparse
import base64
import copy
import html
import itertools
import json
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ssdvp_results  # noqa: E402
from ssdvp_pareto import GOALS, MINIMIZE, pareto_front  # noqa: E402
from ssdvp_plot import AREA, as_number, metric, standalone, tradeoff_plot  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STUDY_KEYS = ("name", "description", "base", "set", "axes", "workloads", "objectives", "area")
REQUIRED_KEYS = ("base", "axes", "workloads", "objectives")
MEASURE_KEYS = ("name", "metric", "per", "scale", "goal")
WORKLOAD_KEYS = ("phases", "scenario")
_INDEX = re.compile(r"\[[0-9]+\]")
_PART = re.compile(r"([A-Za-z0-9_]+)((?:\[[0-9]+\])*)")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


class StudyError(ValueError):
    """A study file that cannot run: the message names the file and the key."""


@dataclass
class Measure:
    """An objective or the area: a stats.json path, optionally divided by another, scaled."""
    name: str
    metric: str
    goal: str = MINIMIZE
    per: str | None = None
    scale: float = 1.0

    def value(self, stats: dict[str, Any], where: str) -> float | None:
        """The measure of a run; None when a divisor is zero. MissingKeyError when absent."""
        value = as_number(metric(stats, self.metric, where))
        if self.per is not None:
            divisor = as_number(metric(stats, self.per, where))
            value = None if value is None or not divisor else value / divisor
        return None if value is None else value * self.scale


@dataclass
class Study:
    path: Path
    name: str
    description: str
    base: dict[str, Any]
    settings: dict[str, Any]
    axes: list[tuple[str, list[tuple[str, dict[str, Any]]]]]  # name, [(label, {key: value})]
    workloads: list[tuple[str, list[Any]]]  # name, phases
    objectives: list[Measure]
    area: Measure


# ---- the study file -------------------------------------------------------------------------

def _load_yaml(path: Path, what: str) -> Any:
    import yaml  # Debian's python3-yaml; only explore reads YAML
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise StudyError(f"{what}: cannot read '{path}': {error.strerror}") from error
    except yaml.YAMLError as error:
        raise StudyError(f"{path}: not valid YAML: {error}") from error


def _mapping(value: Any, where: str, allowed: Sequence[str] | None = None) -> dict[str, Any]:
    if not isinstance(value, dict) or not value:
        raise StudyError(f"{where}: expected a non-empty mapping, found {value!r}")
    for key in value:
        if allowed is not None and key not in allowed:
            raise StudyError(f"{where}: unknown key '{key}'; allowed: {', '.join(allowed)}")
    return value


def _measure(value: Any, where: str, goal_required: bool) -> Measure:
    if isinstance(value, str):
        value = {"metric": value}
    spec = _mapping(value, where, MEASURE_KEYS)
    if not isinstance(spec.get("metric"), str) or not spec["metric"]:
        raise StudyError(f"{where}.metric: a dotted stats.json path is required, e.g. "
                         f"ftl.run.map.hit_ratio")
    goal = spec.get("goal", MINIMIZE if not goal_required else None)
    if goal not in GOALS:
        raise StudyError(f"{where}.goal: '{goal}' is not allowed; allowed: {', '.join(GOALS)}")
    scale = spec.get("scale", 1.0)
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or scale <= 0:
        raise StudyError(f"{where}.scale: '{scale}' is not allowed; a positive number")
    per = spec.get("per")
    if per is not None and not isinstance(per, str):
        raise StudyError(f"{where}.per: a dotted stats.json path, found {per!r}")
    return Measure(str(spec.get("name", spec["metric"])), spec["metric"], goal, per,
                   float(scale))


def _axis(name: str, values: Any, where: str) -> list[tuple[str, dict[str, Any]]]:
    if not isinstance(values, list) or not values:
        raise StudyError(f"{where}: expected a non-empty list of values, found {values!r}")
    found = []
    for i, value in enumerate(values):
        if isinstance(value, dict):  # a linked value: several keys at once
            keys = {k: v for k, v in _mapping(value, f"{where}[{i}]").items() if k != "label"}
            if not keys:
                raise StudyError(f"{where}[{i}]: no scenario keys beside 'label'")
            label = str(value.get("label", "+".join(map(str, keys.values()))))
        else:
            keys, label = {name: value}, str(value)
        found.append((label, keys))
    labels = [label for label, _ in found]
    if len(set(labels)) != len(labels):
        raise StudyError(f"{where}: two values have the same label; labels: {', '.join(labels)}")
    return found


def _absolute_traces(workload: Any, directory: Path) -> Any:
    """The workload with its streams' relative trace paths made absolute (they are relative to
    the file they were written in; the point's scenario lives in the run's directory)."""
    workload = copy.deepcopy(workload)
    for phase in workload.get("phases", []) if isinstance(workload, dict) else []:
        for stream in phase.get("streams", []) if isinstance(phase, dict) else []:
            if isinstance(stream, dict) and isinstance(stream.get("trace"), str):
                stream["trace"] = str((directory / stream["trace"]).resolve())
    return workload


def _workload(name: str, spec: Any, where: str, directory: Path) -> list[Any]:
    spec = _mapping(spec, where, WORKLOAD_KEYS)
    if len(spec) != 1:
        raise StudyError(f"{where}: give one of {', '.join(WORKLOAD_KEYS)}, not both")
    if "scenario" in spec:
        path = directory / str(spec["scenario"])
        scenario = _load_yaml(path, f"{where}.scenario")
        phases = (scenario.get("workload") or {}).get("phases") if isinstance(scenario, dict) \
            else None
        if not phases:
            raise StudyError(f"{where}.scenario: '{path}' has no workload.phases")
        return _absolute_traces({"phases": phases}, path.parent)["phases"]
    if not isinstance(spec["phases"], list) or not spec["phases"]:
        raise StudyError(f"{where}.phases: expected a non-empty list of phases")
    return _absolute_traces({"phases": spec["phases"]}, directory)["phases"]


def load_study(path: str | Path) -> Study:
    """Reads and checks a study file; StudyError naming the file and the key otherwise."""
    path = Path(path)
    tree = _mapping(_load_yaml(path, "study"), str(path), STUDY_KEYS)
    for key in REQUIRED_KEYS:
        if key not in tree:
            raise StudyError(f"{path}: '{key}' is required (keys: {', '.join(STUDY_KEYS)})")
    directory = path.parent
    # The base scenario: a file, or written inline (then relative paths are the study's).
    base_path = path if isinstance(tree["base"], dict) else directory / str(tree["base"])
    base = tree["base"] if isinstance(tree["base"], dict) else \
        _load_yaml(base_path, f"{path}: base")
    if not isinstance(base, dict):
        raise StudyError(f"{path}: base: '{base_path}' is not a scenario (a YAML mapping)")
    if "sweep" in base:
        raise StudyError(f"{path}: base: '{base_path}' has a sweep section; the study's axes "
                         f"replace it")
    base = {k: v for k, v in base.items() if k != "output"}  # --out names the directory
    if "workload" in base:
        base["workload"] = _absolute_traces(base["workload"], base_path.parent)
    settings = tree.get("set") or {}
    if not isinstance(settings, dict):
        raise StudyError(f"{path}: set: expected a mapping of scenario keys to values")
    axes = [(str(name), _axis(str(name), values, f"{path}: axes.{name}"))
            for name, values in _mapping(tree["axes"], f"{path}: axes").items()]
    workloads = [(str(name), _workload(str(name), spec, f"{path}: workloads.{name}", directory))
                 for name, spec in _mapping(tree["workloads"], f"{path}: workloads").items()]
    if not isinstance(tree["objectives"], list) or not tree["objectives"]:
        raise StudyError(f"{path}: objectives: expected a non-empty list of "
                         f"{{name, metric, goal}}")
    objectives = [_measure(spec, f"{path}: objectives[{i}]", goal_required=True)
                  for i, spec in enumerate(tree["objectives"])]
    area = _measure(tree.get("area", AREA), f"{path}: area", goal_required=False)
    if area.goal != MINIMIZE:
        raise StudyError(f"{path}: area.goal: area is minimised; leave goal out")
    return Study(path, str(tree.get("name", path.stem)), str(tree.get("description", "")), base,
                 settings, axes, workloads, objectives, area)


def known_keys(ssdsim: str | Path) -> set[str]:
    """The scenario keys ssdsim knows (--list-params' first column; indices as [])."""
    result = subprocess.run([str(ssdsim), "--list-params"], capture_output=True, text=True)
    if result.returncode != 0:
        raise StudyError(f"{ssdsim} --list-params failed ({result.returncode}): "
                         f"{result.stderr.strip()[-500:]}")
    return {line.split()[0] for line in result.stdout.splitlines()[1:] if line.strip()}


def check_keys(study: Study, known: set[str]) -> None:
    """Every key the study sets must be a scenario key ssdsim knows, or a group of them."""
    groups = {".".join(key.split(".")[:n]) for key in known for n in range(1, key.count(".") + 1)}
    used = [(f"set.{key}", key) for key in study.settings]
    used += [(f"axes.{name}", key) for name, values in study.axes
             for _, keys in values for key in keys]
    for where, key in used:
        general = _INDEX.sub("[]", str(key))
        if general not in known and general not in groups:
            near = sorted(k for k in known if k.split(".")[-1] == general.split(".")[-1])
            hint = f"; did you mean {', '.join(near[:5])}?" if near else \
                "; ssdsim --list-params lists them"
            raise StudyError(f"{study.path}: {where}: '{key}' is not a scenario key{hint}")


# ---- the points -----------------------------------------------------------------------------

def set_key(tree: dict[str, Any], key: str, value: Any, where: str) -> None:
    """Sets a dotted key ("workload.phases[1].streams[0].queue_depth") in a scenario tree."""
    node: Any = tree
    parts = key.split(".")
    for n, part in enumerate(parts):
        match = _PART.fullmatch(part)
        if match is None:
            raise StudyError(f"{where}: '{key}' is not a dotted scenario key")
        name, indices = match.group(1), [int(i) for i in re.findall(r"[0-9]+", match.group(2))]
        last = n == len(parts) - 1 and not indices
        if last:
            node[name] = copy.deepcopy(value)
            return
        node = node.setdefault(name, [] if indices else {})
        for depth, index in enumerate(indices):
            if not isinstance(node, list) or index >= len(node):
                raise StudyError(f"{where}: '{key}': the scenario has no {name}[{index}]")
            if n == len(parts) - 1 and depth == len(indices) - 1:
                node[index] = copy.deepcopy(value)
                return
            node = node[index]
        if not isinstance(node, dict):
            raise StudyError(f"{where}: '{key}': {part} is a value, not a group")


def points(study: Study) -> list[dict[str, Any]]:
    """The cross product of the axes, for each workload: {"name", "workload", "config" (axis
    -> label), "scenario"}."""
    found = []
    for workload, phases in study.workloads:
        for combination in itertools.product(*(values for _, values in study.axes)):
            labels = [label for label, _ in combination]
            name = _UNSAFE.sub("_", "-".join([workload, *labels]))
            scenario = copy.deepcopy(study.base)
            for key, value in study.settings.items():
                set_key(scenario, str(key), value, f"{study.path}: set.{key}")
            for (axis, _), (_, keys) in zip(study.axes, combination):
                for key, value in keys.items():
                    set_key(scenario, str(key), value, f"{study.path}: axes.{axis}")
            scenario["name"] = name
            scenario["workload"] = {"phases": copy.deepcopy(phases)}
            found.append({"name": name, "workload": workload,
                          "config": {axis: label for (axis, _), label
                                     in zip(study.axes, labels)},
                          "scenario": scenario})
    return found


def figures(study: Study):
    """run_points' figures: a finished run's objectives and area; a missing metric is None and
    its reason is kept (the area model may be absent from an older ssdsim)."""
    def of(run: ssdvp_results.Run, point: dict[str, Any]) -> dict[str, Any]:
        outcome = run.outcome.get("outcome")
        if outcome != "workload_done":
            raise RuntimeError(f"{run.path}: outcome {outcome}: {run.outcome.get('message')}")
        values, missing = {}, {}
        for measure in [*study.objectives, study.area]:
            try:
                values[measure.name] = measure.value(run.stats, str(run.path / "stats.json"))
            except KeyError as error:
                values[measure.name], missing[measure.name] = None, str(error)
        return {"name": point["name"], "workload": point["workload"],
                "config": point["config"], "values": values, "missing": missing}
    return of


# ---- the report -----------------------------------------------------------------------------

def fronts(study: Study, records: list[dict[str, Any]]) -> dict[str, Any]:
    """Per workload: its records, whether area was measured, and the joint Pareto front over
    area (when measured) and every objective, as names."""
    found = {}
    for workload, _ in study.workloads:
        mine = [r for r in records if r["workload"] == workload and not r.get("failed")]
        with_area = any(r["values"][study.area.name] is not None for r in mine)
        measures = ([study.area] if with_area else []) + study.objectives
        front = pareto_front([[r["values"][m.name] for m in measures] for r in mine],
                             [m.goal for m in measures])
        found[workload] = {"records": mine, "with_area": with_area,
                           "measures": [m.name for m in measures],
                           "front": [mine[i]["name"] for i in front]}
    return found


def _number(value: Any) -> str:
    return "-" if value is None else f"{value:.4g}"


def _image(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(path.name)}">'


def _config_label(record: dict[str, Any]) -> str:
    return " ".join(record["config"].values())


def workload_plots(study: Study, workload: str, front: dict[str, Any], plots: Path) -> list[Path]:
    """Each objective against area (when measured) and, with two objectives or more, the first
    two against each other; points coloured by the first axis."""
    first_axis = study.axes[0][0]
    pairs = [(study.area, o) for o in study.objectives] if front["with_area"] else []
    if len(study.objectives) >= 2:
        pairs.append((study.objectives[0], study.objectives[1]))
    written = []
    for n, (x, y) in enumerate(pairs):
        shown = [{"label": " ".join(list(r["config"].values())[1:]) or r["config"][first_axis],
                  "group": r["config"][first_axis], "x": r["values"][x.name],
                  "y": r["values"][y.name]} for r in front["records"]]
        files, _ = tradeoff_plot(shown, plots / f"{_UNSAFE.sub('_', workload)}_{n}.png",
                                 x.name, y.name, (x.goal, y.goal),
                                 title=f"{workload}: {y.name} against {x.name}")
        written += files
    return written


def report_html(study: Study, records: list[dict[str, Any]], found: dict[str, Any],
                images: dict[str, list[Path]], timing: dict[str, Any]) -> str:
    e = html.escape
    axes = [name for name, _ in study.axes]
    measures = [study.area, *study.objectives]
    runs, failed = len(records), [r for r in records if r.get("failed")]
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{e(study.name)}</title>",
             "<style>body{font-family:sans-serif;margin:2em;max-width:1300px}"
             "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;"
             "padding:3px 8px;text-align:right}th{background:#eee}td.l{text-align:left}"
             "tr.front{background:#e6f4e6;font-weight:bold}.plots{display:flex;flex-wrap:wrap}"
             ".plots img{width:640px;margin:4px}"
             ".note{background:#fff4d6;padding:0.5em 1em;border-left:4px solid #e0a800}"
             "</style></head><body>",
             f"<h1>Study {e(study.name)}</h1>",
             f"<p>Study file: <code>{e(str(study.path))}</code>. {runs} runs: "
             f"{len(records) // max(1, len(study.workloads))} configurations (axes: "
             f"{e(', '.join(axes))}) x {len(study.workloads)} workloads "
             f"({e(', '.join(w for w, _ in study.workloads))}); {len(failed)} failed. "
             f"The runs took {timing['runs_wall_seconds']:.0f} s between them on "
             f"{timing['jobs']} jobs ({timing['reused']} kept from an earlier invocation); "
             f"this invocation took {timing['wall_seconds']:.0f} s.</p>"]
    if study.description:
        parts.append(f"<p>{e(study.description)}</p>")
    parts.append("<p>Objectives: " + "; ".join(
        f"{e(m.name)} ({m.goal}: <code>{e(m.metric)}</code>"
        + (f" / <code>{e(m.per)}</code>" if m.per else "")
        + (f" x {m.scale:g}" if m.scale != 1 else "") + ")" for m in study.objectives)
        + f". Area: {e(study.area.name)} (<code>{e(study.area.metric)}</code>). A configuration "
        "is Pareto-optimal when no other one is at least as good in area and every objective "
        "and better in one.</p>")
    for workload, front in found.items():
        parts.append(f"<h2>Workload {e(workload)}</h2>")
        absent = sorted({reason for r in front["records"] for reason in r["missing"].values()})
        if absent:
            parts.append("<p class='note'>Missing metrics (left out of the fronts): "
                         + "<br>".join(e(a) for a in absent[:4]) + "</p>")
        names = ", ".join(_config_label(r) for r in front["records"] if r["name"] in
                          front["front"])
        parts.append(f"<p><b>Pareto-optimal configurations</b> (over "
                     f"{e(', '.join(front['measures']))}): {e(names) or 'none'}.</p>")
        parts.append("<div class='plots'>" + "".join(_image(path) for path in images[workload])
                     + "</div>")
        parts.append("<table><tr>" + "".join(f"<th>{e(a)}</th>" for a in axes)
                     + "".join(f"<th>{e(m.name)}</th>" for m in measures)
                     + "<th>Pareto</th></tr>")
        for r in front["records"]:
            on = r["name"] in front["front"]
            parts.append(f"<tr class='{'front' if on else ''}'>"
                         + "".join(f"<td class='l'>{e(r['config'][a])}</td>" for a in axes)
                         + "".join(f"<td>{_number(r['values'][m.name])}</td>" for m in measures)
                         + f"<td>{'yes' if on else ''}</td></tr>")
        parts.append("</table>")
    if failed:
        parts.append("<h2>Failed runs</h2><ul>" + "".join(
            f"<li>{e(r['name'])}: {e(r['error'])} (log: {e(str(r.get('log')))})</li>"
            for r in failed) + "</ul>")
    parts.append("</body></html>")
    return "\n".join(parts)


# ---- command line -------------------------------------------------------------------------

def explore(study: Study, ssdsim: str | Path, out: Path, jobs: int, resume: bool) -> Path:
    """Runs the study's points and writes out/report.html, results.json and plots/."""
    started = time.time()
    todo = points(study)
    records, done = ssdvp_results.run_points(ssdsim, out, todo, jobs, resume, figures(study))
    found = fronts(study, records)
    images = {w: workload_plots(study, w, f, out / "plots") for w, f in found.items()}
    timing = {"jobs": jobs, "reused": done["reused"], "wall_seconds": time.time() - started,
              "runs_wall_seconds": sum(done["runs"].values())}
    (out / "results.json").write_text(json.dumps(
        {"study": str(study.path), "name": study.name, "timing": timing, "records": records,
         "fronts": {w: {k: v for k, v in f.items() if k != "records"}
                    for w, f in found.items()}}, indent=1))
    report = out / "report.html"
    report.write_text(report_html(study, records, found, images, timing))
    return report


def handle(args: argparse.Namespace) -> int:
    """`ssdvp explore`: 1 with the error named on a bad study or option."""
    try:
        study = load_study(args.study)
        if args.area:
            study.area.metric, study.area.name = args.area, args.area
        if args.out is None:
            args.out = str(ROOT / "results" / "explore" / study.name)
        out = ssdvp_results.check_run_options(args, args.parser)
        check_keys(study, known_keys(args.ssdsim))
        report = explore(study, args.ssdsim, out, args.jobs, not args.fresh)
    except StudyError as error:
        print(f"ssdvp explore: {error}", file=sys.stderr)
        return 1
    print(f"wrote {report}")
    return 0


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """--jobs and --ssdsim, as explore and reproduce take them."""
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    parser.add_argument("--ssdsim", default=str(ROOT / "build" / "tb" / "ssdsim"),
                        help="the simulator (default build/tb/ssdsim)")


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Registers `explore` under `subparsers`."""
    parser = subparsers.add_parser("explore", help="run a design-space study into an HTML "
                                                   "report with Pareto fronts",
                                   description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("study", help="the study file (YAML)")
    parser.add_argument("--out", help="the study's directory (default results/explore/NAME)")
    add_run_options(parser)
    parser.add_argument("--area", help="the area metric instead of the study's, e.g. "
                                       "platform.memories.sram.size_bytes before the area model")
    parser.add_argument("--fresh", action="store_true",
                        help="run every point again (default: keep finished runs whose "
                             "scenario is unchanged)")
    parser.set_defaults(handler=handle, parser=parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return standalone(add_parser, "explore", argv)


if __name__ == "__main__":
    sys.exit(main())
