import sys
from pathlib import Path

# The papermill helpers live in scripts/ so that `make outputs` and the tests share them.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
