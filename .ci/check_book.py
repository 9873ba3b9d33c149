#!/usr/bin/env python3
"""Looks at the built book (`mdbook build docs`) as a user would, in headless Chromium:
screenshots of the landing page, a function page and a search, and checks that the search
finds a function on its reference page and that a page's navigation leads on.

    python3 .ci/check_book.py docs/book [screenshots-dir]
"""
import os
import shutil
import subprocess
import sys
import tempfile

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,900", "--hide-scrollbars", "--virtual-time-budget=5000"]


def chromium(profile, *args):
    out = subprocess.run(["chromium", *FLAGS, f"--user-data-dir={profile}", *args],
                         capture_output=True, text=True, timeout=120)
    return out.stdout


def main(book, shots):
    if shutil.which("chromium") is None:
        print("SKIPPED: no chromium (apt-get install chromium)")
        return 0
    book = os.path.abspath(book)
    os.makedirs(shots, exist_ok=True)
    failures = []
    with tempfile.TemporaryDirectory() as profile:
        for name, page in [("landing", "index.html"), ("function", "functions/indexing.html"),
                           ("search", "index.html?search=tensor_argsort")]:
            path = os.path.join(shots, f"{name}.png")
            chromium(profile, f"--screenshot={path}", f"file://{book}/{page}")
            if not os.path.exists(path) or os.path.getsize(path) < 20000:
                failures.append(f"{name}: no screenshot, or a blank one ({path})")
        dom = chromium(profile, "--dump-dom", f"file://{book}/index.html?search=tensor_argsort")
        if "#tensor_argsort" not in dom or "search results for" not in dom:
            failures.append("the search for tensor_argsort does not list its reference entry")
        dom = chromium(profile, "--dump-dom", f"file://{book}/concepts/nulls.html")
        for link in ['href="../functions/index.html"', 'rel="next', 'rel="prev']:
            if link not in dom:
                failures.append(f"concepts/nulls.html has no {link} (sidebar or page navigation)")
    for failure in failures:
        print(failure)
    print(f"screenshots in {shots}; {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "docs/book",
                  sys.argv[2] if len(sys.argv) > 2 else "target/book-screenshots"))
