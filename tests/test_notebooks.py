"""Every chapter re-executes with papermill: once with its defaults, once with the
changed parameters it declares, into a temporary folder (never over the stored copy)."""

import json

import pytest

from notebooks import chapters, declared_parameters, execute, text_outputs

CHAPTERS = chapters()


def _ids(paths):
    return [p.stem for p in paths]


@pytest.mark.parametrize("path", CHAPTERS, ids=_ids(CHAPTERS))
def test_chapter_shape(path):
    nb = json.loads(path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert "parameters" in code[0]["metadata"].get("tags", []), \
        "the first code cell must be tagged 'parameters' so papermill can inject values"
    assert nb["cells"][0]["cell_type"] == "markdown" and \
        nb["cells"][0]["source"][0].startswith("# "), "a chapter opens with its title"
    assert declared_parameters(path), "declare metadata.reliability.test_parameters"
    for cell in code:
        assert cell.get("execution_count") or not cell.get("outputs"), \
            "stored outputs need execution counts (regenerate with `make outputs`)"
    for cell in code:
        if "interact(" in "".join(cell["source"]):
            tags = set(cell["metadata"].get("tags", []))
            assert {"remove-output", "nbval-ignore-output"} <= tags, \
                "tag the explorer remove-output (no kernel on the page) and nbval-ignore-output"
    text = "".join("".join(c["source"]) for c in nb["cells"])
    for required in ("Teach it from one cell", "{exercise}", "{solution", "interact"):
        assert required in text, f"the chapter's ending lacks {required!r}"


@pytest.mark.parametrize("path", CHAPTERS, ids=_ids(CHAPTERS))
def test_chapter_runs_with_defaults_and_with_changed_parameters(path, tmp_path):
    default = execute(path, tmp_path / f"default-{path.name}")
    changed_parameters = declared_parameters(path)
    changed = execute(path, tmp_path / f"changed-{path.name}", changed_parameters)
    injected = [c for c in changed.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert injected, "papermill found no parameters cell to inject after"
    assert text_outputs(default) != text_outputs(changed), \
        f"changing {changed_parameters} changed no output: is the parameter used?"
