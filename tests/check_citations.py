#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Citations into docs/spec/ hold, and nothing points outside the repository. Over every text
file of the tree (git's tracked and untracked-but-not-ignored files from ROOT, or a walk of ROOT
when it is not a git checkout; binary files, node_modules and build folders skipped):
  (a) every citation of a restated specification, "docs/spec/NAME.md" (or "spec/NAME.md")
      followed by a section sign and a number, names an existing file with a heading of exactly
      that number ("## 7 Title", "### 7.1 Title"). The path and the section sign may be split
      over two lines, the second starting with a comment marker (*, #, //). A range (5.1-5.4,
      with or without a second section sign, hyphen or en dash) checks both ends; a list joined
      by ", " or " and " checks every member. Inside a docs/spec file a section sign with no
      path refers to that file, and "NAME.md" followed by a section sign, with no folder, to its
      sibling docs/spec/NAME.md when one exists;
  (b) no file names the sibling shared folder by a relative path, the shared spec folder, or an
      absolute path under the machine's work folder (the patterns are built from pieces, so
      this file passes its own check);
  (c) in the documentation (docs/*.md, README.md), every repository path that names a source
      file (src/, include/, tests/, tools/, scripts/, bench/, contrib/, cmake/, proto/, with a
      source or text extension) or a folder (trailing "/") exists; "{a,b}" expands. Program
      names without an extension (bench/prove) and paths inside a longer path (the build
      tree's <build>/src/...) are not checked.
Usage: check_citations.py ROOT        (the repository root; exit 1 listing every violation)
       check_citations.py --self-test (planted violations must be reported, a good citation not)"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

SEC = "\u00a7"  # the section sign, kept out of this file's text so that (a) skips it
NUM = r"\d+(?:\.\d+)*"
# path, then an optional line break with a comment marker, then the section sign and a number
BREAK = r"(?:[ \t]*\r?\n[ \t]*(?:\*|#+|//+|--)?)?[ \t]*"
CITE = re.compile(r"(?<![\w./-])((?:docs/)?spec/|)([A-Za-z0-9_.-]+)\.md" + BREAK + SEC + "(" + NUM
                  + ")")
# after a number: a range end, or another member of a list
RANGE = re.compile(r"[ \t]*[-\u2013][ \t]*" + SEC + "?(" + NUM + ")")
LISTED = re.compile(r"(?:,[ \t]*|[ \t]+and[ \t]+|[ \t]*/[ \t]*)" + SEC + "(" + NUM + ")")
BARE = re.compile(SEC + "(" + NUM + ")")
HEADING = re.compile(r"^#{1,6}[ \t]+(" + NUM + r")[ \t]+\S", re.M)
# (b): built from pieces
FORBIDDEN = [
    (re.compile(re.escape("..") + "/" + "shared"), "a path to the shared folder outside the repository"),
    (re.compile("shared" + "/" + "spec"), "the outside specification folder"),
    (re.compile(r"(?<![\w.~/-])" + "/" + "work" + "/"), "an absolute path under the work folder"),
]
# (c): a repository path in the docs, and the extensions that make it a file's name
DOC_PATH = re.compile(r"(?<![\w/.<>-])((?:src|include|tests|tools|scripts|bench|contrib|cmake|proto)/"
                      r"[A-Za-z0-9_./{},-]+)")
DOC_FILE = re.compile(r"\.(?:c|h|inc|S|py|sh|cmake|md|proto|mjs|toml|json|service|in|txt)$")
SKIP_DIRS = {".git", "node_modules", "CMakeFiles", "_deps", "__pycache__"}


def skipped_dir(name):
    return name in SKIP_DIRS or name == "build" or name.startswith("build-")


def files_of(root):
    """Relative paths of the files to check."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], capture_output=True, check=True).stdout
        top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"],
                             capture_output=True, check=True, text=True).stdout.strip()
        if pathlib.Path(top).resolve() == pathlib.Path(root).resolve():
            names = sorted({n for n in out.decode("utf-8", "replace").split("\0") if n})
            return [n for n in names
                    if not any(skipped_dir(p) for p in pathlib.PurePosixPath(n).parts[:-1])]
    except (OSError, subprocess.CalledProcessError):
        pass
    names = []
    for d, dirs, fs in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not skipped_dir(x))
        for f in sorted(fs):
            names.append(os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/"))
    return names


def read_text(path):
    """The file's text, or None if it is binary or missing."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


class Specs:
    """The heading numbers of docs/spec/NAME.md, read once each."""

    def __init__(self, root):
        self.root, self.cache = pathlib.Path(root), {}

    def numbers(self, name):
        if name not in self.cache:
            text = read_text(self.root / "docs" / "spec" / (name + ".md"))
            self.cache[name] = None if text is None else set(HEADING.findall(text))
        return self.cache[name]


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def numbers_after(text, start, first):
    """The first number, the end of a range after it, and every listed member (with ranges)."""
    nums, pos = [first], start
    while True:
        m = RANGE.match(text, pos)
        if m:
            nums.append(m.group(1))
            pos = m.end()
            continue
        m = LISTED.match(text, pos)
        if m:
            nums.append(m.group(1))
            pos = m.end()
            continue
        return nums, pos


def check_text(rel, text, specs, bad, root=None):
    in_spec = rel.startswith("docs/spec/") and rel.endswith(".md") and rel.count("/") == 2
    own = rel[len("docs/spec/"):-3] if in_spec else None
    covered = []  # spans of the text already taken by a citation
    for m in CITE.finditer(text):
        folder, name, first = m.group(1), m.group(2), m.group(3)
        nums, end = numbers_after(text, m.end(), first)
        if not folder:
            # "NAME.md" and a section with no folder: a sibling spec, only inside docs/spec
            if not (in_spec and specs.numbers(name) is not None):
                covered.append((m.start(), end))
                continue
        covered.append((m.start(), end))
        where = f"{rel}:{line_of(text, m.start())}"
        have = specs.numbers(name)
        cited = f"docs/spec/{name}.md"
        if have is None:
            bad.append(f"{where}: cites {cited}, which does not exist")
            continue
        for n in nums:
            if n not in have:
                bad.append(f"{where}: cites {cited} {SEC}{n}, which has no heading numbered {n}")
    if in_spec and specs.numbers(own) is not None:
        have = specs.numbers(own)
        for m in BARE.finditer(text):
            if any(a <= m.start() < b for a, b in covered):
                continue
            nums, end = numbers_after(text, m.end(), m.group(1))
            covered.append((m.start(), end))
            for n in nums:
                if n not in have:
                    bad.append(f"{rel}:{line_of(text, m.start())}: {SEC}{n} (this file) has no "
                               f"heading numbered {n}")
    for pattern, what in FORBIDDEN:
        for m in pattern.finditer(text):
            bad.append(f"{rel}:{line_of(text, m.start())}: {what}: '{m.group(0)}'")
    if root is not None and (rel == "README.md" or (rel.startswith("docs/") and rel.count("/") == 1
                                                     and rel.endswith(".md"))):
        for m in DOC_PATH.finditer(text):
            path = m.group(1).rstrip(".,:;")
            for p in expand(path):
                if (p.endswith("/") or DOC_FILE.search(p)) and not (root / p).exists():
                    bad.append(f"{rel}:{line_of(text, m.start())}: names {p}, which does not exist")


def expand(path):
    """a/{b,c}.h -> a/b.h, a/c.h (one brace group)."""
    m = re.match(r"([^{]*)\{([^}]*)\}(.*)$", path)
    return [m.group(1) + o + m.group(3) for o in m.group(2).split(",")] if m else [path]


def check(root):
    root = pathlib.Path(root)
    specs, bad, checked = Specs(root), [], 0
    for rel in files_of(root):
        text = read_text(root / rel)
        if text is None:
            continue
        checked += 1
        check_text(rel, text, specs, bad, root)
    return checked, bad


def self_test():
    """A small tree with one spec file: each planted violation is reported, good citations not."""
    spec_md = "# A spec\n\n## 1 One\n\n### 1.2 Two\n\n## 5 Five\n\nSee " + SEC + "1.2 and " + SEC \
        + "5.\n"
    good = ("/* docs/spec/a.md " + SEC + "1.2, docs/spec/a.md " + SEC + "1-" + SEC + "5, spec/a.md "
            + SEC + "5, docs/spec/a.md\n * " + SEC + "1 */\n")
    cases = {
        "src/x.c": "/* docs/spec/a.md " + SEC + "9 */\n",                  # no such heading
        "src/y.c": "/* docs/spec/nosuch.md " + SEC + "1 */\n",             # no such file
        "src/z.c": "/* see docs/spec/a.md\n * " + SEC + "7 */\n",          # split over two lines
        "tools/r.py": "# docs/spec/a.md\n# " + SEC + "1.9\n",              # split, '#' comment
        "docs/r.md": "docs/spec/a.md " + SEC + "1\u20135.4\n",             # a range's bad end
        "docs/l.md": "docs/spec/a.md " + SEC + "1.2, " + SEC + "6\n",      # a list's bad member
        "docs/spec/b.md": "## 1 B\n\nAs " + SEC + "3 says.\n",             # bare, this file
        "docs/spec/c.md": "## 1 C\n\nSee a.md " + SEC + "4.\n",            # a sibling, by name
        "docs/s.md": "read " + ".." + "/" + "shared/x.md\n",               # the shared folder
        "docs/t.md": "in " + "shared" + "/" + "spec" + "/x.md\n",          # the outside spec
        "tests/u.sh": "cat " + "/" + "work" + "/main/x\n",                 # an absolute path
        "docs/p.md": "in `src/gone.c` and `src/good.c`\n",                # a source that is not there
        "docs/q.md": "the `src/{good,gone}.c` pair\n",                     # ... inside braces
        "README.md": "see src/nodir/ for it\n",                           # a folder that is not there
    }
    ok = True

    def tree(d, extra):
        for p, body in [("docs/spec/a.md", spec_md), ("src/good.c", good)] + extra:
            full = os.path.join(d, p)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(body)

    for path, body in cases.items():
        with tempfile.TemporaryDirectory() as d:
            tree(d, [(path, body)])
            _, bad = check(d)
            if not any(b.startswith(path + ":") for b in bad):
                print(f"self-test: planted {body.strip()!r} in {path} was not reported")
                ok = False
            if any(b.startswith("src/good.c") or b.startswith("docs/spec/a.md") for b in bad):
                print(f"self-test: a good citation was reported: {bad}")
                ok = False
    with tempfile.TemporaryDirectory() as d:
        tree(d, [("bin/blob", "\0docs/spec/a.md " + SEC + "9\n")])   # binary: skipped
        checked, bad = check(d)
        if bad or checked != 2:
            print(f"self-test: a clean tree gave {checked} files and {bad}")
            ok = False
    print("check_citations self-test:", "ok" if ok else "FAILED")
    return 0 if ok else 1


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    checked, bad = check(sys.argv[1])
    for b in bad:
        print(b)
    print(f"check_citations: {checked} files, {len(bad)} violations")
    return 1 if bad or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
