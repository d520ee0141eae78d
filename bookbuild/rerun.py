"""Re-run a chapter with other parameter values, leaving its stored copy alone.

    .venv/bin/python -m bookbuild rerun chapters/01_chain_decay.ipynb /tmp/out.ipynb \\
        -p error 0.01 -p silent 0.01

The README's papermill recipe, wrapped: a name the chapter's parameters cell does not
have, or a value outside the range ``reliability.parameters`` gives it, is refused before
the chapter starts (papermill alone would run a misspelt ``-p eror 0.2`` on the defaults).
The chapter runs in its own folder, like the stored copy. Reads the chapter; writes
only the output notebook named.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from reliability.parameters import CHAPTERS, check_parameters

from .run import execute, parameter_defaults


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Re-run a chapter with other parameters, checked before it starts.")
    parser.add_argument("chapter", type=Path, help="chapters/NN_name.ipynb")
    parser.add_argument("output", type=Path, help="where the executed copy goes")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", default=[],
                        metavar=("NAME", "VALUE"), help="a parameter and its new value")
    return parser.parse_args(argv)


def checked_parameters(chapter: Path, pairs: list[list[str]]) -> dict:
    """The new values as papermill would read them (YAML), or ``ValueError`` naming a
    parameter the chapter lacks or a value it refuses."""
    defaults = parameter_defaults(chapter)
    # papermill reads -p values as YAML: 0.2 is a float, 3 an int, text a string.
    new = {name: yaml.safe_load(value) for name, value in pairs}
    unknown = sorted(set(new) - set(defaults))
    if unknown:
        raise ValueError(f"{chapter.name} has no parameter {', '.join(unknown)}; "
                         f"its parameters are {', '.join(defaults)}")
    if chapter.stem in CHAPTERS:
        check_parameters(chapter.stem, **(defaults | new))
    return new


def main(argv: list[str]) -> int:
    args = parse(argv)
    if not args.chapter.is_file():
        print(f"rerun: no chapter at {args.chapter}", file=sys.stderr)
        return 2
    try:
        parameters = checked_parameters(args.chapter, args.parameter)
    except ValueError as error:
        print(f"rerun: {error}", file=sys.stderr)
        return 2
    execute(args.chapter.resolve(), args.output.resolve(), parameters)
    print(f"rerun: {args.chapter.name} with {parameters or 'its defaults'} -> {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
