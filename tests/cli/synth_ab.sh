#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk-bench synth-ab end to end on a 2 KiB C1 (SHAPE mode, so that it takes seconds).
#   synth_ab.sh CUZK_BENCH            time and perf counters: N interleaved pairs, per-sample and
#                                     summary lines, --json consistent with them (ratio = median B /
#                                     median A, spread = min/max of the per-pair ratios, verdict
#                                     only when the spread excludes 1), --plot a self-contained SVG
#                                     with every sample and ratio and the verdicts of --json, and
#                                     bad options exit with a message (2 for usage, 1 for a missing
#                                     valgrind or C1, or a plot that cannot be written)
#   synth_ab.sh CUZK_BENCH callgrind  A == B under callgrind: instruction counts equal within
#                                     0.1 %, "no significant difference"; exit 77 without valgrind
set -eu
B=$1
MODE=${2:-time}
D=$(mktemp -d /tmp/cuzk-synth-ab-test-XXXXXX)
trap 'rm -rf "$D"' EXIT
export TMPDIR="$D" # where synth-ab makes its directory of child outputs
. "$(dirname "$0")/lib.sh"
if [ "$MODE" = callgrind ] && ! command -v valgrind >/dev/null 2>&1; then
  echo "valgrind is not installed (Debian package 'valgrind'): skipped"
  exit 77
fi

"$B" gen-vanilla porep --sector-size 2KiB --data random:5 -o "$D/c1.json" >/dev/null

# checks a --json file: N pairs x 2 sides, every metric's summary recomputed from the samples
check_json() { # FILE PAIRS COUNTER METRICS...
  python3 - "$@" <<'PY'
import json, statistics, sys
path, pairs, counter, metrics = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
j = json.load(open(path))
assert j["counter"] == counter and j["pairs"] == pairs, (j["counter"], j["pairs"])
s = j["samples"]
assert [(x["pair"], x["side"]) for x in s] == [(p, c) for p in range(1, pairs + 1) for c in "AB"], s
names = [m["metric"] for m in j["summary"]]
for m in metrics:
    assert m in names, (m, names)
for m in j["summary"]:
    a = [x[m["metric"]] for x in s if x["side"] == "A"]
    b = [x[m["metric"]] for x in s if x["side"] == "B"]
    if 0 in a:
        continue
    ma, mb = statistics.median(a), statistics.median(b)
    assert abs(m["median_a"] - ma) <= 1e-9 * abs(ma) and abs(m["median_b"] - mb) <= 1e-9 * abs(mb), m
    assert abs(m["ratio"] - mb / ma) < 1e-6, m
    r = [y / x for x, y in zip(a, b)]
    assert abs(m["pair_ratio_min"] - min(r)) < 1e-6 and abs(m["pair_ratio_max"] - max(r)) < 1e-6, m
    eff = j["min_effect"]
    want = ("no significant difference" if not (max(r) < 1 - eff or min(r) > 1 + eff) else
            ("B faster" if max(r) < 1 - eff else "B slower"))
    if m["metric"] not in ("wall", "synth", "Ir", "task-clock-ns", "cycles", "instructions"):
        want = want.replace("faster", "lower").replace("slower", "higher")
    assert m["verdict"] == want, (m, want)
print(path, "ok:", ", ".join("%s %s" % (m["metric"], m["verdict"]) for m in j["summary"]))
PY
}

# checks a --plot file against its --json: well-formed SVG in the svg namespace, nothing that
# runs or loads (no script, href, url(, http), one group per figure in the summary's order holding
# PAIRS points of A, of B and of B/A (all finite here) and the verdict synth-ab printed
check_svg() { # SVG JSON PAIRS
  python3 - "$@" <<'PY'
import json, re, sys
import xml.etree.ElementTree as ET
svg, js, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(svg, encoding="utf-8").read()
root = ET.fromstring(text)  # raises on a file that is not well-formed
NS = "{http://www.w3.org/2000/svg}"
assert root.tag == NS + "svg", root.tag
rest = text.replace('xmlns="http://www.w3.org/2000/svg"', "", 1)
for bad in ("<script", "http:", "https:", "url(", "@import", "href", "<foreignObject", "<image"):
    assert bad not in rest, bad
for e in root.iter():
    assert e.tag.startswith(NS), e.tag  # nothing from another namespace (xlink, xhtml)
    assert not any(k.lower().startswith("on") for k in e.attrib), e.attrib  # no event handlers
summary = json.load(open(js))["summary"]
groups = [g for g in root.iter(NS + "g") if g.get("class") == "metric"]
assert [g.get("data-metric") for g in groups] == [m["metric"] for m in summary], groups
for g, m in zip(groups, summary):
    classes = [c.get("class") for c in g.iter(NS + "circle")]
    for cls in ("sample-a", "sample-b", "ratio"):
        assert classes.count(cls) == pairs, (m["metric"], cls, classes.count(cls), pairs)
    texts = ["".join(t.itertext()) for t in g.iter(NS + "text")]
    assert "verdict: " + m["verdict"] in texts, (m["verdict"], texts)
    assert any(t.startswith(m["metric"] + " (") for t in texts), texts  # the axis label, unit
all_points = [c for c in root.iter(NS + "circle") if c.get("class") in ("sample-a", "sample-b", "ratio")]
assert len(all_points) == 3 * pairs * len(summary), len(all_points)
print(svg, "ok:", len(groups), "figures,", len(all_points), "points")
PY
}

if [ "$MODE" = callgrind ]; then
  "$B" synth-ab --c1 "$D/c1.json" --shape-only --a "--lc-inline 2" --b "--lc-inline 2" -i 1 \
    --counter callgrind --json "$D/cg.json" >"$D/cg.out" || fail "callgrind run: $(cat "$D/cg.out")"
  grep -Eq '^  \[1 A\] Ir=[0-9]+$' "$D/cg.out" && grep -Eq '^  \[1 B\] Ir=[0-9]+$' "$D/cg.out" ||
    fail "no Ir per sample: $(cat "$D/cg.out")"
  grep -Eq '^Ir .* no significant difference$' "$D/cg.out" || fail "A == B: $(cat "$D/cg.out")"
  check_json "$D/cg.json" 1 callgrind Ir
  python3 - "$D/cg.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
a, b = (x["Ir"] for x in j["samples"])
assert a > 1e8 and abs(b / a - 1) < 1e-3, (a, b)  # the whole 2 KiB shape synthesis: ~5.6e8
assert j["min_effect"] == 0.001, j["min_effect"]
PY
  exit 0
fi

# time: 3 pairs (A, B interleaved), medians/ratio/spread/verdict, --json consistent
"$B" synth-ab --c1 "$D/c1.json" --shape-only --a "--lc-inline 0" --b "--lc-inline 4" -i 3 \
  --json "$D/t.json" --plot "$D/t.svg" >"$D/t.out" || fail "time run: $(cat "$D/t.out")"
[ "$(grep -c '^  \[[123] [AB]\] wall=[0-9.]*s synth=[0-9.]*s$' "$D/t.out")" = 6 ] ||
  fail "6 samples expected: $(cat "$D/t.out")"
grep -n '^  \[' "$D/t.out" | tr '\n' ' ' | grep -q '\[1 A\].*\[1 B\].*\[2 A\].*\[2 B\].*\[3 A\].*\[3 B\]' ||
  fail "not interleaved: $(cat "$D/t.out")"
grep -Eq '^synth +[0-9.]+ s +[0-9.]+ s +[0-9.]+x +[0-9.]+x\.\.[0-9.]+x  (B faster|B slower|no significant difference)$' \
  "$D/t.out" || fail "synth summary line: $(cat "$D/t.out")"
check_json "$D/t.json" 3 time wall synth
check_svg "$D/t.svg" "$D/t.json" 3

# perf: the software counters of synth-only --perf-json; says so when hardware ones are missing
"$B" synth-ab --c1 "$D/c1.json" --shape-only --a "" --b "--mode witness" -i 2 --counter perf \
  --warmup 0 --json "$D/p.json" --plot "$D/p.svg" >"$D/p.out" || fail "perf run: $(cat "$D/p.out")"
grep -q '^task-clock-ns ' "$D/p.out" || fail "no task-clock-ns: $(cat "$D/p.out")"
if grep -q '"cycles": null' "$D/p.json" 2>/dev/null || ! grep -q '^cycles ' "$D/p.out"; then
  grep -q 'hardware counters are not available' "$D/p.out" || fail "no hardware note: $(cat "$D/p.out")"
fi
check_json "$D/p.json" 2 perf wall synth task-clock-ns
check_svg "$D/p.svg" "$D/p.json" 2

# bad options: usage errors exit 2 naming the problem; a side's bad option is synth-only's message
expect() { # CODE PATTERN ARGS...
  code=$1 pat=$2
  shift 2
  set +e
  "$B" synth-ab "$@" >"$D/e.out" 2>"$D/e.err"
  rc=$?
  set -e
  [ $rc = "$code" ] || fail "synth-ab $*: exit $rc, not $code"
  grep -q -- "$pat" "$D/e.err" || fail "synth-ab $*: no '$pat' in: $(cat "$D/e.err")"
}
expect 2 'are required' --c1 "$D/c1.json" --a ""
expect 2 'counter time|perf|callgrind' --c1 "$D/c1.json" --a "" --b "" --counter cycles
expect 2 'may not contain -i' --c1 "$D/c1.json" --a "-i 3" --b ""
expect 2 'may not contain --c1' --c1 "$D/c1.json" --a "" --b "--c1 x"
expect 2 'bad option or value: --lc-inline 9' --c1 "$D/c1.json" --shape-only --a "" --b "--lc-inline 9" -i 1
expect 2 'side B ("--lc-inline 9")' --c1 "$D/c1.json" --shape-only --a "" --b "--lc-inline 9" -i 1
expect 2 'bad option or value: -i 0' --c1 "$D/c1.json" --a "" --b "" -i 0
expect 2 'min-effect' --c1 "$D/c1.json" --a "" --b "" --min-effect -1
expect 1 'cannot read' --c1 "$D/none.json" --a "" --b ""
expect 1 'cannot write .*/none/p.svg' --c1 "$D/c1.json" --shape-only --a "" --b "" -i 1 --plot "$D/none/p.svg"
set +e
env PATH=/nonexistent "$B" synth-ab --c1 "$D/c1.json" --a "" --b "" --counter callgrind 2>"$D/e.err"
rc=$?
set -e
[ $rc = 1 ] && grep -q "needs valgrind.*Debian package 'valgrind'" "$D/e.err" ||
  fail "no valgrind: exit $rc, $(cat "$D/e.err")"
# every run removed its temporary directory (TMPDIR=$D), failed ones included
for f in "$D"/cuzk-synth-ab-*; do
  [ ! -e "$f" ] || fail "temporary directory left: $f"
done
echo "synth_ab.sh $MODE: ok"
