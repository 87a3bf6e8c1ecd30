#!/usr/bin/env python3
"""Fails unless README.md's table of checks matches the registered checks.

usage: check_readme_table.py README.md LIST_CHECKS_OUTPUT

LIST_CHECKS_OUTPUT is what `clang-tidy --load=... --list-checks
-checks='-*,interop-*'` printed. Each registered check must have exactly one
table row ("| [`interop-x`](docs/checks/interop-x.md) | ..."), each row a
registered check, and each check a docs page.
"""
import os
import re
import sys


def main():
    readme_path, listing_path = sys.argv[1], sys.argv[2]
    with open(readme_path, encoding="utf-8") as f:
        readme = f.read()
    with open(listing_path, encoding="utf-8") as f:
        listing = f.read()
    registered = sorted(set(re.findall(r"^\s+(interop-[a-z0-9-]+)\s*$", listing,
                                       re.MULTILINE)))
    rows = re.findall(r"^\|\s*\[`(interop-[a-z0-9-]+)`\]", readme, re.MULTILINE)
    errors = []
    if not registered and "interop" not in listing:
        errors.append("clang-tidy listed no interop checks:\n" + listing)
    for name in sorted(set(rows)):
        if rows.count(name) > 1:
            errors.append("README lists %s more than once" % name)
    for name in registered:
        if name not in rows:
            errors.append("registered check %s has no README row" % name)
        page = os.path.join(os.path.dirname(readme_path), "docs", "checks",
                            name + ".md")
        if not os.path.exists(page):
            errors.append("registered check %s has no %s" % (name, page))
    for name in rows:
        if name not in registered:
            errors.append("README row %s is not a registered check" % name)
    for e in errors:
        print("error: " + e)
    print("%d registered checks, %d README rows" % (len(registered), len(rows)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
