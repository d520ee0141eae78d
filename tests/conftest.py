import sys
from pathlib import Path

# The papermill helpers live in scripts/ so that `make outputs` and the tests share them.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

# Property-based tests draw the same examples on every run, so a pass or a failure in CI
# is one that anyone can reproduce (a failure still names its falsifying example).
from hypothesis import settings  # noqa: E402

settings.register_profile("reproducible", derandomize=True, database=None)
settings.load_profile("reproducible")
