#!/usr/bin/env python3
"""Fails when the modules of a crate import each other in a cycle.

Usage: module_cycles.py SRC_DIR [SRC_DIR ...]

A crate's file modules (`a/b.rs` and `a/b/mod.rs` are `a::b`) and the `crate::`, `super::` and
`self::` paths each file names outside comments and its `#[cfg(test)] mod tests`; an edge runs
from a module to the deepest module a path names. A module naming its own parent or child is
no edge (Rust's module tree, not an import between peers). A cycle is a strongly connected
set of two or more modules: each is printed with its edges, and the exit status is 1.
"""
import os
import re
import sys


def modules(root):
    found = {}
    for directory, _, files in os.walk(root):
        for name in files:
            if name.endswith(".rs"):
                path = os.path.join(directory, name)
                parts = os.path.relpath(path, root)[:-3].split(os.sep)
                if parts[-1] in ("mod", "lib", "main"):
                    parts = parts[:-1]
                found["::".join(parts)] = path
    return found


def resolve(found, module, path):
    segments = path.split("::")
    if segments[0] == "crate":
        base, segments = [], segments[1:]
    else:
        # A module's path is the same whatever its file (`a/b.rs` or `a/b/mod.rs`): `self` is
        # the module, each `super` one level up.
        base = module.split("::") if module else []
        if segments[0] == "self":
            segments = segments[1:]
        while segments and segments[0] == "super":
            base, segments = base[:-1], segments[1:]
    full = base + segments
    for n in range(len(full), 0, -1):
        name = "::".join(full[:n])
        if name in found:
            return name
    return None


def use_paths(tree, prefix=""):
    """The paths of a `use` tree (`a::{b, c::{d, e}}` gives a::b, a::c::d, a::c::e)."""
    tree = tree.strip()
    if not tree:
        return []
    depth, start, top = 0, None, []
    for i, ch in enumerate(tree):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                top.append((start, i))
    if not top:
        return [prefix + tree.split(" as ")[0].strip()]
    start, end = top[0]
    head = prefix + tree[:start]
    items, depth, last = [], 0, start + 1
    for i in range(start + 1, end):
        ch = tree[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(tree[last:i])
            last = i + 1
    items.append(tree[last:end])
    return [p for item in items for p in use_paths(item, head)]


def edges_of(found):
    edges = {m: set() for m in found}
    for module, path in found.items():
        with open(path, encoding="utf-8") as f:
            source = f.read()
        cut = source.find("#[cfg(test)]\nmod tests")
        if cut >= 0:
            source = source[:cut]
        source = re.sub(r"//[^\n]*", "", source)
        paths = re.findall(r"\b((?:crate|super|self)(?:::\w+)+)", source)
        for tree in re.findall(r"\buse\s+([^;]*);", source):
            paths += [p for p in use_paths(tree) if re.match(r"(crate|super|self)::\w", p)]
        for path_text in paths:
            target = resolve(found, module, path_text)
            if (
                target is not None
                and target != module
                and not module.startswith(target + "::")
                and not target.startswith(module + "::")
            ):
                edges[module].add(target)
    return edges


def cycles(edges):
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main(roots):
    status = 0
    for root in roots:
        edges = edges_of(modules(root))
        for component in cycles(edges):
            status = 1
            print(f"{root}: modules importing each other in a cycle:")
            for module in component:
                inside = sorted(t for t in edges[module] if t in component)
                print(f"  {module or 'crate'} -> {', '.join(inside)}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
