#!/usr/bin/python3
"""Expands scenario files into the points ssdsim would run, named as ssdsim names them.

ssdsim runs a sweep's points one after the other and cannot run one point alone, so
`ssdvp run` expands sweeps itself, by ssdsim's rules (README "Scenarios";
tb/scenario/scenario.cpp ScenarioResolver::expand, tb/ssdsim.cpp sweep_point_dir):
- the axes are the `sweep:` keys in the file's order; in the order given, `--set sweep.KEY=[..]`
  replaces KEY's axis or adds one at the end, and `--set KEY=VALUE` pins KEY (its axis goes);
- the points are the cartesian product of the axes, the first varying slowest;
- a point's label is `KEY=VALUE,...`, each value in its parameter's canonical form (1024KiB is
  1MiB, 0.10 is 0.1), and its directory `<index>_<label>` with every character but letters,
  digits and `.=-_` replaced by `_`.
A point's scenario is the file with its sweep narrowed to the point's values, one per axis:
ssdsim applies them exactly as its own sweep does and records the label in stats.json
(`scenario.sweep_label`).
"""

import itertools
import os
import re
import subprocess
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

_UNITS = {
    "size": ([("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("GB", 10**9),
              ("MB", 10**6), ("KB", 10**3), ("B", 1)], "0B", False),
    "time": ([("s", 10**12), ("ms", 10**9), ("us", 10**6), ("ns", 10**3), ("ps", 1)], "0s",
             True),
    "frequency": ([("GHz", 10**9), ("MHz", 10**6), ("kHz", 10**3), ("Hz", 1)], "0Hz", True),
}
_NUMBER_WITH_UNIT = re.compile(r"([0-9]+)(?:\.([0-9]*))? *(.*)")
_INDEX = re.compile(r"\[[0-9]+\]")
# The kinds --list-params names in two words ("size weights", "device list").
_TWO_WORD_KINDS = {"weights", "list"}
# firmware.elf is a string parameter, yet ssdsim reads a relative one against the file's
# directory like the path parameters (tb/ssdsim.cpp firmware_path).
_FILE_RELATIVE_STRINGS = {"firmware.elf"}


class ScenarioInputError(ValueError):
    """Bad input: the message names the file or option, the key and what is allowed."""


@dataclass
class Point:
    """One run: its directory name, the scenario text to write and ssdsim's extra arguments."""

    name: str
    scenario: str
    arguments: list[str] = field(default_factory=list)
    swept: dict[str, str] = field(default_factory=dict)  # key -> canonical value


def registry(ssdsim: str | Path) -> dict[str, str]:
    """Every scenario key ssdsim knows ("workload.phases[].streams[].size") and its kind
    ("size", "count", "size weights", ...), from `ssdsim --list-params`."""
    try:
        listing = subprocess.run([str(ssdsim), "--list-params"], capture_output=True,
                                 text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        raise ScenarioInputError(f"--ssdsim: '{ssdsim}' --list-params failed: {error}") from error
    kinds = {}
    for line in listing.splitlines()[1:]:
        words = line.split()
        if len(words) >= 2 and re.fullmatch(r"[a-z0-9_.\[\]]+", words[0]):
            two_words = len(words) > 2 and words[2] in _TWO_WORD_KINDS
            kinds[words[0]] = f"{words[1]} {words[2]}" if two_words else words[1]
    return kinds


def schema_key(key: str) -> str:
    """A key as the registry writes it: record indices become []."""
    return _INDEX.sub("[]", key)


def canonical(kind: str, value: Any) -> str:
    """A value as ssdsim's Parameter::format writes it; text it cannot read stays as written
    (ssdsim then names the error when the point runs)."""
    try:
        if kind in _UNITS and isinstance(value, str):
            return _format_units(kind, _parse_units(kind, value))
        if kind == "count" and isinstance(value, str) and value.isdigit():
            return str(int(value))
        if kind == "real" and isinstance(value, str):
            return _format_real(_parse_real(value))
        if kind in ("size weights", "count weights"):
            return _format_weights(kind.split()[0], value)
    except ValueError:
        pass
    return _flow(value)


def _parse_units(kind: str, text: str) -> int:
    units, _, unit_required = _UNITS[kind]
    match = _NUMBER_WITH_UNIT.fullmatch(text)
    if not match:
        raise ValueError(text)
    integer, fraction, unit = match.groups()
    number = int(integer) + (Fraction(int(fraction), 10 ** len(fraction)) if fraction else 0)
    scale = dict(units).get(unit, 1 if unit == "" and not (unit_required and number) else None)
    if scale is None or (number * scale).denominator != 1:
        raise ValueError(text)
    return int(number * scale)


def _format_units(kind: str, value: int) -> str:
    units, zero, _ = _UNITS[kind]
    return zero if value == 0 else next(f"{value // scale}{name}" for name, scale in units
                                        if value % scale == 0)


def _parse_real(text: str) -> float:
    # ssdsim reads reals with strtod, digits, signs, points and exponents only.
    if not text or text.strip("0123456789+-.eE"):
        raise ValueError(text)
    return float(text)


def _format_real(value: float) -> str:
    # fmt's "{}" is the shortest text that reads back, as Python's repr, without a bare ".0".
    text = repr(value)
    return text[:-2] if text.endswith(".0") else text


def _format_weights(kind: str, value: Any) -> str:
    entries = value.items() if isinstance(value, dict) else [(value, "1")]
    parsed = sorted((int(key) if kind == "count" else _parse_units("size", key), float(weight))
                    for key, weight in entries)
    return "{" + ", ".join(
        f"{number if kind == 'count' else _format_units('size', number)}: {_format_real(w)}"
        for number, w in parsed) + "}"


def _flow(value: Any) -> str:
    """A value as YAML flow text, the way a label shows a list or a map."""
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    return str(value)


def directory_name(index: int, label: str) -> str:
    """ssdsim's sweep_point_dir: every byte but ASCII letters, digits and .=-_ becomes _."""
    safe = "".join(chr(b) if chr(b).isascii() and (chr(b).isalnum() or chr(b) in ".=-_")
                   else "_" for b in label.encode())
    return f"{index}_{safe}"


class _Loader(yaml.BaseLoader):
    """Every scalar stays the text written, as ssdsim (yaml-cpp) reads it; a duplicate key is
    an error, as in ssdsim."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            if key_node.value in seen:
                raise ScenarioInputError(f"{node.start_mark.name}:{key_node.start_mark.line + 1}:"
                                         f" duplicate key '{key_node.value}'")
            seen.add(key_node.value)
        return super().construct_mapping(node, deep)


class _Dumper(yaml.SafeDumper):
    """Writes the text scalars back plain where YAML allows it: no implicit types here."""

    yaml_implicit_resolvers: dict = {}

    def represent_str(self, data: str) -> yaml.ScalarNode:
        # Plain, an empty text would read back as no value at all.
        return self.represent_scalar("tag:yaml.org,2002:str", data,
                                     style="'" if not data else None)


_Dumper.add_representer(str, _Dumper.represent_str)



def load_yaml(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as stream:
            return yaml.load(stream, Loader=_Loader)  # noqa: S506 (text scalars only)
    except OSError as error:
        raise ScenarioInputError(f"{path}: cannot read: {error.strerror}") from error
    except yaml.YAMLError as error:
        raise ScenarioInputError(f"{path}: YAML syntax error: {error}") from error


def dump_yaml(tree: Any) -> str:
    return yaml.dump(tree, Dumper=_Dumper, sort_keys=False, default_flow_style=False,
                     allow_unicode=True, width=100)


def _absolute_paths(tree: Any, kinds: dict[str, str], base: Path, prefix: str = "") -> Any:
    """The tree with relative file values (path parameters, firmware.elf) made absolute against
    base: the point's scenario lives in another directory than the file it came from."""
    if isinstance(tree, dict):
        return {k: _absolute_paths(v, kinds, base, f"{prefix}.{k}" if prefix else k)
                for k, v in tree.items()}
    if isinstance(tree, list):
        return [_absolute_paths(v, kinds, base, f"{prefix}[]") for v in tree]
    return _absolute(tree, schema_key(prefix), kinds, base)


def _absolute(value: Any, key: str, kinds: dict[str, str], base: Path) -> Any:
    if not (kinds.get(key) == "path" or key in _FILE_RELATIVE_STRINGS):
        return value
    if not isinstance(value, str) or not value or value.startswith("builtin:"):
        return value
    return os.path.normpath(base / value)


@dataclass
class _Axis:
    key: str
    values: list[Any]
    base: Path  # where a relative path among the values is read from


def _check_key(key: str, kinds: dict[str, str], where: str, sweeping: bool = True) -> None:
    kind = kinds.get(schema_key(key))
    if kind is None:
        section = schema_key(key).rpartition(".")[0]
        known = sorted(k for k in kinds if k.rpartition(".")[0] == section)
        raise ScenarioInputError(f"{where}: unknown key '{key}'; keys of "
                                 f"{section or 'the top level'}: {', '.join(known) or 'none'}")
    if kind == "list" and sweeping:
        raise ScenarioInputError(f"{where}: '{key}' is a list of records and cannot be swept; "
                                 f"sweep keys of its records, e.g. {key}[0].KEY")


def _axis(key: str, values: Any, kinds: dict[str, str], where: str, base: Path) -> _Axis:
    _check_key(key, kinds, where)
    if not isinstance(values, list) or not values:
        raise ScenarioInputError(f"{where}: sweep.{key}: expected a non-empty list of values "
                                 f"[v1, v2, ...], got {_flow(values) or 'nothing'}")
    return _Axis(key, values, base)


def _split_override(text: str) -> tuple[str, str]:
    key, equals, value = text.partition("=")
    if not equals or not key:
        raise ScenarioInputError(f"--set {text}: expected key.path=value")
    if key == "sweep":
        raise ScenarioInputError(f"--set {text}: set one sweep axis at a time: "
                                 f"sweep.key.path=[v1, v2]")
    return key, value


def expand(files: list[Path], overrides: list[str], kinds: dict[str, str]) -> list[Point]:
    """The points of the scenario files in order, with the --set overrides applied to each;
    one file's points are named as ssdsim names them, several files' are numbered on and
    labelled by the file's stem first. A lone point is named "" (it is the output directory,
    as with ssdsim)."""
    expanded = [(file, *_expand_file(file, overrides, kinds)) for file in files]
    total = sum(len(points) for _, points, _ in expanded)
    named = []
    for file, points, labels in expanded:
        for point, label in zip(points, labels):
            shown = label if len(files) == 1 else ",".join(filter(None, (file.stem, label)))
            point.name = "" if total == 1 else directory_name(len(named), shown)
            named.append(point)
    return named


def _expand_file(file: Path, overrides: list[str], kinds: dict[str, str]
                 ) -> tuple[list[Point], list[str]]:
    tree = load_yaml(file)
    if tree is None:
        tree = {}
    if not isinstance(tree, dict):
        raise ScenarioInputError(f"{file}: expected a map of scenario keys, got {_flow(tree)}")
    sweep = tree.pop("sweep", None) or {}
    if not isinstance(sweep, dict):
        raise ScenarioInputError(f"{file}: sweep: expected a map of key.path: [values], got "
                                 f"{_flow(sweep)}")
    axes = [_axis(k, v, kinds, f"{file}", file.parent) for k, v in sweep.items()]
    pinned: list[tuple[str, str]] = []
    for text in overrides:
        key, value = _split_override(text)
        if key.startswith("sweep."):
            try:
                values = yaml.load(value, Loader=_Loader)  # noqa: S506 (text scalars only)
            except yaml.YAMLError as error:
                raise ScenarioInputError(f"--set {text}: expected a list [v1, v2, ...]: "
                                         f"{error}") from error
            axis = _axis(key[len("sweep."):], values, kinds, f"--set {text}", Path.cwd())
            if any(a.key == axis.key for a in axes):
                axes = [axis if a.key == axis.key else a for a in axes]
            else:
                axes.append(axis)
        else:
            _check_key(key, kinds, f"--set {text}", sweeping=False)
            axes = [a for a in axes if a.key != key]
            pinned = [p for p in pinned if p[0] != key] + [(key, value)]
    # The point's file is scenario.yaml: name the scenario after its own file, as ssdsim would.
    tree["name"] = tree.get("name") or file.stem
    base = _absolute_paths(tree, kinds, file.parent)
    # ssdsim applies --set after the file's sweep is narrowed, so a key swept again after
    # its --set is left to the sweep.
    arguments = []
    for key, value in pinned:
        if all(a.key != key for a in axes):
            value = _absolute(value, schema_key(key), kinds, Path.cwd())
            arguments += ["--set", f"{key}={value}"]
    points, labels = [], []
    for values in itertools.product(*(a.values for a in axes)):
        chosen = {a.key: _absolute(v, schema_key(a.key), kinds, a.base)
                  for a, v in zip(axes, values)}
        swept = {key: canonical(kinds[schema_key(key)], value) for key, value in chosen.items()}
        scenario = dict(base, sweep={k: [v] for k, v in chosen.items()}) if chosen else base
        header = (f"# ssdvp run: a point of {file.resolve()}; ssdsim runs it with "
                  f"{' '.join(arguments) or 'no --set'}\n")
        points.append(Point("", header + dump_yaml(scenario), arguments, swept))
        labels.append(",".join(f"{k}={v}" for k, v in swept.items()))
    return points, labels
