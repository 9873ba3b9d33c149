#!/usr/bin/env python3
"""Checks the links of the built book (`mdbook build docs`): every relative link names a page
that exists and, with a `#fragment`, an element of that page with that id. External links
(http, https, mailto) are not fetched: the build machine has no internet.

    python3 .ci/check_links.py docs/book
"""
import html.parser
import os
import sys
import urllib.parse


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])


def main(root):
    pages = {}
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".html"):
                path = os.path.normpath(os.path.join(folder, name))
                page = Page()
                with open(path, encoding="utf-8") as f:
                    page.feed(f.read())
                pages[path] = page
    broken = []
    for path, page in sorted(pages.items()):
        if os.path.basename(path) in ("404.html", "print.html", "toc.html"):
            continue
        for link in page.links:
            parts = urllib.parse.urlsplit(link)
            if parts.scheme or link.startswith("//"):
                continue
            target = path if not parts.path else os.path.normpath(
                os.path.join(os.path.dirname(path), urllib.parse.unquote(parts.path)))
            if os.path.isdir(target):
                target = os.path.join(target, "index.html")
            if target not in pages:
                if not os.path.exists(target):
                    broken.append(f"{path}: {link} (no such file)")
                continue
            if parts.fragment and urllib.parse.unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{path}: {link} (no element with that id)")
    for line in broken:
        print(line)
    print(f"{len(pages)} pages, {sum(len(p.links) for p in pages.values())} links, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "docs/book"))
