"""The findings plots draw the numbers their pages quote: the Corporation page's payout plot
reads ``payout_decided`` from the reports next to it, and the page embeds the figure."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

FINDINGS = Path(__file__).parent.parent / "docs" / "findings"


@pytest.fixture(scope="module")
def plots() -> ModuleType:
    pytest.importorskip("matplotlib")
    spec = importlib.util.spec_from_file_location("findings_plots", FINDINGS / "plots.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["findings_plots"] = module
    spec.loader.exec_module(module)
    return module


def test_the_payout_plot_reads_the_share_the_page_quotes(plots: ModuleType) -> None:
    series = plots.payout_decided()
    rules, shared, expert = series.values()
    assert len(rules) == len(shared) == len(expert) == 7  # 4 to 10 players
    for bar in rules + shared + [b for b in expert if b is not None]:
        assert bar is not None and bar[1] <= bar[0] <= bar[2], "a rate outside its interval"
    page = (FINDINGS / "corporation.md").read_text(encoding="utf-8")
    # the headline's figures: 43.1% (40.9–45.3) at 4 players, 46.6% (44.4–48.7) at 10
    for bar, quoted in ((rules[0], "43.1% (40.9–45.3)"), (rules[-1], "46.6% (44.4–48.7)")):
        text = f"{100 * bar[0]:.1f}% ({100 * bar[1]:.1f}–{100 * bar[2]:.1f})"
        assert text == quoted and quoted in page
    assert [i for i, b in enumerate(expert) if b is not None] == [0, 2]  # 4 and 6 players
    assert "(corporation-payout.png)" in page
    assert (FINDINGS / "corporation-payout.png").exists()


def test_the_facade_summary_sends_the_reader_to_the_headlines_figures(plots: ModuleType) -> None:
    """The third panel's title quotes the expert's 60-deal win rates the page's headline
    quotes, read from the same reports, and the earlier runs' range of deals."""
    edge, title = plots.facade_edge((2, 3, 4))
    assert [b is not None for b in edge["fifth suit on"]] == [False, False, True]
    page = (FINDINGS / "facade.md").read_text(encoding="utf-8")
    headline = page[page.index("## Headline") : page.index("**The earlier headline was wrong.**")]
    quoted = []
    for report in ("facade-edge-4-60.json", "facade-edge-4-60-fifth.json"):
        cell = json.loads((FINDINGS / report).read_text(encoding="utf-8"))["variants"]
        rate = next(r for r in cell["simulation"]["agent_rates"] if r["agent"] == "expert:iters=48")
        quoted.append(f"{100 * rate['rate']:.1f}%")
        assert f"**{quoted[-1]} (" in headline
    assert title.endswith(f"see the headline: {quoted[0]} vs {quoted[1]})")
    assert title.startswith("Earlier runs, 8–18 deals")  # 24 games at 3 seats, 72 at 4
