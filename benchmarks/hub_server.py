"""What one student's server needs on a hub: run every launch notebook in its own kernel
and report the kernel's peak memory and CPU time, and a Jupyter server's own memory.

    .venv/bin/python benchmarks/hub_server.py [notebooks/01_chain_decay.ipynb ...]

Peak memory is the kernel process's high-water mark of resident memory (VmHWM in
/proc/<pid>/status, Linux), read after the last cell and before the kernel stops; CPU is
the kernel's user + system time. A student runs one chapter at a time, so a server needs
the Jupyter server's memory plus the largest kernel's, with headroom for a second kernel
left open. The README's "Teach with a JupyterHub" section quotes this table.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.request import urlopen

import nbformat
from jupyter_client import KernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def _status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise ValueError(f"no {field} for process {pid}")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def run(path: Path, folder: Path) -> dict:
    """Execute ``path`` (a copy, in ``folder``) and measure its kernel."""
    nb = nbformat.read(path, as_version=4)
    # a kernel manager of our own: nbclient starts the kernel but leaves it running
    # (it stops only kernels whose manager it made), so it can be measured afterwards
    manager = KernelManager(kernel_name="python3")
    client = NotebookClient(nb, km=manager, timeout=600,
                            resources={"metadata": {"path": str(folder)}})
    started = time.monotonic()
    try:
        client.execute()
        pid = manager.provisioner.process.pid
        peak, cpu = _status_kb(pid, "VmHWM"), _cpu_seconds(pid)
    finally:
        manager.shutdown_kernel(now=True)
    return {"notebook": path.name, "peak_mb": peak / 1024, "cpu_s": cpu,
            "wall_s": time.monotonic() - started}


def server_mb() -> float:
    """Resident memory of an idle Jupyter server (JupyterLab's where it is installed,
    as in the course image) after it has answered its first requests."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as home:
        try:
            import jupyterlab  # noqa: F401
            app = "jupyterlab"
        except ImportError:  # the build environment has the server but not the Lab
            app = "jupyter_server"
        command = [sys.executable, "-m", app, "--no-browser", f"--port={port}",
                   "--ServerApp.token=", f"--ServerApp.root_dir={home}"]
        if os.geteuid() == 0:
            command.append("--allow-root")
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, env={**os.environ,
                                                                  "HOME": home})
        try:
            for _ in range(120):
                try:
                    urlopen(f"http://127.0.0.1:{port}/api/status", timeout=2)
                    break
                except OSError:
                    time.sleep(0.5)
            urlopen(f"http://127.0.0.1:{port}/api/contents", timeout=30).read()
            return _status_kb(server.pid, "VmHWM") / 1024
        finally:
            server.terminate()
            server.wait(timeout=30)


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for path in paths:
            copy = Path(folder) / path.name
            shutil.copy(path, copy)
            try:
                row = run(copy, Path(folder))
            except CellExecutionError as error:
                print(f"| {path.name} | failed: {str(error).splitlines()[-1][:70]} |")
                continue
            rows.append(row)
            print(f"| {row['notebook']} | {row['peak_mb']:.0f} MB "
                  f"| {row['cpu_s']:.1f} s | {row['wall_s']:.1f} s |", flush=True)
    print(f"largest kernel: {max(r['peak_mb'] for r in rows):.0f} MB; "
          f"idle Jupyter server: {server_mb():.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
