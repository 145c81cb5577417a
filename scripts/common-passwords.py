"""Write the package's list of the 10,000 most common passwords (NIST SP 800-63B asks a
service to refuse them) from the ranked list the ``zxcvbn`` package ships (MIT).

The list is shipped as data (src/decklab/server/accounts/common_passwords.txt.gz) rather
than read from zxcvbn at run time: 40 KiB of data instead of a dependency that the server
would import only for this. Run again only to change the list:

    .venv/bin/pip install zxcvbn && .venv/bin/python scripts/common-passwords.py
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

COUNT = 10_000
OUT = Path(__file__).resolve().parents[1] / "src/decklab/server/accounts/common_passwords.txt.gz"


def main() -> None:
    try:
        from zxcvbn.frequency_lists import FREQUENCY_LISTS
    except ImportError:
        sys.exit("this script needs the zxcvbn package: .venv/bin/pip install zxcvbn")
    ranked = [p.strip().lower() for p in FREQUENCY_LISTS["passwords"][:COUNT]]
    text = "\n".join(ranked) + "\n"
    # mtime 0: the same list gives the same bytes, so a rerun changes nothing in git
    OUT.write_bytes(gzip.compress(text.encode(), mtime=0))
    print(f"{len(ranked)} passwords written to {OUT}")


if __name__ == "__main__":
    main()
