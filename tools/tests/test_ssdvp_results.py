"""Tests of tools/ssdvp_results.py on small synthetic run directories."""

import contextlib
import io
import json
import re
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import reproduce_2r as r2  # noqa: E402  (needs the sys.path entry above)
import reproduce_leaftl as leaftl  # noqa: E402
import reproduce_learnedftl as learnedftl  # noqa: E402
import reproduce_rl_fsp as rl_fsp  # noqa: E402
import reproduce_rqftl as rqftl  # noqa: E402
import ssdvp_results as results  # noqa: E402

LATENCY = """phase,op,lower_ns,upper_ns,count
fill,write,1000,1100,7
"a,b",read,1100,1200.5,3
"""
TIMESERIES = """phase,start_ns,end_ns,iops,read_latency_mean_us
fill,0,1000,5.5,null
fill,1000,2000,6,1.25
read,2000,3000,,2
"""
FTL_TIMESERIES = """phase,time_ns,host_write_pages,map.hits,map.hit_ratio
fill,0,0,,
fill,500,10,2,1.5
read,2500,10,4,2
"""


def ftl_metrics(host_read_pages, waf):
    return {"host_read_pages": host_read_pages, "waf": waf,
            "map": {"lookups": 5, "hits": 2, "hit_ratio": 0.4},
            "gc": {"invocations": 3},
            "erase_hist": {"bucket_width": 4, "counts": [1, 0, 2]}}


def make_stats(waf=1.5, sram_size=65536):
    return {
        "scenario": {"name": "t", "sweep_label": f"sram={sram_size}"},
        "config": {"cpu": {"harts": 2}, "sram": {"size": sram_size}},
        "outcome": {"outcome": "workload_done", "exit_code": 0, "message": ""},
        "simulator": {"wall_seconds": 1.0},
        "host": {"phases": [{"name": "fill", "ops": {}}, {"name": "read", "ops": {}}]},
        "ftl": {
            "phases": [dict(name="fill", finished=True, **ftl_metrics(0, waf)),
                       dict(name="read", finished=False, **ftl_metrics(10, None))],
            "run": ftl_metrics(10, waf),
            "memory": {"sram": {"budget_bytes": 100, "used_bytes": 50}},
        },
    }


def make_run(directory, stats=None, latency=LATENCY, timeseries=TIMESERIES,
             ftl_timeseries=FTL_TIMESERIES):
    """Writes a run directory; a file given as None is left out."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    files = {"stats.json": json.dumps(make_stats() if stats is None else stats),
             "latency.csv": latency, "timeseries.csv": timeseries,
             "ftl_timeseries.csv": ftl_timeseries}
    for name, text in files.items():
        if text is not None:
            (directory / name).write_text(text)
    return directory


class ResultsTest(unittest.TestCase):
    def setUp(self):
        temporary = tempfile.TemporaryDirectory()
        self.addCleanup(temporary.cleanup)
        self.root = Path(temporary.name)

    def raises(self, kind, text):
        """Expects an exception of kind whose message contains text."""
        return self.assertRaisesRegex(kind, re.escape(text))

    def test_numbers_are_int_or_float_and_text_columns_stay_text(self):
        run = results.load_run(make_run(self.root))
        self.assertEqual(run.latency, [
            {"phase": "fill", "op": "write", "lower_ns": 1000, "upper_ns": 1100, "count": 7},
            {"phase": "a,b", "op": "read", "lower_ns": 1100, "upper_ns": 1200.5, "count": 3}])
        self.assertIs(type(run.latency[0]["count"]), int)
        self.assertIs(type(run.latency[1]["upper_ns"]), float)
        self.assertIs(type(run.ftl_timeseries[1]["map.hit_ratio"]), float)

    def test_empty_and_null_cells_are_none(self):
        run = results.load_run(make_run(self.root))
        self.assertIsNone(run.timeseries[0]["read_latency_mean_us"])  # "null"
        self.assertIsNone(run.timeseries[2]["iops"])  # empty
        self.assertEqual(run.ftl_timeseries[0],
                         {"phase": "fill", "time_ns": 0, "host_write_pages": 0,
                          "map.hits": None, "map.hit_ratio": None})

    def test_missing_stats_names_the_file(self):
        directory = make_run(self.root)
        (directory / "stats.json").unlink()
        with self.raises(FileNotFoundError, str(directory / "stats.json")):
            results.load_run(directory)

    def test_missing_csv_names_the_file(self):
        directory = make_run(self.root, timeseries=None)
        with self.raises(FileNotFoundError, str(directory / "timeseries.csv")):
            results.load_run(directory)

    def test_malformed_json_names_the_file_and_line(self):
        directory = make_run(self.root)
        (directory / "stats.json").write_text('{\n"config": {,\n}')
        with self.raises(ValueError, f"{directory / 'stats.json'}:2: malformed JSON"):
            results.load_run(directory)

    def test_csv_line_with_wrong_field_count_names_file_and_line(self):
        directory = make_run(self.root, timeseries=TIMESERIES + "read,3000,4000\n")
        with self.raises(ValueError, f"{directory / 'timeseries.csv'}:5: expected 5 fields, "
                                     "found 3"):
            results.load_run(directory)

    def test_csv_cell_that_is_no_number_names_file_line_and_column(self):
        directory = make_run(self.root, ftl_timeseries=FTL_TIMESERIES.replace(",2\n", ",x\n"))
        with self.raises(ValueError, f"{directory / 'ftl_timeseries.csv'}:4: column "
                                     "'map.hit_ratio': 'x' is not a number"):
            results.load_run(directory)

    def test_csv_with_wrong_header_names_the_file(self):
        directory = make_run(self.root, ftl_timeseries="phase,host_write_pages\nfill,1\n")
        with self.raises(ValueError, f"{directory / 'ftl_timeseries.csv'}:1: the header must "
                                     "start with phase,time_ns"):
            results.load_run(directory)

    def test_absent_ftl_timeseries_is_empty_and_series_says_so(self):
        run = results.load_run(make_run(self.root, ftl_timeseries=None))
        self.assertEqual(run.ftl_timeseries, [])
        with self.raises(FileNotFoundError, "ftl_timeseries.csv: absent"):
            run.series("map.hits")

    def test_config_outcome_and_phase_names(self):
        stats = make_stats()
        stats["ftl"]["phases"].append(dict(name="trim", finished=False, **ftl_metrics(0, None)))
        run = results.load_run(make_run(self.root, stats=stats))
        self.assertEqual(run.config_value("cpu.harts"), 2)
        self.assertEqual(run.outcome["outcome"], "workload_done")
        self.assertEqual(run.phase_names(), ["fill", "read", "trim"])

    def test_metric_in_run_phase_and_histogram(self):
        run = results.load_run(make_run(self.root))
        self.assertEqual(run.metric("map.hit_ratio"), 0.4)
        self.assertEqual(run.metric("host_read_pages"), 10)
        self.assertEqual(run.metric("host_read_pages", phase="fill"), 0)
        self.assertIsNone(run.metric("waf", phase="read"))
        self.assertEqual(run.metric("erase_hist.counts"), [1, 0, 2])
        self.assertIs(run.ftl_phase("read")["finished"], False)

    def test_metric_path_error_names_the_path_and_available_keys(self):
        run = results.load_run(make_run(self.root))
        with self.raises(KeyError, "FTL phase 'fill': no 'map.hit_rate'; keys at map: "
                                   "hit_ratio, hits, lookups"):
            run.metric("map.hit_rate", phase="fill")
        with self.raises(KeyError, "waf is a value, not a group"):
            run.metric("waf.interval")

    def test_missing_phase_names_the_phases_present(self):
        run = results.load_run(make_run(self.root))
        with self.raises(KeyError, "no FTL phase 'write'; phases: fill, read"):
            run.ftl_phase("write")

    def test_ftl_error_is_reported(self):
        stats = make_stats()
        stats["ftl"] = {"error": "bad fw_stats magic at 0x80001000"}
        run = results.load_run(make_run(self.root, stats=stats))
        with self.raises(ValueError, "no FTL metrics: bad fw_stats magic at 0x80001000"):
            run.metric("waf")
        self.assertEqual(results.table([run], ["ftl.run.waf"]), [{"ftl.run.waf": None}])

    def test_series_of_one_phase_and_of_all(self):
        run = results.load_run(make_run(self.root))
        self.assertEqual(run.series("map.hits", phase="fill"), [(0, None), (500, 2)])
        self.assertEqual(run.series("map.hit_ratio"), [(0, None), (500, 1.5), (2500, 2)])
        with self.raises(KeyError, "no column 'map.miss'; columns: phase, time_ns, "
                                   "host_write_pages, map.hits, map.hit_ratio"):
            run.series("map.miss")
        with self.raises(KeyError, "no phase 'fil'; phases: fill, read"):
            run.series("map.hits", phase="fil")

    def test_host_series_uses_start_ns_or_fails_without_a_time_column(self):
        run = results.load_run(make_run(self.root))
        self.assertEqual(run.host_series("iops", phase="fill"), [(0, 5.5), (1000, 6)])
        untimed = results.load_run(make_run(self.root / "untimed",
                                            timeseries="phase,iops\nfill,1\n"))
        with self.raises(ValueError, "no time_ns or start_ns column; columns: phase, iops"):
            untimed.host_series("iops")

    def test_sweep_is_ordered_by_numeric_index(self):
        for name in ("10_x", "2_y", "0_z"):
            make_run(self.root / name)
        (self.root / "plots").mkdir()  # not a sweep point
        runs = results.load_sweep(self.root)
        self.assertEqual([run.path.name for run in runs], ["0_z", "2_y", "10_x"])

    def test_sweep_of_a_run_directory_is_that_run(self):
        directory = make_run(self.root / "single")
        self.assertEqual([run.path for run in results.load_sweep(directory)], [directory])

    def test_table_has_one_row_per_run_and_none_for_missing(self):
        make_run(self.root / "0_small", stats=make_stats(waf=1.25, sram_size=1024))
        make_run(self.root / "1_big", stats=make_stats(waf=2.5, sram_size=4096))
        rows = results.table(results.load_sweep(self.root),
                             ["scenario.sweep_label", "config.sram.size", "ftl.run.waf",
                              "config.sram.ways"])
        self.assertEqual(rows, [
            {"scenario.sweep_label": "sram=1024", "config.sram.size": 1024,
             "ftl.run.waf": 1.25, "config.sram.ways": None},
            {"scenario.sweep_label": "sram=4096", "config.sram.size": 4096,
             "ftl.run.waf": 2.5, "config.sram.ways": None}])

    def test_flatten_makes_dotted_keys_and_keeps_lists(self):
        self.assertEqual(results.flatten({"a": 1, "b": {"c": None, "d": {"e": [1, 2]}}, "f": {}}),
                         {"a": 1, "b.c": None, "b.d.e": [1, 2]})
        self.assertEqual(results.flatten({"hits": 2}, "map"), {"map.hits": 2})

    def test_dotted_keys_resolve_to_the_longest_match(self):
        stats = make_stats()
        stats["ftl"]["run"]["series"] = {"map.hit_ratio": [1.0, 1.5]}
        run = results.load_run(make_run(self.root, stats=stats))
        self.assertEqual(run.metric("series.map.hit_ratio"), [1.0, 1.5])

    def test_command_line_prints_phase_columns(self):
        directory = make_run(self.root)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = results.main([str(directory), "--metric", "map", "--metric", "waf"])
        self.assertEqual(code, 0)
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[0], f"{directory}: workload_done (exit code 0)")
        self.assertEqual(lines[1].split(), ["metric", "fill", "read", "(whole", "run)"])
        self.assertEqual(lines[3].split(), ["map.hits", "2", "2", "2"])
        self.assertEqual(lines[-1].split(), ["waf", "1.5", "-", "1.5"])

    def test_command_line_reports_an_unknown_metric(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = results.main([str(make_run(self.root)), "--metric", "gc.moved"])
        self.assertEqual(code, 1)
        self.assertIn("keys at gc: invocations", err.getvalue())


class WallLineTest(unittest.TestCase):
    def test_wall_time_says_when_runs_were_kept(self):
        summary = {"runs_wall_seconds": 600, "wall_seconds": 2, "jobs": 2, "runs": 10,
                   "reused_runs": 9}
        self.assertEqual(results.wall_line(summary),
                         "Wall time: the runs took 600 s between them on 2 jobs; 9 of 10 runs "
                         "were kept from an earlier invocation (--resume) and their time is from "
                         "then: this invocation took 2 s.")
        del summary["reused_runs"]
        self.assertEqual(results.wall_line(summary),
                         "Wall time: the runs took 600 s between them on 2 jobs; this invocation "
                         "took 2 s.")


class BadOptionsTest(unittest.TestCase):
    """The reproductions refuse a bad option before their first run, naming the option, the
    value and what is allowed (it crashed, failed every run, or ran nothing and overwrote the
    summary)."""

    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory()
        self.root = Path(self.scratch.name)
        self.ssdsim = self.root / "ssdsim"
        self.ssdsim.write_text("#!/bin/sh\nexit 0\n")
        self.ssdsim.chmod(0o755)
        (self.root / "file").write_text("")

    def tearDown(self):
        self.scratch.cleanup()

    def refusal(self, module, *options):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as stop:
            module.main(["--ssdsim", str(self.ssdsim), "--out", str(self.root / "out"), *options])
        self.assertEqual(stop.exception.code, 2)
        self.assertFalse((self.root / "out" / "summary.json").exists())
        return err.getvalue()

    def test_every_reproduction_checks_the_shared_options(self):
        for module in (r2, leaftl, learnedftl, rl_fsp, rqftl):
            with self.subTest(module.__name__):
                self.assertIn("--jobs: 0 is not allowed; at least 1",
                              self.refusal(module, "--jobs", "0"))
                self.assertIn(f"--ssdsim: '{self.root}/none' is not an executable file",
                              self.refusal(module, "--ssdsim", str(self.root / "none")))
                self.assertIn(f"--out: cannot make the directory '{self.root}/file/out': Not a "
                              "directory", self.refusal(module, "--out", str(self.root / "file" /
                                                                                "out")))

    def test_lists_ranges_and_files_of_one_reproduction(self):
        self.assertIn("no profile given; allowed: leaftl_hm, leaftl_prn",
                      self.refusal(leaftl, "--profiles", ","))
        self.assertIn("unknown experiment 'skwe'; allowed: skew, oltp, op, depth, merge",
                      self.refusal(r2, "--experiments", "skew,skwe"))
        self.assertIn("--scale: -1.0 is not allowed; more than 0",
                      self.refusal(r2, "--experiments", "skew", "--scale", "-1"))
        self.assertIn("--scale: 0.5 is not allowed with the OLTP experiments (op); at least 1",
                      self.refusal(r2, "--experiments", "op", "--scale", "0.5"))
        self.assertIn("--caches: at least 1 MiB each, not '0,8'",
                      self.refusal(rl_fsp, "--caches", "0,8"))
        self.assertIn(f"--firmware: '{self.root}/none.elf' is not a file",
                      self.refusal(rqftl, "--firmware", str(self.root / "none.elf")))


if __name__ == "__main__":
    unittest.main()
