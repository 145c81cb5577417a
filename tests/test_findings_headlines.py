"""A findings page's headline is the numbers of the reports committed beside it: the Façade
page quotes the expert's win rates with and without the fifth suit and their paired
difference, and each figure is read back here from the run's own JSON, so a rerun that
changes them cannot leave the page saying the old ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FINDINGS = Path(__file__).parent.parent / "docs" / "findings"


def _load(name: str) -> Any:
    return json.loads((FINDINGS / name).read_text(encoding="utf-8"))


def _rate(report: str, agent: str) -> dict[str, Any]:
    rates = _load(report)["variants"]["simulation"]["agent_rates"]
    return next(r for r in rates if r["agent"] == agent)


def test_facade_headline_quotes_the_four_player_runs_and_their_paired_difference() -> None:
    page = (FINDINGS / "facade.md").read_text(encoding="utf-8")
    headline = page[page.index("## Headline") : page.index("**The earlier headline was wrong.**")]
    for report in ("facade-edge-4-60.json", "facade-edge-4-60-fifth.json"):
        rate = _rate(report, "expert:iters=48")
        assert rate["n"] == 240  # 60 deals in every seat rotation
        quoted = f"**{100 * rate['rate']:.1f}% ({100 * rate['low']:.1f}–{100 * rate['high']:.1f})**"
        assert quoted in headline, quoted
    paired = _load("facade-edge-4-60-paired.json")
    wins = next(d for d in paired["differences"] if d["metric"] == "wins (expert:iters=48)")
    assert wins["deals"] == 60 and wins["verdict"] == "no measurable difference"
    text = (
        f"{100 * wins['difference']:.1f} points of win rate (95% paired t "
        f"{100 * wins['t_low']:.1f} to +{100 * wins['t_high']:.1f}"
    ).replace("-", "−")
    assert text in headline, text
    assert f"±{100 * wins['mde']:.1f}" in headline
    # the claim "no measurable difference" must be the run's verdict, and the interval must
    # straddle zero for the page to say the fifth suit does not move the expert's share
    assert wins["t_low"] < 0 < wins["t_high"]


def test_facade_first_bidder_with_the_expert_quotes_its_400_game_runs() -> None:
    """The page says where the first bidder keeps an edge between expert players: each
    size's rate and interval come from the all-expert report, and what the page says of
    each follows from the interval: "above" the fair share only where its low end is above
    it, "holds the fair share" where it is not. The paired differences against greedy on
    the same deals are the paired table's."""
    page = (FINDINGS / "facade.md").read_text(encoding="utf-8")
    section = page[page.index("## The first bidder with the expert") : page.index("## Bots, sizes")]
    variants = _load("facade-first-bidder.json")["variants"]
    for players in (3, 4):
        first = variants[f"players={players}"]["first_player"]
        assert first["n"] == 400
        quoted = f"{100 * first['rate']:.1f}% ({100 * first['low']:.1f}–{100 * first['high']:.1f})"
        assert quoted in section, quoted
        said = section[section.index(quoted) :][:120]
        verdict = "above" if first["low"] > 1 / players else "holds the fair share"
        assert verdict in said, (quoted, said)
    paired = _load("facade-paired.json")["differences"]
    for players in (3, 4):
        row = next(
            d
            for d in paired
            if d["comparison"] == f"expert − greedy, {players} players"
            and d["metric"] == "first player wins"
        )
        assert row["deals"] == 400 and row["verdict"] == "no measurable difference"
        text = f"{100 * row['difference']:.1f}".replace("-", "−")
        assert text in section, text


def test_lonely_face_expert_check_quotes_its_runs_and_claims_no_finding() -> None:
    """The Lonely Face page says the expert's first player keeps its edge with and without
    pairs in the opening grid: every quoted rate is the report's, every rules'-deal rate is
    above fair, and no first-player difference is a finding."""
    page = (FINDINGS / "lonely-face.md").read_text(encoding="utf-8")
    section = page[
        page.index("## The same option with the expert") : page.index("## What the bots do not")
    ]
    for players in (2, 3, 4):
        variants = _load(f"lonely-face-opening-expert-{players}.json")["variants"]
        for cell in ("opening=deal", "opening=no_pairs"):
            first = variants[cell]["first_player"]
            assert first["n"] == 300
            quoted = (
                f"{100 * first['rate']:.1f}% ({100 * first['low']:.1f}–{100 * first['high']:.1f})"
            )
            assert quoted in section, quoted
        assert variants["opening=deal"]["first_player"]["low"] > 1 / players
    paired = _load("lonely-face-opening-expert.json")["differences"]
    firsts = [d for d in paired if d["metric"] == "first player wins"]
    assert len(firsts) == 3 and all(d["verdict"] != "finding" for d in firsts)
    assert all(d["t_low"] < 0 < d["t_high"] for d in firsts)
    assert not any(d["verdict"] == "finding" for d in paired), "the page says none is a finding"
