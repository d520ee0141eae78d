import sys
from pathlib import Path

# The papermill helpers live in scripts/ so that `make outputs` and the tests share them.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

# Property-based tests draw the same examples on every run, so a pass or a failure in CI
# is one that anyone can reproduce (a failure still names its falsifying example).
from hypothesis import settings

settings.register_profile("reproducible", derandomize=True, database=None)
settings.load_profile("reproducible")


import fcntl  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """Both editions built once per test run (English at the site's root, Russian under
    ru/, each with its PDF) by scripts/build_book.py, shared by every test module and
    every xdist worker: the first to ask builds, under a lock, the others wait and reuse.
    Returns the site folder and the build's result (return codes and logs)."""
    import build_book

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # shared by the workers of this run
    out, done = root / "book", root / "book.json"
    with open(root / "book.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            for script in ("vendor_assets.sh", "ensure_browser.sh"):
                ran = subprocess.run(["bash", str(Path(__file__).resolve().parent.parent
                                                  / "scripts" / script)],
                                     capture_output=True, text=True)
                assert ran.returncode == 0, f"scripts/{script}:\n{ran.stdout}\n{ran.stderr}"
            done.write_text(json.dumps(build_book.build(out)))
    return build_book.site(out), json.loads(done.read_text())
