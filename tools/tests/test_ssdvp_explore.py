"""tools/ssdvp_explore.py on a small study run by the fake ssdsim, and bad study files."""

import json
import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ssdvp_explore  # noqa: E402

FAKE = str(Path(__file__).resolve().parent / "fake_ssdsim.py")
PHASES = [{"name": "fill", "streams": [{"pattern": "sequential"}]},
          {"name": "measure", "streams": [{"pattern": "random"}]}]


def study(**changes):
    tree = {"name": "tiny", "base": {"seed": 1, "host": {"oracle": False}},
            "set": {"ftl.op": 0.1},
            "axes": {"firmware.scheme": ["dftl", "sftl"],
                     "memory": [{"label": "small", "ftl.map_budget": "64KiB",
                                 "sram.size": "512KiB"},
                                {"label": "large", "ftl.map_budget": "256KiB",
                                 "sram.size": "1MiB"}]},
            "workloads": {"reads": {"phases": PHASES}, "other": {"scenario": "other.yaml"}},
            "objectives": [{"name": "miss rate", "metric": "ftl.phases.measure.map.misses",
                            "per": "ftl.phases.measure.map.lookups", "goal": "minimize"},
                           {"name": "p99 (us)", "scale": 0.001, "goal": "minimize",
                            "metric": "host.phases.measure.ops.read.latency_ns.p99"}],
            "area": "platform.area.total_mm2"}
    tree.update(changes)
    return tree


def write(directory, tree):
    (directory / "other.yaml").write_text(yaml.safe_dump({"workload": {"phases": PHASES}}))
    path = directory / "study.yaml"
    path.write_text(yaml.safe_dump(tree))
    return path


def test_study_runs_into_a_report_naming_the_front(tmp_path):
    path, out = write(tmp_path, study()), tmp_path / "out"
    args = [str(path), "--ssdsim", FAKE, "--out", str(out), "--jobs", "2"]
    assert ssdvp_explore.main(args) == 0
    report = (out / "report.html").read_text()
    # The fake's SFTL always hits, and the small memory has the least area: it alone is
    # Pareto-optimal in both workloads; DFTL with more memory trades area for misses.
    assert report.count("<b>Pareto-optimal configurations</b> (over platform.area.total_mm2, "
                        "miss rate, p99 (us)): sftl small.") == 2
    assert "data:image/png;base64," in report
    results = json.loads((out / "results.json").read_text())
    assert results["fronts"]["reads"]["front"] == ["reads-sftl-small"]
    scenario = json.loads((out / "runs" / "other-dftl-large" / "scenario.yaml").read_text())
    assert scenario["ftl"] == {"op": 0.1, "map_budget": "256KiB"}
    assert scenario["sram"] == {"size": "1MiB"} and scenario["workload"]["phases"] == PHASES
    assert len(results["records"]) == 8
    # A second invocation keeps the runs (same scenarios).
    assert ssdvp_explore.main(args) == 0
    assert json.loads((out / "results.json").read_text())["timing"]["reused"] == 8


def test_missing_area_is_reported_not_fatal(tmp_path):
    path, out = write(tmp_path, study(area="platform.area.nothing")), tmp_path / "out"
    assert ssdvp_explore.main([str(path), "--ssdsim", FAKE, "--out", str(out)]) == 0
    report = (out / "report.html").read_text()
    assert "Missing metrics" in report and "no &#x27;platform.area.nothing&#x27;" in report
    # Without area the fake's DFTL with the large memory hits as often as SFTL.
    assert "(over miss rate, p99 (us)): dftl large, sftl small, sftl large." in report


@pytest.mark.parametrize("changes, message", [
    ({"colour": "red"}, "study.yaml: unknown key 'colour'; allowed: name, description, base"),
    ({"axes": {"firmware.scheme": []}}, "study.yaml: axes.firmware.scheme: expected a "
                                        "non-empty list"),
    ({"objectives": [{"metric": "ftl.run.waf", "goal": "lowest"}]},
     "study.yaml: objectives[0].goal: 'lowest' is not allowed; allowed: minimize, maximize"),
    ({"objectives": [{"goal": "minimize"}]}, "study.yaml: objectives[0].metric: a dotted"),
    ({"workloads": {"w": {"phases": PHASES, "scenario": "other.yaml"}}},
     "study.yaml: workloads.w: give one of phases, scenario, not both"),
    ({"base": "missing.yaml"}, "study.yaml: base: cannot read"),
    ({"axes": {"ftl.scheme": ["dftl"]}},
     "study.yaml: axes.ftl.scheme: 'ftl.scheme' is not a scenario key; did you mean "
     "firmware.scheme?"),
    ({"set": {"ftl.bogus": 1}}, "study.yaml: set.ftl.bogus: 'ftl.bogus' is not a scenario key"),
])
def test_bad_study_files_are_named(tmp_path, capsys, changes, message):
    path = write(tmp_path, study(**changes))
    assert ssdvp_explore.main([str(path), "--ssdsim", FAKE, "--out", str(tmp_path / "o")]) == 1
    assert message in capsys.readouterr().err


def test_required_key_and_yaml_errors(tmp_path):
    tree = study()
    del tree["objectives"]
    with pytest.raises(ssdvp_explore.StudyError, match="'objectives' is required"):
        ssdvp_explore.load_study(write(tmp_path, tree))
    (tmp_path / "bad.yaml").write_text("axes: [\n")
    with pytest.raises(ssdvp_explore.StudyError, match="bad.yaml: not valid YAML"):
        ssdvp_explore.load_study(tmp_path / "bad.yaml")


def test_set_key_reaches_indexed_records():
    tree = {"workload": {"phases": [{"streams": [{"queue_depth": 1}]}]}}
    ssdvp_explore.set_key(tree, "workload.phases[0].streams[0].queue_depth", 8, "here")
    assert tree["workload"]["phases"][0]["streams"][0]["queue_depth"] == 8
    with pytest.raises(ssdvp_explore.StudyError, match="here: 'workload.phases\\[2\\].x': the "
                                                       "scenario has no phases\\[2\\]"):
        ssdvp_explore.set_key(tree, "workload.phases[2].x", 1, "here")
