"""benchmarks/process_cpu.py: a command's processor time by kind of process, which the
README's account of the test run's time quotes."""

import importlib.util
import sys
from pathlib import Path

import pytest

# loaded from its file: benchmarks/ is a folder of scripts, not a package
_SPEC = importlib.util.spec_from_file_location(
    "process_cpu", Path(__file__).resolve().parents[1] / "benchmarks" / "process_cpu.py")
process_cpu = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(process_cpu)


def test_kinds_are_named_by_their_command_line():
    assert process_cpu.kind("/usr/lib/chromium/chromium --type=renderer").startswith(
        "Chromium")
    assert process_cpu.kind("python -m ipykernel_launcher -f k.json").startswith("kernels")
    assert process_cpu.kind("python -m bookbuild.slides --draw {}").startswith(
        "the build's figure runs")
    assert process_cpu.kind("/bin/tar xf a.tar") == "other: tar"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_a_busy_child_is_counted_and_its_exit_code_kept(capsys):
    spin = "import time\nend = time.process_time() + 1.5\nwhile time.process_time() < end: pass"
    code = process_cpu.main(["--every", "0.2", "--", sys.executable, "-c",
                             spin + "\nraise SystemExit(3)"])
    assert code == 3
    report = capsys.readouterr().out
    counted = [line for line in report.splitlines() if line.endswith("other: python3")
               or line.endswith("other: python")]
    assert counted and float(counted[0].split()[0]) >= 1, report
    assert "busy" in report
