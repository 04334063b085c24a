"""The `mariage` command: replay records, check the profile (and, later, catalogs and examples).

Every user mistake ends in one short message on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from .errors import MariageError
from .notation import load_record_file, read_records, replay
from .profile import DEFAULT_PROFILE, load_profile


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mariage", description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default=str(DEFAULT_PROFILE),
                        help="rules profile (default: rules/mariage.yaml)")
    commands = parser.add_subparsers(dest="command", required=True)
    rp = commands.add_parser("replay", help="replay hand or game records, one JSON line each")
    rp.add_argument("files", nargs="+", metavar="FILE", help="record files; - reads stdin")
    commands.add_parser("check-profile", help="validate the rules profile")
    args = parser.parse_args(argv)
    try:
        profile = load_profile(args.profile)
        if args.command == "check-profile":
            print(f"{args.profile}: valid ({len(profile.rulings)} rulings)")
            return 0
        return _replay(args.files, profile)
    except MariageError as exc:
        print(f"mariage: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 1


def _replay(files: Sequence[str], profile) -> int:
    status = 0
    for name in files:
        try:
            if name == "-":
                records = read_records(sys.stdin.read(), "<stdin>")
            else:
                records = load_record_file(name)
        except MariageError as exc:
            print(f"mariage replay: {exc}", file=sys.stderr)
            status = 2
            continue
        for record in records:
            result = replay(record.data, profile)
            if "error" in result:
                status = max(status, 1)
            print(json.dumps(result, ensure_ascii=False), flush=True)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
