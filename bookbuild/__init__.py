"""The book's build: the pipeline that turns the chapters into two editions, launch
notebooks, teacher pages, a site and PDFs. One module per stage, in the order data
flows; a stage imports only the stages before it (import-linter checks this,
pyproject.toml):

1. the chapters' sources: :mod:`.run` (papermill runs), :mod:`.outputs` (the stored
   outputs, ``make outputs``); beside them :mod:`.rerun` and :mod:`.audit_figures`;
2. the editions: :mod:`.catalogs` (``locale/ru/`` kept in step with the English pages),
   :mod:`.edition` (the Russian book in ``ru/``);
3. the launch notebooks: :mod:`.homework` (the homework set), :mod:`.launch_notebooks`
   (``notebooks/``, ``ru/notebooks/``); beside them :mod:`.grade` (grading homework);
4. the teacher pages: :mod:`.teacher_page`, :mod:`.hub_links`;
5. the site: :mod:`.site` (Jupyter Book, both editions, maths prerendered);
6. the PDFs: :mod:`.book_pdf`.

One entry point runs them, ``python -m bookbuild COMMAND`` (:mod:`.__main__`), which the
Makefile calls. Each module's docstring says what it reads and what it writes. The
package a student installs (``reliability``) never imports this one.
"""
