"""``lf_spec.py`` with the estimate's hand-card worth changed (a screen, issue 20).

    python docs/strength/lf_worth.py FACE HEART FIRST COUNT NAME=SPEC [NAME=SPEC ...]

Sets what ``expected_scores`` (search's judgement of a cut-off game) counts a face card
and a heart in hand as, in ``games/lonely_face/greedy.ESTIMATE_WORTH``, then plays as
``lf_spec.py`` does. ``greedy`` itself (the opponent) keeps its ``HAND_WORTH``.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from decklab import cards
from decklab.games.lonely_face import greedy
from decklab.games.lonely_face.tables import FACE_CARD


def main() -> None:
    face, heart = float(sys.argv[1]), float(sys.argv[2])
    for c in range(64):
        if 1 <= c & 15 <= 13 and c >> 4 <= cards.CLUBS:
            if FACE_CARD[c]:
                greedy.ESTIMATE_WORTH[c] = face
            elif c >> 4 == cards.HEARTS:
                greedy.ESTIMATE_WORTH[c] = heart
    sys.argv = [sys.argv[0], *sys.argv[3:]]
    runpy.run_path(str(Path(__file__).with_name("lf_spec.py")), run_name="__main__")


if __name__ == "__main__":
    main()
