"""A class on a real JupyterHub, on this machine: two students open the same nbgitpuller
link (bookbuild/hub_links.py) for a chapter, each gets their own copy in their own
server, runs it in their own kernel, and one student's edit survives the teacher's next
commit and the next pull without reaching the other student.

Then the homework, handed in at class scale: the teacher's handout branch (no key in
it), two students fill in their homework in their own servers, and the grader collects
every student's notebook from the home folders (the shared volume) and grades them.

The hub runs from a temporary folder with the dummy authenticator (one shared password),
the simple local-process spawner (one home folder per student under the temporary
folder), configurable-http-proxy from node_modules (package.json) and free ports on
127.0.0.1. The repository it pulls is a local clone of this one. About 40 s a
test."""

from __future__ import annotations

import csv
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

requests = pytest.importorskip("requests")

ROOT = Path(__file__).resolve().parent.parent
from bookbuild import grade, homework, hub_links  # noqa: E402

PROXY = ROOT / "node_modules" / ".bin" / "configurable-http-proxy"
CHAPTER = "notebooks/01_chain_decay.ipynb"
PASSWORD = "class-of-2027"
STUDENTS = ("ada", "boris")
TIMEOUT = 90


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is dead for our purposes
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "\nState:\tZ" in status.read_text())


def _git(*args, cwd):
    subprocess.run(["git", "-c", "user.name=Teacher", "-c", "user.email=t@example.edu",
                    *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@pytest.fixture
def hub(tmp_path):
    """A running hub; yields its address and an admin token, stops it and checks that
    the hub, the proxy and every student's server are gone."""
    for module in ("jupyterhub", "nbgitpuller", "websocket"):
        pytest.importorskip(module, reason="pip install -r requirements.txt")
    if not PROXY.exists():
        pytest.fail("configurable-http-proxy is missing: run scripts/vendor_assets.sh "
                    "(npm ci)")
    port, hub_port, api_port = _free_port(), _free_port(), _free_port()
    token = secrets.token_hex(16)
    bin_dir = Path(sys.executable).parent
    (tmp_path / "home").mkdir()
    # a student's kernel has the package installed, not the repository: a copy of
    # reliability alone on its path (this checkout's, so the test tests this code)
    library = grade.student_library(tmp_path)
    # and, like an image built from the handout branch, no build code: this environment's
    # editable install would import the checkout's (the grader's student kernel, as
    # "python3", the kernel a student's notebook asks for)
    kernel = grade.student_kernel(tmp_path / "kernel", library, name="python3")
    config = tmp_path / "jupyterhub_config.py"
    config.write_text(textwrap.dedent(f"""
        c.JupyterHub.ip = "127.0.0.1"
        c.JupyterHub.port = {port}
        c.JupyterHub.hub_ip = "127.0.0.1"
        c.JupyterHub.hub_port = {hub_port}
        c.JupyterHub.db_url = "sqlite:///{tmp_path}/hub.sqlite"
        c.JupyterHub.cookie_secret_file = "{tmp_path}/cookie_secret"
        c.ConfigurableHTTPProxy.command = ["{PROXY}"]
        c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
        c.ConfigurableHTTPProxy.pid_file = "{tmp_path}/proxy.pid"
        c.JupyterHub.authenticator_class = "dummy"
        c.DummyAuthenticator.password = "{PASSWORD}"
        c.Authenticator.allow_all = True
        c.JupyterHub.spawner_class = "simple"
        c.SimpleLocalProcessSpawner.home_dir_template = "{tmp_path}/home/{{username}}"
        c.Spawner.cmd = ["{bin_dir / 'jupyterhub-singleuser'}"]
        c.Spawner.default_url = "/lab"
        # a container often runs as root, which Jupyter refuses without this
        c.Spawner.args = {["--allow-root"] if os.geteuid() == 0 else []}
        c.Spawner.start_timeout = {TIMEOUT}
        c.Spawner.http_timeout = {TIMEOUT}
        c.Spawner.environment = {{"PATH": "{bin_dir}:{os.environ.get('PATH', '')}",
                                  "PYTHONPATH": "{kernel['PYTHONPATH']}",
                                  "JUPYTER_PATH": "{kernel['JUPYTER_PATH']}"}}
        # the link's first click waits for the server instead of a spawn-pending page
        c.JupyterHub.tornado_settings = {{"slow_spawn_timeout": {TIMEOUT}}}
        c.JupyterHub.services = [{{"name": "teacher", "api_token": "{token}"}}]
        c.JupyterHub.load_roles = [{{"name": "teacher", "services": ["teacher"],
            "scopes": ["admin:users", "admin:servers", "tokens"]}}]
    """))
    log = (tmp_path / "hub.log").open("w")
    process = subprocess.Popen(
        [str(bin_dir / "jupyterhub"), "-f", str(config)], cwd=tmp_path,
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    address = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            if requests.get(f"{address}/hub/api/", timeout=5).ok:
                break
        except requests.ConnectionError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail("the hub did not start:\n" + (tmp_path / "hub.log").read_text())
        time.sleep(0.3)
    servers: list[int] = []
    try:
        yield address, token, servers, tmp_path
    finally:
        proxy_pid = (int((tmp_path / "proxy.pid").read_text())
                     if (tmp_path / "proxy.pid").exists() else None)
        process.send_signal(signal.SIGTERM)  # the hub stops the servers and the proxy
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()
        time.sleep(1)
        left = [pid for pid in servers + [proxy_pid] if pid and _alive(pid)]
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"processes left running after the hub stopped: {left}"


def _login(address: str, name: str) -> requests.Session:
    session = requests.Session()
    session.get(f"{address}/hub/login", timeout=30).raise_for_status()
    reply = session.post(f"{address}/hub/login", timeout=30, data={
        "username": name, "password": PASSWORD, "_xsrf": session.cookies.get("_xsrf")})
    reply.raise_for_status()
    # logged in: the hub starts the student's server and shows its progress page
    assert reply.url.endswith(f"/hub/spawn-pending/{name}"), reply.url
    return session


def _wait_ready(address, admin, name) -> int:
    """What the progress page waits for; the server's process id once it answers."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        server = requests.get(f"{address}/hub/api/users/{name}", headers=admin,
                              timeout=30).json()["servers"].get("", {})
        if server.get("ready"):
            return server["state"]["pid"]
        time.sleep(0.5)
    pytest.fail(f"{name}'s server did not start in {TIMEOUT} s")


def _pull(session, address, name, repo, branch):
    """What the link's page does once open: stream the pull, return its last event."""
    reply = session.get(f"{address}/user/{name}/git-pull/api", stream=True,
                        timeout=TIMEOUT, params={
                            "repo": repo, "branch": branch,
                            "targetpath": hub_links.target_folder(repo)})
    reply.raise_for_status()
    events = [json.loads(line[5:]) for line in reply.iter_lines(decode_unicode=True)
              if line and line.startswith("data:")]
    assert events and events[-1]["phase"] == "finished", events
    return events


def _run(address, name, token, path):
    """Run every code cell of the student's copy of ``path`` in a new kernel of their
    server, through the kernel's websocket; return the errors."""
    import websocket

    api = f"{address}/user/{name}/api"
    auth = {"Authorization": f"token {token}"}
    cells = requests.get(f"{api}/contents/{path}", headers=auth,
                         timeout=30).json()["content"]["cells"]
    kernel = requests.post(f"{api}/kernels", headers=auth, json={"name": "python3"},
                           timeout=60).json()["id"]
    ws = websocket.create_connection(
        f"ws{address[4:]}/user/{name}/api/kernels/{kernel}/channels",
        header=[f"Authorization: token {token}"], timeout=TIMEOUT)
    errors = []
    try:
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            msg_id = uuid.uuid4().hex
            ws.send(json.dumps({
                "header": {"msg_id": msg_id, "msg_type": "execute_request",
                           "username": name, "session": kernel, "version": "5.3"},
                "parent_header": {}, "metadata": {}, "channel": "shell",
                "content": {"code": cell["source"], "silent": False,
                            "store_history": True, "user_expressions": {},
                            "allow_stdin": False, "stop_on_error": True}}))
            while True:
                message = json.loads(ws.recv())
                if message.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                if message["msg_type"] == "error":
                    errors.append(f"{message['content']['ename']}: "
                                  f"{message['content']['evalue']}")
                if message["msg_type"] == "execute_reply":
                    break
    finally:
        ws.close()
        requests.delete(f"{api}/kernels/{kernel}", headers=auth, timeout=30)
    return errors, sum(cell["cell_type"] == "code" for cell in cells)


def test_two_students_pull_run_and_keep_their_own_edits(hub, tmp_path):
    address, admin_token, servers, _ = hub
    admin = {"Authorization": f"token {admin_token}"}
    # the teacher's repository: a clone of this one, under the real repository's name
    source = tmp_path / "teacher" / hub_links.target_folder(hub_links.repository()[0])
    _git("clone", "-q", "--depth", "1", f"file://{ROOT}", str(source), cwd=tmp_path)
    # a branch of its own: this checkout may be on a detached HEAD (CI)
    branch = "course"
    _git("checkout", "-q", "-B", branch, cwd=source)
    repo = f"file://{source}"
    link = hub_links.pull_link(address, repo, branch, CHAPTER)
    copy = f"{hub_links.target_folder(repo)}/{CHAPTER}"

    sessions, tokens = {}, {}
    for name in STUDENTS:
        sessions[name] = session = _login(address, name)
        servers.append(_wait_ready(address, admin, name))
        # the link: login cookie, user-redirect, OAuth to the server, the pull page
        page = session.get(link, timeout=TIMEOUT)
        page.raise_for_status()
        assert page.url.startswith(f"{address}/user/{name}/git-pull?"), page.url
        assert "nbgitpuller" in page.text.lower()
        _pull(session, address, name, repo, branch)
        tokens[name] = requests.post(f"{address}/hub/api/users/{name}/tokens",
                                     headers=admin, json={"note": "test"},
                                     timeout=30).json()["token"]
        assert (tmp_path / "home" / name / copy).exists()

    for name in STUDENTS:
        errors, code_cells = _run(address, name, tokens[name], copy)
        assert code_cells > 5 and not errors, (name, errors)

    # ada writes a note in her copy; the teacher commits a change to another notebook
    api = f"{address}/user/ada/api/contents/{copy}"
    auth = {"Authorization": f"token {tokens['ada']}"}
    notebook = requests.get(api, headers=auth, timeout=30).json()["content"]
    note = "Ada's note: the horizon halves when the error rate doubles."
    notebook["cells"].append({"cell_type": "markdown", "metadata": {}, "source": note})
    requests.put(api, headers=auth, timeout=30, json={
        "type": "notebook", "format": "json", "content": notebook}).raise_for_status()
    news = source / "notebooks" / "NEWS.md"
    news.write_text("Week 2: chapter 2 is ready.\n")
    _git("add", "notebooks/NEWS.md", cwd=source)
    _git("commit", "-q", "-m", "Week 2", cwd=source)

    for name in STUDENTS:
        # the same link again, then its pull: the teacher's commit merges in
        sessions[name].get(link, timeout=TIMEOUT).raise_for_status()
        _pull(sessions[name], address, name, repo, branch)
        home = tmp_path / "home" / name / hub_links.target_folder(repo)
        assert (home / "notebooks" / "NEWS.md").read_text() == news.read_text()
    ada = (tmp_path / "home" / "ada" / copy).read_text()
    boris = (tmp_path / "home" / "boris" / copy).read_text()
    assert note in ada, "ada's edit did not survive the second pull"
    assert note not in boris, "ada's edit reached boris"
    assert boris == (source / CHAPTER).read_text(), "boris's copy is not the teacher's"


def _student(address, admin, servers, name, link, repo, branch):
    """Log ``name`` in, wait for their server, follow the link and pull; their token."""
    session = _login(address, name)
    servers.append(_wait_ready(address, admin, name))
    session.get(link, timeout=TIMEOUT).raise_for_status()
    _pull(session, address, name, repo, branch)
    return requests.post(f"{address}/hub/api/users/{name}/tokens", headers=admin,
                         json={"note": "test"}, timeout=30).json()["token"]


def test_two_students_hand_in_homework_and_are_graded(hub, tmp_path):
    """The handout branch a class pulls holds no key; two students answer in their own
    servers (one with a decimal comma); ``grade collect`` gathers both notebooks from
    the homes on the shared volume and ``grade`` scores them."""
    address, admin_token, servers, _ = hub
    admin = {"Authorization": f"token {admin_token}"}
    source = tmp_path / "teacher" / hub_links.target_folder(hub_links.repository()[0])
    _git("clone", "-q", "--depth", "1", f"file://{ROOT}", str(source), cwd=tmp_path)
    # this checkout's homework (its notebooks may be newer than its last commit)
    for folder in ("notebooks", "ru/notebooks"):
        (source / folder / homework.NAME).write_bytes(
            (ROOT / folder / homework.NAME).read_bytes())
    _git("commit", "-q", "-a", "--allow-empty", "-m", "this checkout's homework",
         cwd=source)
    branch = "handout"
    grade.handout(branch, source)
    repo = f"file://{source}"
    path = f"notebooks/{homework.NAME}"
    link = hub_links.pull_link(address, repo, branch, path)
    copy = f"{hub_links.target_folder(repo)}/{path}"
    key = {label: problem.answer() for label, problem in homework.PROBLEMS.items()}
    given = {"ada": {label: repr(value) for label, value in key.items()},
             "boris": {**{label: repr(3 * value + 1) for label, value in key.items()},
                       "hw1": "0,4670"}}
    for name in given:
        token = _student(address, admin, servers, name, link, repo, branch)
        pulled = tmp_path / "home" / name / hub_links.target_folder(repo)
        assert (pulled / path).exists()
        for secret in grade.TEACHER_ONLY:
            assert not (pulled / secret).exists(), (name, secret)
        # the student's answers, typed into their copy and saved in their server
        api = f"{address}/user/{name}/api/contents/{copy}"
        auth = {"Authorization": f"token {token}"}
        notebook = requests.get(api, headers=auth, timeout=30).json()["content"]
        for cell in notebook["cells"]:
            if cell["cell_type"] == "code" and cell["source"].startswith('answer("hw'):
                label = cell["source"].split('"')[1]
                cell["source"] = cell["source"].replace("...", given[name][label], 1)
        # and a try at the key from the student's own kernel
        notebook["cells"].append({"cell_type": "code", "metadata": {}, "outputs": [],
                                  "execution_count": None,
                                  "source": "import bookbuild.homework"})
        requests.put(api, headers=auth, timeout=30, json={
            "type": "notebook", "format": "json", "content": notebook}
        ).raise_for_status()
        errors, _cells = _run(address, name, token, copy)
        assert errors == ["ModuleNotFoundError: No module named 'bookbuild'"], errors

    submitted = tmp_path / "submitted"
    assert grade.main(["collect", str(tmp_path / "home"), str(submitted)]) == 0
    assert sorted(p.name for p in submitted.iterdir()) == [
        "homework-ada.ipynb", "homework-boris.ipynb"]
    out = tmp_path / "scores.csv"
    assert grade.main([str(submitted), "--out", str(out), "--jobs", "2"]) == 0
    with open(out, newline="", encoding="utf-8") as handle:
        table = {(r["student"], r["problem"]): r for r in csv.DictReader(handle)}
    out_of = sum(p.points for p in homework.PROBLEMS.values())
    assert table["ada", "total"]["points"] == str(out_of)
    assert table["boris", "total"]["points"] == "0"
    assert table["boris", "hw1"]["verdict"] == "missing"
    assert "decimal comma" in table["boris", "hw1"]["reason"]
    assert {table["boris", label]["verdict"] for label in key if label != "hw1"} \
        == {"wrong"}
