"""Assemble docs/records.md from the general part and each game's notation section.

    python docs/build_records.py

Each game documents its own notation next to the others in docs/notation/; a test
checks that records.md is up to date.
"""

from __future__ import annotations

from pathlib import Path

DOCS = Path(__file__).parent
ORDER = ["cabin", "corporation", "facade", "lonely-face", "notorious"]


def build() -> str:
    parts = [(DOCS / "records.head.md").read_text(encoding="utf-8").rstrip() + "\n"]
    for name in ORDER:
        path = DOCS / "notation" / f"{name}.md"
        if path.exists():
            parts.append(path.read_text(encoding="utf-8").strip() + "\n")
    return "\n".join(parts)


if __name__ == "__main__":
    (DOCS / "records.md").write_text(build(), encoding="utf-8")
    print("wrote docs/records.md")
