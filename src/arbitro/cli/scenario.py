"""``arbitro scenario run``: replay scenario files and check what the Laws make of them."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from arbitro.scenario import ScenarioError, files_in, load, run

EXIT_FAILED = 1
EXIT_INVALID = 2


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "scenario",
        help="replay scenario files (incidents written down) through the Laws engine",
        description="Scenario files: see the format in the project's docs/scenarios.md.",
    )
    actions = parser.add_subparsers(dest="scenario_command", metavar="ACTION", required=True)
    run_parser = actions.add_parser(
        "run",
        help="run scenario files and folders",
        description=(
            "Replay each scenario and print 'PASS  title' or 'FAIL  title' with every "
            "expectation that failed. Exit status: 0 when all pass, 1 when one fails, 2 when a "
            "file cannot be read or is not a valid scenario."
        ),
    )
    run_parser.add_argument("paths", nargs="+", metavar="FILE_OR_FOLDER")
    run_parser.add_argument("--json", action="store_true", help="one JSON object per scenario")
    run_parser.set_defaults(run=run_command)


def run_command(args: argparse.Namespace) -> int:
    try:
        files = files_in(args.paths)
        scenarios = [scenario for path in files for scenario in load(path)]
    except ScenarioError as error:
        print(f"arbitro: {error.message(args.lang)}", file=sys.stderr)
        return EXIT_INVALID
    if not scenarios:
        print("arbitro: no scenario files found", file=sys.stderr)
        return EXIT_INVALID
    failed = 0
    for scenario in scenarios:
        report = run(scenario)
        if not report.passed:
            failed += 1
        if args.json:
            print(json.dumps(report.to_dict(), ensure_ascii=False))
            continue
        print(f"{'PASS' if report.passed else 'FAIL'}  {scenario.title}")
        for failure in report.failures:
            print(f"      {failure}")
    if not args.json:
        print(f"{len(scenarios) - failed} passed, {failed} failed", file=sys.stderr)
    return EXIT_FAILED if failed else 0
