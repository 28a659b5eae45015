"""Scenario files: the project's library passes, and invalid files are refused clearly."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arbitro.cli import main
from arbitro.scenario import ScenarioError, load, parse_time, run

ROOT = Path(__file__).parent.parent
LIBRARY = ROOT / "scenarios"
FILES = sorted(LIBRARY.rglob("*.yaml"))
EDITIONS = [
    "fide-2001", "fide-2005", "fide-2009", "fide-2014", "fide-2017", "fide-2018", "fide-2023",
    "club-blitz",
]  # fmt: skip


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(LIBRARY)) for p in FILES])
def test_library_scenario_passes(path: Path) -> None:
    for scenario in load(path):
        report = run(scenario)
        assert report.passed, "\n".join([scenario.title, *report.failures])


def test_the_library_covers_every_edition_with_titled_articles() -> None:
    assert len(FILES) >= 80
    for edition in EDITIONS:
        folder = LIBRARY / edition
        assert len(list(folder.glob("*.yaml"))) >= 10, edition
        for path in folder.glob("*.yaml"):
            (scenario,) = load(path)
            assert scenario.setup.edition.id == edition, path
            # Each title names the article (or rule number) it checks.
            assert re.search(r"\d", scenario.title), path


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """
title: "a scenario"
time_control: "3+2"
actions:
  - {at: 0, by: arbiter, do: start}
  - {at: 1, by: white, do: play, move: e4, expect: {clock: {white: "3:01"}}}
"""


START = "actions: [{at: 0, by: arbiter, do: start}]\n"
BASE = "title: t\ntime_control: '3+2'\n"
TWO = "actions: [{at: 0, by: arbiter, do: start}, "


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("title: [unclosed", "not valid YAML"),
        ("- 1\n- 2\n", "a scenario is a mapping"),
        ("time_control: '3+2'\n" + START, "'title' is required"),
        ("title: t\n" + START, "'time_control' is required"),
        (BASE, "'actions' must be a non-empty list"),
        ("title: t\ntime_control: 'fast'\n" + START, "Cannot read the time control"),
        (BASE + "edition: fide-1999\n" + START, "Unknown edition"),
        (BASE + "expcet: {}\n" + START, "unknown key(s) expcet"),
        (BASE + "actions: [{at: 0, by: arbiter, do: begin}]\n", "action 1: unknown 'do: begin'"),
        (BASE + TWO + "{at: 1, by: white, do: play}]\n", "action 2: 'play' needs 'move'"),
        (
            BASE + "actions: [{at: 5, by: arbiter, do: start}, {at: 1, by: white, do: start}]\n",
            "action 2: actions must be in time order",
        ),
        (BASE + "actions: [{at: soon, by: arbiter, do: start}]\n", "action 1: 'at'"),
        (BASE + "actions: [{at: 0, by: umpire, do: start}]\n", "'by' must be white, black or"),
        (
            BASE + "actions: [{at: 0, by: arbiter, do: start, expect: {winner: white}}]\n",
            "unknown expectation(s) winner",
        ),
        (BASE + START + "expect: {result: win}\n", "'result' must be one of"),
    ],
)
def test_invalid_files_name_the_file_the_action_and_the_problem(
    tmp_path: Path, text: str, needle: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ScenarioError) as caught:
        load(path)
    message = caught.value.message()
    assert str(path) in message
    assert needle in message


def test_cli_exit_status_and_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, GOOD)
    assert main(["scenario", "run", str(good)]) == 0
    assert capsys.readouterr().out.startswith("PASS  a scenario")
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD.replace('"3:01"', '"2:00"'), encoding="utf-8")
    assert main(["scenario", "run", str(bad), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["passed"] is False
    assert "clock.white: expected 2:00.0, got 3:01.0" in report["failures"][0]
    broken = tmp_path / "broken.yaml"
    broken.write_text("title: [", encoding="utf-8")
    assert main(["scenario", "run", str(tmp_path)]) == 2
    assert "broken.yaml" in capsys.readouterr().err
    assert main(["scenario", "run", str(tmp_path / "missing")]) == 2


def test_a_list_of_scenarios_in_one_json_file(tmp_path: Path) -> None:
    one = {
        "title": "json one",
        "time_control": "5+0",
        "actions": [{"at": 0, "by": "arbiter", "do": "start"}],
        "expect": {"to_move": "white"},
    }
    path = tmp_path / "two.json"
    path.write_text(json.dumps([one, {**one, "title": "json two"}]), encoding="utf-8")
    scenarios = load(path)
    assert [s.title for s in scenarios] == ["json one", "json two"]
    assert all(run(s).passed for s in scenarios)


def test_an_unexpected_refusal_fails_the_scenario(tmp_path: Path) -> None:
    text = GOOD + "  - {at: 2, by: white, do: play, move: d4}\n"
    (scenario,) = load(write(tmp_path, text))
    report = run(scenario)
    assert not report.passed
    assert "refused [not-your-turn]" in report.failures[0]


def test_adjournment_actions_of_the_format_run(tmp_path: Path) -> None:
    """A1, A9: the format's adjourn, seal and resume, with only the spec's keys."""
    text = GOOD + (
        "  - {at: 2, by: arbiter, do: adjourn}\n"
        "  - {at: 3, by: black, do: seal, move: e5, expect: {sealed: true}}\n"
        "  - {at: 100, by: arbiter, do: resume, present: [white, black],\n"
        "     expect: {sealed: false, to_move: white}}\n"
    )
    (scenario,) = load(write(tmp_path, text))
    report = run(scenario)
    assert report.passed, report.failures


def test_moves_action_and_times() -> None:
    assert parse_time("1:00:00.5") == 3_600_500
    with pytest.raises(ValueError):
        parse_time(-1)
    with pytest.raises(ValueError):
        parse_time(True)
