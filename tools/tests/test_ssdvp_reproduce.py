"""tools/ssdvp_reproduce.py: the agreement logic on hand-made numbers, the older scripts'
claims, the report across papers, and a --quick run of a paper module on the fake ssdsim."""

import json
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ssdvp_reproduce as rep  # noqa: E402

FAKE = str(Path(__file__).resolve().parent / "fake_ssdsim.py")


@pytest.mark.parametrize("paper, ours, kind, tolerance, expected", [
    # A ratio's direction is its side of 1.
    (1.5, 2.45, "ratio", None, (2.45 / 1.5, True, True, True)),
    (1.5, 0.8, "ratio", None, (0.8 / 1.5, False, True, False)),  # within 2x, wrong side
    (1.4, 3.0, "ratio", None, (3.0 / 1.4, True, False, False)),  # right side, beyond 2x
    (0.5, 0.25, "ratio", None, (0.5, True, True, True)),  # exactly 2x agrees
    # A change's direction is its sign.
    (0.404, 0.234, "change", None, (0.234 / 0.404, True, True, True)),
    (0.40, -0.10, "change", None, (-0.25, False, False, False)),
    # A value has no direction.
    (0.93, 0.40, "value", None, (0.40 / 0.93, None, False, False)),
    (0.93, 0.974, "value", None, (0.974 / 0.93, None, True, True)),
    # About zero: an absolute tolerance instead of the ratio.
    (0.001, 0.008, "value", 0.01, (8.0, None, True, True)),
    (0.0, 0.05, "value", 0.01, (None, None, False, False)),
    (0.0, 0.05, "value", None, (None, None, None, None)),
    (None, 0.05, "ratio", None, (None, None, None, None)),
])
def test_agreement(paper, ours, kind, tolerance, expected):
    found = rep.agreement(paper, ours, kind, tolerance)
    ratio, direction, magnitude, agrees = expected
    assert (found["ratio"] is None) == (ratio is None)
    if ratio is not None:
        assert found["ratio"] == pytest.approx(ratio)
    assert (found["direction"], found["magnitude"], found["agrees"]) == \
        (direction, magnitude, agrees)


def test_bad_kind_is_named():
    with pytest.raises(ValueError, match="claim kind 'bigger' is not allowed; allowed: ratio"):
        rep.agreement(1, 2, "bigger")


@pytest.mark.parametrize("text, claim, expected", [
    ("1.5x", "Random reads: IOPS, LearnedFTL / DFTL", (1.5, "ratio")),
    ("89.2 %", "Random reads: IOPS, LearnedFTL / ideal", (0.892, "value")),
    ("40.4 %", "RL lowers mean read latency against Baseline", (0.404, "change")),
    ("7.5-37.7x", "Mapping table, DFTL's / LeaFTL's", (math.sqrt(7.5 * 37.7), "ratio")),
    ("up to 90 %", "Sequential reads: hit ratio", (0.9, "value")),
    ("4,188 / 4335", "GC count", (4188.0, "value")),
    (0.92, "read miss rate lower than DFTL", (0.92, "change")),
    ("n/a", "anything", (None, "value")),
    ("comparable", "anything", (None, "value")),
])
def test_parse_figure(text, claim, expected):
    value, kind = rep.parse_figure(text, claim)
    assert kind == expected[1]
    assert value == (None if expected[0] is None else pytest.approx(expected[0]))


def test_legacy_claims_of_every_shape():
    summary = {"claims": [["A / B", "1.5x", "2.0x", "direction"], ["C lowers D", "40 %", "30 %"],
                          ["only ours", "2.0x"],
                          {"claim": "miss rate lower than DFTL", "paper": 0.65, "ours": 0.92}]}
    claims = [rep.judged(c) for c in rep.legacy_claims(summary)]
    assert [c["agrees"] for c in claims] == [True, True, None, True]
    assert claims[0]["paper_text"] == "1.5x" and claims[2]["paper"] is None


def test_report_across_papers(tmp_path):
    results, committed = tmp_path / "results", tmp_path / "docs"
    (results / "learnedftl").mkdir(parents=True)
    (results / "learnedftl" / "summary.json").write_text(json.dumps(
        {"claims": [["A / B", "1.5x", "1.6x", "yes"], ["C / D", "1.5x", "4x", "no"]]}))
    (committed / "leaftl").mkdir(parents=True)
    (committed / "leaftl" / "summary.json").write_text(json.dumps(
        {"claims": [["E / F", "2x", "n/a"]]}))
    (results / "learnedftl_motivation").mkdir()
    (results / "learnedftl_motivation" / "summary.json").write_text(json.dumps(
        {"claims": [{"claim": "hit ratio", "paper": 0.93, "ours": 0.97, "kind": "value"}]}))
    report = rep.report_all([results, committed], results).read_text()
    assert f"| learnedftl | 1 of 2 claims with figures agree (0 n/a) | {results}/learnedftl |" \
        in report
    assert f"| leaftl | 0 of 0 claims with figures agree (1 n/a) | {committed}/leaftl |" in report
    assert "| 2r | not run" in report
    assert "| hit ratio | 0.93 | 0.97 | 1.04 | - | yes | **yes** |" in report


def test_quick_paper_run_on_the_fake(tmp_path):
    out = tmp_path / "motivation"
    assert rep.main(["learnedftl_motivation", "--quick", "--ssdsim", FAKE, "--out", str(out),
                     "--jobs", "2"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["runs"] == 6 and not any(r.get("failed") for r in summary["results"])
    # The fake's ideal FTL always hits and TPFTL's sequential reads hit 95 %.
    seq = next(c for c in summary["claims"] if c["claim"].startswith("Sequential reads: TPFTL"))
    assert seq["ours"] == pytest.approx(0.95) and seq["agrees"] is True
    report = (out / "report.md").read_text()
    assert "| claim | paper | ours | ours / paper | direction | within 2x | agrees |" in report
    assert "**--quick" in report
    for name in summary["figures"]:
        assert (out / name).stat().st_size > 1000


def test_list_runs_nothing(tmp_path, capsys):
    assert rep.main(["learnedftl_motivation", "--list"]) == 0
    assert capsys.readouterr().out.split() == ["dftl", "tpftl", "ideal", "tpftl_cmt2",
                                               "tpftl_cmt10", "tpftl_cmt50"]
