"""Tests of tools/ssdvp: sweep expansion and naming (ssdvp_sweep), the runner (ssdvp_runner:
resumption, failure isolation, Dask), `ssdvp run` and `ssdvp collect`.

Run with Debian's interpreter: /usr/bin/python3 -m pytest -q tools/tests
"""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TOOLS))

import ssdvp_collect  # noqa: E402  (needs the sys.path entry above)
import ssdvp_runner  # noqa: E402
import ssdvp_sweep  # noqa: E402
from ssdvp_sweep import ScenarioInputError, expand  # noqa: E402

SSDVP = TOOLS / "ssdvp"
SSDSIM = TOOLS.parent / "build" / "tb" / "ssdsim"
needs_ssdsim = pytest.mark.skipif(not SSDSIM.is_file(),
                                  reason=f"{SSDSIM} does not exist (make build builds it)")

KINDS = {"seed": "count", "sram.size": "size", "ftl.op": "real", "cpu.clock": "frequency",
         "cpu.quantum": "time", "firmware.elf": "string", "firmware.scheme": "enum",
         "workload.phases": "list", "workload.phases[].streams[].queue_depth": "count",
         "workload.phases[].streams[].sizes": "size weights",
         "workload.phases[].streams[].trace": "path"}

# A tiny device and workload: each run takes well under a second.
TINY = """name: tiny
nand: {blocks: 64}
workload:
  phases:
    - name: measure
      requests: 100
      streams:
        - {pattern: random, read_fraction: 0.7, size: 8KiB, queue_depth: 4, working_set: 2MiB}
"""

# Answers --list-params with KINDS; otherwise "runs" the scenario: appends its sweep to
# calls.txt beside itself, fails (status 3) for seed 13, else writes a small run directory.
FAKE_SSDSIM = r"""#!/usr/bin/python3
import json, sys
from pathlib import Path
sys.path.insert(0, %(tools)r)
import ssdvp_sweep
if sys.argv[1] == "--list-params":
    print("key type default allowed description")
    for key, kind in %(kinds)r.items():
        print(f"{key} {kind} x y")
    sys.exit(0)
out = Path(sys.argv[sys.argv.index("--out") + 1])
sweep = ssdvp_sweep.load_yaml(Path(sys.argv[1])).get("sweep", {})
with open(Path(__file__).with_name("calls.txt"), "a") as calls:
    calls.write(json.dumps(sweep) + "\n")
if sweep.get("seed") == ["13"]:
    print("ftl: boom at seed 13")
    sys.exit(3)
label = ",".join(f"{k}={v[0]}" for k, v in sweep.items())
stats = {"outcome": {"outcome": "workload_done", "exit_code": 0, "message": "done"},
         "scenario": {"name": "fake", "sweep_label": label},
         "simulator": {"wall_seconds": 1.5},
         "host": {"phases": [{"name": "measure", "iops": 1000.0, "ops": {
             "read": {"iops": 700.0, "commands": 7,
                      "latency_ns": {"mean": 10.0, "p50": 9, "p99": 20, "p99.9": 30}},
             "write": {"iops": 300.0, "commands": 0,
                       "latency_ns": {"mean": 0.0, "p50": 0, "p99": 0, "p99.9": 0}}}}]},
         "ftl": {"memory": {"sram": {"used_bytes": 1000}}, "run": {}, "phases": [
             {"name": "measure", "waf": 1.25, "map": {"hit_ratio": 0.5},
              "host_read_pages": 10, "cache": {"read_hits": 2},
              "firmware": {"cycles_per_command": 7000.0}}]}}
(out / "stats.json").write_text(json.dumps(stats))
(out / "latency.csv").write_text("phase,op,lower_ns,upper_ns,count\n")
(out / "timeseries.csv").write_text("phase\n")
"""


@pytest.fixture
def fake_ssdsim(tmp_path):
    path = tmp_path / "fake" / "ssdsim"
    path.parent.mkdir()
    path.write_text(FAKE_SSDSIM % {"tools": str(TOOLS), "kinds": KINDS})
    path.chmod(0o755)
    return path


def calls(fake_ssdsim):
    log = fake_ssdsim.with_name("calls.txt")
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def write(path, text):
    path.write_text(text)
    return path


def ssdvp(*arguments, cwd=None):
    return subprocess.run([str(SSDVP), *map(str, arguments)], capture_output=True, text=True,
                          cwd=cwd)


# ---- expansion and naming ---------------------------------------------------------------------

def test_a_sweep_expands_first_key_slowest_with_ssdsims_names(tmp_path):
    file = write(tmp_path / "s.yaml", "sram.size: 1MiB\nsweep:\n  sram.size: [1024KiB, 512KiB]\n"
                                      "  ftl.op: [0.10, 7e-2]\n")
    points = expand([file], [], KINDS)
    assert [p.name for p in points] == ["0_sram.size=1MiB_ftl.op=0.1",
                                        "1_sram.size=1MiB_ftl.op=0.07",
                                        "2_sram.size=512KiB_ftl.op=0.1",
                                        "3_sram.size=512KiB_ftl.op=0.07"]
    assert points[1].swept == {"sram.size": "1MiB", "ftl.op": "0.07"}
    # The point's scenario narrows the sweep to its values as written; ssdsim applies them.
    scenario = ssdvp_sweep.load_yaml(write(tmp_path / "p.yaml", points[1].scenario))
    assert scenario["sweep"] == {"sram.size": ["1024KiB"], "ftl.op": ["7e-2"]}
    assert scenario["name"] == "s"  # named after its file, not after scenario.yaml


def test_values_take_their_parameters_canonical_form():
    assert ssdvp_sweep.canonical("size", "1.5KiB") == "1536B"
    assert ssdvp_sweep.canonical("size", "2048") == "2KiB"
    assert ssdvp_sweep.canonical("size", "0") == "0B"
    assert ssdvp_sweep.canonical("time", "1000 us") == "1ms"
    assert ssdvp_sweep.canonical("frequency", "1.6GHz") == "1600MHz"
    assert ssdvp_sweep.canonical("count", "007") == "7"
    assert ssdvp_sweep.canonical("real", "1.0") == "1"
    weights = {"8KiB": "3", "4096": "1.0"}
    assert ssdvp_sweep.canonical("size weights", weights) == "{4KiB: 1, 8KiB: 3}"
    assert ssdvp_sweep.canonical("enum", "dftl") == "dftl"
    # Text ssdsim would refuse stays as written; ssdsim names the error when the point runs.
    assert ssdvp_sweep.canonical("time", "5") == "5"


def test_directory_names_replace_what_is_not_path_safe():
    assert ssdvp_sweep.directory_name(3, "a.b=1,c=/x y") == "3_a.b=1_c=_x_y"
    assert ssdvp_sweep.directory_name(0, "k=é") == "0_k=__"  # a byte each, as ssdsim


def test_set_pins_or_sweeps_keys_in_order(tmp_path):
    file = write(tmp_path / "s.yaml", "sweep:\n  sram.size: [256KiB, 1MiB]\n  seed: [1, 2]\n")
    pinned = expand([file], ["sram.size=2MiB"], KINDS)
    assert [p.name for p in pinned] == ["0_seed=1", "1_seed=2"]
    assert pinned[0].arguments == ["--set", "sram.size=2MiB"]
    replaced = expand([file], ["sweep.seed=[5]", "sweep.cpu.clock=[1GHz, 400MHz]"], KINDS)
    assert [p.name for p in replaced] == ["0_sram.size=256KiB_seed=5_cpu.clock=1GHz",
                                          "1_sram.size=256KiB_seed=5_cpu.clock=400MHz",
                                          "2_sram.size=1MiB_seed=5_cpu.clock=1GHz",
                                          "3_sram.size=1MiB_seed=5_cpu.clock=400MHz"]
    # Pinned, then swept again: the sweep wins and ssdsim gets no --set of it.
    again = expand([file], ["seed=9", "sweep.seed=[3, 4]"], KINDS)
    assert len(again) == 4 and again[0].arguments == []


def test_several_files_are_numbered_on_and_a_lone_point_is_the_output(tmp_path):
    a = write(tmp_path / "a.yaml", "sweep: {seed: [1, 2]}\n")
    b = write(tmp_path / "b.yaml", "seed: 3\n")
    assert [p.name for p in expand([a, b], [], KINDS)] == ["0_a_seed=1", "1_a_seed=2", "2_b"]
    assert [p.name for p in expand([b], [], KINDS)] == [""]


def test_relative_files_are_read_from_the_scenarios_directory(tmp_path):
    file = write(tmp_path / "s.yaml", "firmware: {elf: fw/x.elf, scheme: ''}\n"
                                      "workload:\n  phases:\n    - streams: [{trace: ../t.trace}]\n")
    scenario = ssdvp_sweep.load_yaml(write(tmp_path / "p.yaml",
                                           expand([file], [], KINDS)[0].scenario))
    assert scenario["firmware"] == {"elf": str(tmp_path / "fw" / "x.elf"), "scheme": ""}
    assert scenario["workload"]["phases"][0]["streams"][0]["trace"] == str(tmp_path.parent /
                                                                            "t.trace")


@pytest.mark.parametrize("text, overrides, message", [
    ("sweep: [1, 2]\n", [], "sweep: expected a map"),
    ("sweep: {sram.sise: [1MiB]}\n", [], "unknown key 'sram.sise'; keys of sram: sram.size"),
    ("sweep: {seed: []}\n", [], "sweep.seed: expected a non-empty list"),
    ("sweep: {seed: 4}\n", [], "sweep.seed: expected a non-empty list"),
    ("sweep: {workload.phases: [a]}\n", [], "list of records and cannot be swept"),
    ("seed: 1\nseed: 2\n", [], "s.yaml:2: duplicate key 'seed'"),
    ("seed: [\n", [], "s.yaml: YAML syntax error"),
    ("seed: 1\n", ["seed"], "--set seed: expected key.path=value"),
    ("seed: 1\n", ["sweep=[1]"], "set one sweep axis at a time"),
    ("seed: 1\n", ["sweep.seed=[1"], "--set sweep.seed=[1: expected a list"),
])
def test_bad_input_names_the_file_or_option_and_the_key(tmp_path, text, overrides, message):
    with pytest.raises(ScenarioInputError, match=message.replace("[", r"\[")):
        expand([write(tmp_path / "s.yaml", text)], overrides, KINDS)


# ---- the runner -------------------------------------------------------------------------------

def test_finished_points_are_kept_and_changed_ones_rerun(tmp_path, fake_ssdsim):
    file = write(tmp_path / "s.yaml", "sweep: {seed: [1, 2]}\n")
    out = tmp_path / "out"
    assert ssdvp("run", file, "--out", out, "--ssdsim", fake_ssdsim).returncode == 0
    assert len(calls(fake_ssdsim)) == 2
    second = ssdvp("run", file, "--out", out, "--ssdsim", fake_ssdsim)
    assert second.returncode == 0 and len(calls(fake_ssdsim)) == 2
    assert "2/2 points: 0 done, 2 kept" in second.stderr
    # A changed scenario reruns its points; so does an override.
    write(file, "sweep: {seed: [1, 3]}\n")
    assert ssdvp("run", file, "--out", out, "--ssdsim", fake_ssdsim).returncode == 0
    assert calls(fake_ssdsim)[2:] == [{"seed": ["3"]}]
    ssdvp("run", file, "--out", out, "--ssdsim", fake_ssdsim, "--set", "sram.size=2MiB")
    assert len(calls(fake_ssdsim)) == 5


def test_a_failed_point_is_reported_with_its_log_and_the_rest_go_on(tmp_path, fake_ssdsim):
    file = write(tmp_path / "s.yaml", "sweep: {seed: [12, 13, 14]}\n")
    out = tmp_path / "out"
    result = ssdvp("run", file, "--out", out, "--ssdsim", fake_ssdsim, "--jobs", "2")
    assert result.returncode == 1
    log = out / "1_seed=13" / "ssdsim.log"
    assert f"1_seed=13 FAILED: ssdsim exited with status 3; full log: {log}" in result.stderr
    assert "    ftl: boom at seed 13" in result.stderr
    assert "3/3 points: 2 done, 0 failed" not in result.stderr
    assert "points failed: 1_seed=13" in result.stderr
    assert all((out / name / "stats.json").exists() for name in ("0_seed=12", "2_seed=14"))
    # Each point holds its scenario; the failed one is run again on a rerun, alone.
    assert (out / "1_seed=13" / "scenario.yaml").read_text().endswith("sweep:\n  seed:\n  - 13\n")
    assert ssdvp("run", file, "--out", out, "--ssdsim", fake_ssdsim).returncode == 1
    assert len(calls(fake_ssdsim)) == 4


def test_progress_is_a_redrawn_line_on_a_terminal(tmp_path, fake_ssdsim):
    class Terminal(io.StringIO):
        def isatty(self):
            return True
    stream = Terminal()
    jobs = [ssdvp_runner.Job(f"p{i}", tmp_path / f"p{i}", f"seed: {i}\n") for i in range(2)]
    results = ssdvp_runner.run_jobs(fake_ssdsim, jobs, 2, stream=stream)
    assert [r.status for r in results] == ["done", "done"]
    assert "\r2/2 points: 2 done, 0 failed, 0 running; finished" in stream.getvalue()
    assert "\n" not in stream.getvalue().rstrip("\n")


def test_bad_options_are_named(tmp_path, fake_ssdsim):
    file = write(tmp_path / "s.yaml", "seed: 1\n")
    cases = [(["--jobs", "0"], "--jobs: 0 is not allowed; at least 1"),
             (["--jobs", "2", "--scheduler", "tcp://h:1"], "--jobs: the cluster's"),
             (["--scheduler", "h"], "--scheduler: 'h' is not an address such as tcp://host:8786"),
             (["--ssdsim", tmp_path / "none"], f"--ssdsim: '{tmp_path / 'none'}' is not a file"),
             (["--set", "sram.sise=1"], "--set sram.sise=1: unknown key 'sram.sise'")]
    for options, message in cases:
        result = ssdvp("run", file, "--ssdsim", fake_ssdsim, *options)
        assert (result.returncode, message in result.stderr) == (2, True), result.stderr
    missing = ssdvp("run", tmp_path / "none.yaml", "--ssdsim", fake_ssdsim)
    assert f"{tmp_path / 'none.yaml'}: no such scenario file" in missing.stderr


# ---- collect ----------------------------------------------------------------------------------

def test_collect_gives_a_row_per_point_and_empty_cells_for_what_is_missing(tmp_path,
                                                                           fake_ssdsim):
    file = write(tmp_path / "s.yaml", "sweep: {seed: [12, 13]}\n")
    out = tmp_path / "out"
    ssdvp("run", file, "--out", out, "--ssdsim", fake_ssdsim)
    (out / "2_seed=14").mkdir()  # a point not run yet
    result = ssdvp("collect", out, "--out", tmp_path / "t.csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader((tmp_path / "t.csv").open()))
    assert [(r["point"], r["status"], r["seed"]) for r in rows] == [
        ("0_seed=12", "done", "12"), ("1_seed=13", "failed", "13"), ("2_seed=14", "missing", "")]
    done, failed, _ = rows
    assert (done["iops"], done["read_latency_p99.9_ns"], done["waf"]) == ("1000.0", "30", "1.25")
    assert (done["map_hit_ratio"], done["cache_read_hit_ratio"]) == ("0.5", "0.2")
    assert (done["firmware_cycles_per_command"], done["sram_used_bytes"]) == ("7000.0", "1000")
    assert done["write_latency_p50_ns"] == ""  # no write commands
    assert done["area_mm2"] == "" and done["flash_reads_per_host_read"] == ""
    assert failed["error"] == "ftl: boom at seed 13" and failed["iops"] == ""
    assert list(rows[0])[:6] == ["point", "status", "error", "scenario", "outcome", "seed"]


def test_collect_of_something_else_is_an_error_naming_it(tmp_path):
    result = ssdvp("collect", tmp_path)
    assert result.returncode == 2
    assert f"{tmp_path}: neither a run directory" in result.stderr


def test_labels_split_at_their_own_commas_only():
    assert ssdvp_collect.split_label("a=1,b={4KiB: 1, 8KiB: 2},c=[1, 2]") == {
        "a": "1", "b": "{4KiB: 1, 8KiB: 2}", "c": "[1, 2]"}


# ---- with the real simulator ------------------------------------------------------------------

@needs_ssdsim
def test_names_and_results_match_ssdsims_own_sweep(tmp_path):
    file = write(tmp_path / "tiny.yaml", TINY + "sweep:\n  sram.size: [1024KiB, 2MiB]\n"
                                                "  ftl.op: [0.10, 0.070]\n")
    own = tmp_path / "own"
    subprocess.run([SSDSIM, file, "--out", own], capture_output=True, check=True)
    ours = tmp_path / "ours"
    result = ssdvp("run", file, "--out", ours, "--ssdsim", SSDSIM)
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(ours)) == sorted(os.listdir(own))
    own_rows, our_rows = ssdvp_collect.collect(own), ssdvp_collect.collect(ours)
    same = ("point", "status", "sram.size", "ftl.op", "iops", "waf", "read_latency_p99_ns")
    assert [{k: r[k] for k in same} for r in our_rows] == [{k: r[k] for k in same}
                                                           for r in own_rows]
    assert our_rows[0]["sram.size"] == "1MiB" and our_rows[0]["status"] == "done"


@needs_ssdsim
def test_a_sweep_runs_on_a_dask_cluster(tmp_path):
    dask = shutil.which("dask", path="/usr/bin")
    if dask is None:
        pytest.skip("Debian's python3-distributed (/usr/bin/dask) is not installed")
    file = write(tmp_path / "tiny.yaml", TINY + "sweep: {seed: [1, 2]}\n")
    address_file = tmp_path / "scheduler.json"
    # Workers start elsewhere, without tools/ on their path: the tasks must travel by value.
    processes = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0",
                                   "--no-dashboard", "--scheduler-file", address_file],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  cwd=tmp_path)]
    try:
        for _ in range(2):
            processes.append(subprocess.Popen(
                [dask, "worker", "--scheduler-file", address_file, "--nthreads", "1",
                 "--no-nanny", "--no-dashboard", "--local-directory", tmp_path / "dask"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/"))
        deadline = time.monotonic() + 30
        while not address_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(address_file.read_text())["address"]
        out = tmp_path / "out"
        result = ssdvp("run", file, "--out", out, "--ssdsim", SSDSIM, "--scheduler", address)
        assert result.returncode == 0, result.stderr
        rows = ssdvp_collect.collect(out)
        assert [(r["point"], r["status"], r["seed"]) for r in rows] == [
            ("0_seed=1", "done", "1"), ("1_seed=2", "done", "2")]
        assert all(r["iops"] for r in rows)
        kept = ssdvp("run", file, "--out", out, "--ssdsim", SSDSIM, "--scheduler", address)
        assert "2/2 points: 0 done, 2 kept" in kept.stderr
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            process.wait(timeout=30)
