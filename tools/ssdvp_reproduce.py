#!/usr/bin/python3
"""`ssdvp reproduce PAPER [--jobs N] [--quick] [--resume]`: runs a paper's experiment set and
writes results/reproduce/PAPER/summary.json, its figures (PNG) and report.md: each claim of the
paper beside our figure, the ratio ours / paper, and whether direction and magnitude agree.
`ssdvp reproduce all` builds results/reproduce/report.md (and summary.json) across the papers
from the results there are (results/reproduce/PAPER/, else the committed docs/reproduce/PAPER/),
running nothing. `--list` prints what PAPER would run.

A paper module (tools/reproduce_<paper>.py, PAPERS below) gives:

    TITLE                       the paper
    points(quick) -> [point]    its runs: {"name", "scenario" (a dict), ...}
    figures(run, point) -> {}   a finished run's figures (ssdvp_results.run_points)
    claims(records) -> [claim]  {"claim", "paper", "ours", "kind", "tolerance" (optional)}
    plot(records, out) -> [file names of the figures written]
    scale(quick) -> {}          every scale factor, for the report

The five older scripts keep their own command lines (LEGACY): `reproduce` runs one through its
main() and reads the claims of the summary.json it writes, whose figures are text ("1.5x",
"89.2 %", "7.5-37.7x": parse_figure).

Agreement (agreement()): ratio = ours / paper. A claim's kind says what its direction is: a
"ratio" (A / B: which side of 1), a "change" (a reduction or gain: which side of 0) or a
"value" (a share or a count: no direction). Magnitude agrees when the ratio is within 2x
(1/2..2), or, for a claim with a "tolerance" (figures the paper gives as about zero), when
ours is within that absolute distance of the paper's. A claim agrees when its magnitude does
and its direction does not disagree.
"""

import argparse
import importlib
import json
import math
import re
import sys
import time
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ssdvp_results  # noqa: E402
from ssdvp_explore import add_run_options  # noqa: E402
from ssdvp_plot import standalone  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results" / "reproduce"
COMMITTED = ROOT / "docs" / "reproduce"
# name -> the module under tools/ with the common interface
PAPERS = {"learnedftl_motivation": "reproduce_learnedftl_motivation"}
# name -> (the script's module, what its command line takes beyond --ssdsim --out --jobs)
LEGACY = {"learnedftl": ("reproduce_learnedftl", {"quick", "resume"}),
          "leaftl": ("reproduce_leaftl", {"quick", "resume"}),
          "rqftl": ("reproduce_rqftl", {"quick", "resume"}),
          "rl-fsp": ("reproduce_rl_fsp", {"quick", "resume"}),
          "2r": ("reproduce_2r", set())}
KINDS = ("ratio", "change", "value")
PIVOT = {"ratio": 1.0, "change": 0.0}  # what a claim's direction is taken against
MAGNITUDE = 2.0  # agreement within 2x
_FIGURE = re.compile(r"^\s*(?:up to |about |~)?(-?[0-9][0-9,]*(?:\.[0-9]+)?)"
                     r"(?:\s*-\s*(-?[0-9][0-9,]*(?:\.[0-9]+)?))?\s*(x|%)?")
_CHANGE_WORDS = re.compile(r"\b(lower|lowers|reduc\w*|fewer|less|faster|higher|raises|"
                           r"gain\w*|improv\w*|saves?)\b", re.IGNORECASE)


# ---- agreement ------------------------------------------------------------------------------

def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def agreement(paper: float | None, ours: float | None, kind: str,
              tolerance: float | None = None) -> dict[str, Any]:
    """{"ratio", "direction", "magnitude", "agrees"}: ratio ours / paper; direction and
    magnitude True, False or None (not measurable); agrees likewise (module docstring)."""
    if kind not in KINDS:
        raise ValueError(f"claim kind '{kind}' is not allowed; allowed: {', '.join(KINDS)}")
    if paper is None or ours is None:
        return {"ratio": None, "direction": None, "magnitude": None, "agrees": None}
    ratio = ours / paper if paper else None
    pivot = PIVOT.get(kind)
    direction = None if pivot is None else _sign(ours - pivot) == _sign(paper - pivot)
    if tolerance is not None:
        magnitude = abs(ours - paper) <= tolerance
    else:
        magnitude = None if ratio is None else 1 / MAGNITUDE <= ratio <= MAGNITUDE
    agrees = None if magnitude is None else magnitude and direction is not False
    return {"ratio": ratio, "direction": direction, "magnitude": magnitude, "agrees": agrees}


def judged(claim: dict[str, Any]) -> dict[str, Any]:
    """The claim with its agreement()."""
    return {**claim, **agreement(claim["paper"], claim["ours"], claim["kind"],
                                 claim.get("tolerance"))}


def parse_figure(text: Any, claim: str) -> tuple[float | None, str]:
    """A figure of an older script's claim as (value, kind): "1.5x" a ratio, "40.4 %" 0.404 (a
    change when the claim's words say lower, fewer, faster, ...; else a value), a range
    "7.5-37.7x" its geometric mean (arithmetic when a bound is not positive), a number as it
    is; (None, "value") for text without a figure ("n/a", "comparable")."""
    change = "change" if _CHANGE_WORDS.search(claim) else "value"
    if isinstance(text, bool) or text is None:
        return None, "value"
    if isinstance(text, (int, float)):
        return float(text), change
    match = _FIGURE.match(str(text))
    if match is None:
        return None, "value"
    low = float(match.group(1).replace(",", ""))
    high = float(match.group(2).replace(",", "")) if match.group(2) else low
    value = math.sqrt(low * high) if low > 0 and high > 0 else (low + high) / 2
    unit = match.group(3)
    if unit == "x":
        return value, "ratio"
    return (value / 100, change) if unit == "%" else (value, change)


def legacy_claims(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """An older script's summary.json claims in the common form: rows (claim, ours), (claim,
    paper, ours[, verdict]) or {"claim", "paper", "ours"}."""
    found = []
    for row in summary.get("claims", []):
        if isinstance(row, dict):
            claim, paper_text, ours_text = row.get("claim", "?"), row.get("paper"), row.get("ours")
        elif len(row) == 2:
            (claim, ours_text), paper_text = row, None
        else:
            claim, paper_text, ours_text = row[:3]
        paper, kind = parse_figure(paper_text, str(claim))
        ours, ours_kind = parse_figure(ours_text, str(claim))
        found.append({"claim": str(claim), "paper": paper, "ours": ours,
                      "kind": kind if paper is not None else ours_kind,
                      "paper_text": _text(paper_text), "ours_text": _text(ours_text)})
    return found


def _text(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


# ---- reports --------------------------------------------------------------------------------

def _verdict(value: bool | None) -> str:
    return "n/a" if value is None else ("yes" if value else "no")


def claims_table(claims: Sequence[dict[str, Any]]) -> list[str]:
    """Markdown rows: claim, paper, ours, ratio, direction, within 2x, agrees."""
    lines = ["| claim | paper | ours | ours / paper | direction | within 2x | agrees |",
             "|---|---|---|---|---|---|---|"]
    for c in claims:
        ratio = "n/a" if c["ratio"] is None else f"{c['ratio']:.2f}"
        direction = "-" if c["kind"] == "value" else _verdict(c["direction"])
        lines.append(f"| {c['claim']} | {c.get('paper_text') or _text(c['paper'])} | "
                     f"{c.get('ours_text') or _text(c['ours'])} | {ratio} | {direction} | "
                     f"{_verdict(c['magnitude'])} | **{_verdict(c['agrees'])}** |")
    return lines


def tally(claims: Sequence[dict[str, Any]]) -> str:
    agree = sum(1 for c in claims if c["agrees"])
    judged_ = sum(1 for c in claims if c["agrees"] is not None)
    return f"{agree} of {judged_} claims with figures agree ({len(claims) - judged_} n/a)"


AGREEMENT_TEXT = ("Ratio: ours / the paper's. Direction: which side of 1 (a ratio) or of 0 (a "
                  "change) both are; \"-\" for a value. Within 2x: the ratio in 1/2..2, or, for "
                  "figures the paper gives as about zero, within the claim's absolute "
                  "tolerance. Agrees: within 2x and the direction not opposite.")


def paper_report(name: str, title: str, claims: Sequence[dict[str, Any]],
                 figures: Sequence[str], scale: dict[str, Any] | None, timing: str) -> str:
    lines = [f"# Reproduction: {title}", "", f"`ssdvp reproduce {name}`. {timing}", "",
             f"{tally(claims)}. {AGREEMENT_TEXT}", ""]
    lines += claims_table(claims)
    if scale:
        lines += ["", "## Scale", "", "```json", json.dumps(scale, indent=1), "```"]
    if figures:
        lines += ["", "## Figures", ""] + [f"![{f}]({f})" for f in figures]
    return "\n".join(lines) + "\n"


def run_native(name: str, ssdsim: str, out: Path, jobs: int, quick: bool,
               resume: bool) -> Path:
    """Runs a paper module's points and writes summary.json, its figures and report.md."""
    module = importlib.import_module(PAPERS[name])
    started = time.time()
    records, done = ssdvp_results.run_points(ssdsim, out, module.points(quick), jobs, resume,
                                             module.figures)
    claims = [judged(c) for c in module.claims(records)]
    figures = module.plot(records, out)
    summary = {"paper": name, "title": module.TITLE, "quick": quick, "scale": module.scale(quick),
               "jobs": jobs, "wall_seconds": round(time.time() - started, 1),
               "runs_wall_seconds": round(sum(done["runs"].values()), 1),
               "runs": len(records), "reused_runs": done["reused"], "results": records,
               "claims": claims, "figures": figures}
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    timing = ssdvp_results.wall_line(summary)
    if quick:
        timing += " **--quick: a smoke run; its figures say little about the paper.**"
    failed = [r for r in records if r.get("failed")]
    report = paper_report(name, module.TITLE, claims, figures, summary["scale"], timing)
    if failed:
        report += "\n## Failed runs\n\n" + "".join(
            f"- {r['name']}: {r['error']} (log: {r.get('log')})\n" for r in failed)
    (out / "report.md").write_text(report)
    return out / "report.md"


def run_legacy(name: str, ssdsim: str, out: Path, jobs: int, quick: bool,
               resume: bool) -> Path:
    """Runs an older script through its main(), then adds the judged claims to its
    summary.json ("agreement") and writes report.md."""
    module_name, takes = LEGACY[name]
    argv = ["--ssdsim", ssdsim, "--out", str(out), "--jobs", str(jobs)]
    for flag, wanted in (("quick", quick), ("resume", resume)):
        if wanted and flag not in takes:
            raise ValueError(f"reproduce {name}: tools/{module_name}.py has no --{flag}")
        argv += [f"--{flag}"] if wanted else []
    status = importlib.import_module(module_name).main(argv)
    if status:
        raise RuntimeError(f"tools/{module_name}.py failed with status {status}")
    return legacy_report(name, out, out)


def legacy_report(name: str, source: Path, out: Path) -> Path:
    """report.md (and summary.json "agreement") in `out` from the older script's summary.json
    in `source`."""
    path = source / "summary.json"
    summary = json.loads(path.read_text())
    claims = [judged(c) for c in legacy_claims(summary)]
    figures = sorted(p.name for p in source.glob("*.png"))
    if source == out:
        summary["agreement"] = claims
        path.write_text(json.dumps(summary, indent=1))
    title = summary.get("paper") or name
    timing = ssdvp_results.wall_line(summary) if "runs_wall_seconds" in summary else ""
    (out / "report.md").write_text(paper_report(name, title, claims, figures, None, timing))
    return out / "report.md"


def paper_claims(name: str, directories: Sequence[Path]) -> tuple[Path | None, Any]:
    """The judged claims of a paper's summary.json in the first directory holding one:
    (the directory, the claims), or (None, None)."""
    for directory in directories:
        path = directory / "summary.json"
        if path.exists():
            summary = json.loads(path.read_text())
            if name in PAPERS:
                return directory, [judged(c) for c in summary.get("claims", [])]
            return directory, [judged(c) for c in legacy_claims(summary)]
    return None, None


def report_all(sources: Sequence[Path], out: Path) -> Path:
    """One report across every paper from the first of `sources` that holds its results."""
    names = [*LEGACY, *PAPERS]
    overview, sections, found = [], [], {}
    for name in names:
        directory, claims = paper_claims(name, [s / name for s in sources])
        found[name] = {"source": None if directory is None else str(directory),
                       "claims": claims}
        if claims is None:
            overview.append(f"| {name} | not run (no summary.json in "
                            f"{', '.join(str(s / name) for s in sources)}) | |")
            continue
        overview.append(f"| {name} | {tally(claims)} | {directory} |")
        sections += [f"## {name}", "", f"From `{directory}/summary.json`. {tally(claims)}.",
                     "", *claims_table(claims), ""]
    lines = ["# Reproductions: every paper's claims beside ours", "", AGREEMENT_TEXT, "",
             "| paper | claims | results |", "|---|---|---|", *overview, "", *sections]
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(found, indent=1))
    (out / "report.md").write_text("\n".join(lines))
    return out / "report.md"


# ---- command line -------------------------------------------------------------------------

def handle(args: argparse.Namespace) -> int:
    """`ssdvp reproduce`: 1 with the error on a failure."""
    parser = args.parser
    try:
        if args.paper == "all":
            report = report_all([Path(args.out) if args.out else RESULTS, COMMITTED],
                                Path(args.out) if args.out else RESULTS)
            print(f"wrote {report}")
            return 0
        if args.list:
            if args.paper in LEGACY:
                print(f"{args.paper}: tools/{LEGACY[args.paper][0]}.py runs its own set "
                      f"(its --help lists it)")
            else:
                module = importlib.import_module(PAPERS[args.paper])
                print("\n".join(p["name"] for p in module.points(args.quick)))
            return 0
        if args.out is None:
            args.out = str(RESULTS / args.paper)
        out = ssdvp_results.check_run_options(args, parser)
        run = run_native if args.paper in PAPERS else run_legacy
        report = run(args.paper, args.ssdsim, out, args.jobs, args.quick, args.resume)
    except (OSError, ValueError, KeyError, RuntimeError) as error:
        print(f"ssdvp reproduce: {error}", file=sys.stderr)
        return 1
    print(f"wrote {report}")
    return 0


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Registers `reproduce` under `subparsers`."""
    parser = subparsers.add_parser("reproduce", help="run a paper's experiment set and compare "
                                                     "its claims with ours",
                                   description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paper", choices=[*PAPERS, *LEGACY, "all"],
                        help="the paper, or all: one report from the results there are")
    parser.add_argument("--out", help="the directory (default results/reproduce/PAPER; for "
                                      "all, results/reproduce)")
    add_run_options(parser)
    parser.add_argument("--quick", action="store_true", help="a smoke run (seconds)")
    parser.add_argument("--resume", action="store_true",
                        help="keep finished runs whose scenario is unchanged")
    parser.add_argument("--list", action="store_true", help="print the runs, run nothing")
    parser.set_defaults(handler=handle, parser=parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return standalone(add_parser, "reproduce", argv)


if __name__ == "__main__":
    sys.exit(main())
