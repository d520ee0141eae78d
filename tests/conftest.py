import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))


def pytest_collection_modifyitems(items):
    # nbval's cells of one notebook share a kernel, so they must stay on one xdist worker;
    # every other test may go wherever there is a free worker.
    for item in items:
        path = Path(str(item.fspath))
        if path.suffix == ".ipynb":
            item.add_marker(pytest.mark.xdist_group(name=path.name))
