"""The pairing logic is pure Python: it imports no Django, so it runs (and is tested) on its own."""

import os
import subprocess
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]


def test_pairing_imports_no_django() -> None:
    # when: a fresh interpreter imports every module of the package
    code = (
        "import sys, tournaments.pairing, tournaments.pairing.elimination, tournaments.pairing.swiss, "
        "tournaments.pairing.round_robin, tournaments.pairing.pocha_tables, tournaments.pairing.standings, "
        "tournaments.pairing.seeding; "
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "assert not leaked, leaked"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_DIR, env=env, capture_output=True, text=True, timeout=120
    )

    # then: no django module was loaded
    assert result.returncode == 0, result.stderr
