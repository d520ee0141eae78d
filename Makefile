# Two jobs, each from a fresh clone: `make book` builds the static site from the outputs
# stored in the notebooks; `make test` runs every check. Both create .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell sha1sum requirements.txt | cut -c1-12)

.PHONY: book test outputs bench clean

$(STAMP): requirements.txt pyproject.toml
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $@

venv: $(STAMP)

# The main job: the book from stored outputs (nothing executes), into _build/html, and the
# whole book printed to one PDF inside it by headless Chromium (scripts/book_pdf.py).
book: $(STAMP)
	bash scripts/ensure_browser.sh
	bash scripts/vendor_assets.sh
	$(BIN)/jupyter-book build . -W -n --keep-going
	$(BIN)/python scripts/book_pdf.py
	@echo "Open _build/html/index.html"

# Every check: the package's tests, papermill re-runs of each chapter (defaults and a
# changed parameter), nbval of each chapter against its stored outputs, and the book
# built with warnings as errors, and every page of it opened in headless Chromium
# (installed first where missing). Executed copies go to a temporary folder.
test: $(STAMP)
	bash scripts/ensure_browser.sh
	bash scripts/vendor_assets.sh
	$(BIN)/python -m pytest -n 2 --dist loadscope -p no:cacheprovider \
		--nbval --nbval-current-env --nbval-cell-timeout 300 --nbval-sanitize-with tests/sanitize.cfg \
		tests chapters

# Regenerate the stored outputs on purpose (all chapters, or CHAPTER=chapters/x.ipynb).
outputs: $(STAMP)
	$(BIN)/python scripts/regenerate.py $(CHAPTER)

bench: $(STAMP)
	bash scripts/vendor_assets.sh
	$(BIN)/python benchmarks/simulate.py
	$(BIN)/python benchmarks/book_weight.py

clean:
	rm -rf _build
