"""tools/ssdvp_plot.py: each figure writes a non-empty PNG; bad input is named."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ssdvp_plot  # noqa: E402
import ssdvp_results  # noqa: E402
from fake_ssdsim import make_run  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"


def scenario(scheme, budget, sram):
    return {"firmware": {"scheme": scheme}, "ftl": {"map_budget": budget},
            "sram": {"size": sram},
            "workload": {"phases": [
                {"name": "fill", "streams": [{"pattern": "sequential"}]},
                {"name": "measure", "streams": [{"pattern": "random"}]}]}}


@pytest.fixture
def runs(tmp_path):
    points = [("dftl", "64KiB", "512KiB"), ("dftl", "128KiB", "1MiB"),
              ("tpftl", "64KiB", "512KiB"), ("sftl", "64KiB", "2MiB"), ("dftl", "64KiB", "2MiB")]
    return [ssdvp_results.load_run(make_run(tmp_path / f"{i}_{s}_{b}", scenario(s, b, m)))
            for i, (s, b, m) in enumerate(points)]


def assert_png(path):
    data = Path(path).read_bytes()
    assert data.startswith(PNG) and len(data) > 1000


def test_every_figure_writes_a_png(runs, tmp_path):
    written = ssdvp_plot.latency_cdf(runs, tmp_path / "cdf.png", ["read"], "measure", svg=True)
    assert [p.suffix for p in written] == [".png", ".svg"]
    assert_png(written[0])
    assert written[1].read_text().lstrip().startswith("<?xml")
    assert_png(ssdvp_plot.time_series(runs, "waf", tmp_path / "waf.png")[0])  # FTL series
    assert_png(ssdvp_plot.time_series(runs, "iops", tmp_path / "iops.png")[0])  # host series
    assert_png(ssdvp_plot.sweep_plot(runs, "ftl.run.map.hit_ratio", "config.ftl.map_budget",
                                     tmp_path / "sweep.png")[0])
    assert_png(ssdvp_plot.sweep_plot(runs, "ftl.run.map.hit_ratio", "config.firmware.scheme",
                                     tmp_path / "cat.png", group=None)[0])


def test_area_plot_marks_the_front(runs, tmp_path):
    files, front = ssdvp_plot.area_plot(
        runs, "host.phases.measure.ops.read.latency_ns.p99", tmp_path / "area.png")
    assert_png(files[0])
    # More SRAM buys more hits (the fake's formulas); DFTL and TPFTL with 512 KiB tie and both
    # stay; DFTL with 2 MiB has SFTL's area and fewer hits: dominated.
    assert [runs[i].path.name for i in front] == ["0_dftl_64KiB", "1_dftl_128KiB",
                                                   "2_tpftl_64KiB", "3_sftl_64KiB"]
    files, front = ssdvp_plot.area_plot(runs, "ftl.run.map.hit_ratio", tmp_path / "hit.png",
                                        goal="maximize")
    assert [runs[i].path.name for i in front] == ["0_dftl_64KiB", "1_dftl_128KiB",
                                                   "2_tpftl_64KiB", "3_sftl_64KiB"]


def test_metric_enters_named_lists_and_names_what_is_there(runs):
    stats = runs[0].stats
    assert ssdvp_plot.metric(stats, "host.phases.measure.ops.read.latency_ns.p99") > 0
    with pytest.raises(KeyError, match="no 'host.phases.warmup.iops'; keys at host.phases: "
                                       "fill, measure"):
        ssdvp_plot.metric(stats, "host.phases.warmup.iops")
    assert ssdvp_plot.as_number("64KiB") == 65536 and ssdvp_plot.as_number("dftl") is None


def test_command_line(runs, tmp_path, capsys):
    out = tmp_path / "c.png"
    assert ssdvp_plot.main(["cdf", str(runs[0].path), str(runs[1].path), "-o", str(out)]) == 0
    assert_png(out)
    assert ssdvp_plot.main(["cdf", str(runs[0].path), "--op", "write", "-o", str(out)]) == 1
    assert "no latencies of op 'write'; there are: fill/read, measure/read" in \
        capsys.readouterr().err
    assert ssdvp_plot.main(["area", str(runs[0].path), "--metric", "ftl.run.nothing",
                            "-o", str(out)]) == 1
    assert "stats.json: no 'ftl.run.nothing'" in capsys.readouterr().err
