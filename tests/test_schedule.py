"""The order `make test` hands its modules to the two workers in (tests/conftest.py):
the longest first, by the seconds MODULE_SECONDS gives them."""

from pathlib import Path

import conftest


def test_every_module_given_seconds_is_a_test_module():
    """A module renamed without its entry goes back to being handed out by its number
    of tests, a long one possibly last: every name must be a module here."""
    here = Path(__file__).parent
    missing = [name for name in conftest.MODULE_SECONDS if not (here / name).is_file()]
    assert not missing, f"MODULE_SECONDS (tests/conftest.py) names no module {missing}"


def test_only_loadscope_is_reordered():
    class Config:
        def getvalue(self, name):
            return {"dist": "load"}[name]

    assert conftest.pytest_xdist_make_scheduler(Config(), log=None) is None


def test_the_longest_modules_are_handed_out_first():
    """Two workers, a long module of one test among short modules of many: the long one
    goes first, where xdist would hand it out last (fewest tests)."""
    from types import SimpleNamespace

    from xdist.remote import Producer

    class Config:
        option = SimpleNamespace(loadscopereorder=True)

        def getvalue(self, name):
            return {"dist": "loadscope", "tx": ["2*popen"]}[name]

    class Worker:
        shutting_down = False

        def __init__(self, name):
            self.sent, self.gateway = [], SimpleNamespace(id=name)

        def send_runtest_some(self, indices):
            self.sent.append(indices)

        def shutdown(self):
            self.shutting_down = True

    long_one = next(iter(conftest.MODULE_SECONDS))
    collection = ([f"tests/test_many.py::test_{i}" for i in range(5)]
                  + [f"tests/test_some.py::test_{i}" for i in range(3)]
                  + [f"tests/{long_one}::test_alone"])
    scheduler = conftest.pytest_xdist_make_scheduler(
        Config(), log=Producer("test", enabled=False))
    workers = [Worker("gw0"), Worker("gw1")]
    for worker in workers:
        scheduler.add_node(worker)
        scheduler.add_node_collection(worker, collection)
    scheduler.schedule()
    first = {collection[worker.sent[0][0]].split("::")[0] for worker in workers}
    assert first == {f"tests/{long_one}", "tests/test_many.py"}, first
