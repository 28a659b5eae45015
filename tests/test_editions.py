"""Editions as data: lookup by id and date, and docs/editions.md kept in sync."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from arbitro.editions import Edition, Supervision
from arbitro.editions.docs import render_markdown
from arbitro.gamekind import THRESHOLDS, Kind, UnknownEditionError

ROOT = Path(__file__).parent.parent


def test_every_edition_of_the_spec_exists() -> None:
    assert [e.id for e in Edition.all()] == [
        "fide-2001",
        "fide-2005",
        "fide-2009",
        "fide-2014",
        "fide-2017",
        "fide-2018",
        "fide-2023",
        "club-blitz",
    ]


@pytest.mark.parametrize(
    ("date", "edition"),
    [
        (datetime.date(1999, 1, 1), "fide-2001"),
        (datetime.date(2001, 7, 1), "fide-2001"),
        (datetime.date(2005, 6, 30), "fide-2001"),
        (datetime.date(2005, 7, 1), "fide-2005"),
        (datetime.date(2009, 7, 1), "fide-2009"),
        (datetime.date(2014, 6, 30), "fide-2009"),
        (datetime.date(2014, 7, 1), "fide-2014"),
        (datetime.date(2017, 7, 1), "fide-2017"),
        (datetime.date(2017, 12, 31), "fide-2017"),
        (datetime.date(2018, 1, 1), "fide-2018"),
        (datetime.date(2022, 12, 31), "fide-2018"),
        (datetime.date(2023, 1, 1), "fide-2023"),
        (datetime.date(2026, 11, 29), "fide-2023"),
    ],
)
def test_edition_in_force_on_a_date(date: datetime.date, edition: str) -> None:
    assert Edition.for_date(date).id == edition


def test_unknown_edition() -> None:
    with pytest.raises(UnknownEditionError) as caught:
        Edition.get("fide-1997")
    assert caught.value.code == "unknown-edition"


def test_thresholds_are_the_same_values_as_the_kind_table() -> None:
    for edition in Edition.all():
        assert edition.kind_thresholds is THRESHOLDS[edition.id]


def test_every_edition_has_a_policy_for_every_kind_and_supervision() -> None:
    for edition in Edition.all():
        for kind in Kind:
            for supervision in Supervision:
                assert edition.illegal_move(kind, supervision)
                assert isinstance(edition.arbiter_sees_flags(kind, supervision), bool)
            assert kind in edition.incorrect_claim_s


@pytest.mark.law("9.5")
def test_incorrect_claim_penalty_2001_halves_the_claimant() -> None:
    edition = Edition.get("fide-2001")
    assert edition.incorrect_claim_penalty(Kind.STANDARD, 10 * 60_000) == (180_000, 180_000)
    assert edition.incorrect_claim_penalty(Kind.STANDARD, 5 * 60_000) == (180_000, 150_000)
    assert edition.incorrect_claim_penalty(Kind.STANDARD, 90_000) == (180_000, 30_000)
    assert edition.incorrect_claim_penalty(Kind.STANDARD, 45_000) == (180_000, 0)
    assert Edition.get("fide-2009").incorrect_claim_penalty(Kind.STANDARD, 600_000) == (
        180_000,
        0,
    )
    assert Edition.get("fide-2023").incorrect_claim_penalty(Kind.RAPID, 600_000) == (60_000, 0)


def test_docs_editions_is_generated_from_the_data() -> None:
    page = (ROOT / "docs" / "editions.md").read_text(encoding="utf-8")
    assert page == render_markdown(), "run: arbitro editions --markdown > docs/editions.md"


def test_uncertain_values_are_flagged_in_the_docs() -> None:
    page = render_markdown()
    assert "2004 (?)" in page
    assert "consecutive (?)" in page
