"""A test run leaves nothing behind in the system's temporary folder: the IPython profile
that makes ``interact`` call its function once (bookbuild/run.py) lives as long as
the run that uses it."""

import tempfile

import nbformat

from bookbuild.run import execute


def test_the_interact_once_profile_goes_with_its_run(tmp_path, monkeypatch):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from ipywidgets import IntSlider, interact\n"
        "interact(lambda n: print('ran with', n), n=IntSlider(value=3, min=0, max=5));")])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    source = tmp_path / "one.ipynb"
    nbformat.write(notebook, str(source))
    ran = execute(source, tmp_path / "out.ipynb", widgets=False)
    printed = "".join(o.get("text", "") for o in ran.cells[0].outputs)
    assert printed == "ran with 3\n", "the stand-in called the function once, no widget"
    assert not list(temporary.glob("ipython-interact-once-*")), "its profile was left"
