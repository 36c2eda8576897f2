#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""contrib/grafana/cuzk.json queries only what cuzk-daemon exports (docs/metrics.md).

The exported families are read from the C source: every registration under src/ names its type
and family in one call, `..., CUZK_PROM_<TYPE>, "name", "help" ["help"...][, "label" | , NAMES`
(the label of a family with one label, as src/engine/metrics.c's family(), or an array of label
names defined in the same file, `NAMES[] = {"a", "b"}`, as src/server/daemon.c's
cuzk_build_info). With --daemon the check also starts that daemon (no parameters needed: it only
has to answer /metrics), scrapes /metrics and requires the scrape to hold exactly those families,
types and labels, so that the source reading cannot drift from what is served.

Every panel target and the templating queries are parsed with contrib/grafana/promql_lite.py (an
expression outside that subset fails). Then, for every selector:
  - the name is an exported family, or a histogram family + _bucket/_sum/_count;
  - a histogram is never read by its bare name; _bucket only inside histogram_quantile, and every
    histogram_quantile reads a _bucket series;
  - rate/increase/irate read counters or histogram series, never gauges;
  - every label in a matcher or a by/without clause is one the series carries (its own label,
    "le" on _bucket, or Prometheus's target labels instance and job);
and the dashboard is importable: the ${DS_PROMETHEUS} input, every datasource pointing at it,
unique panel ids, an instance variable that the targets use.

Usage: check_grafana.py ROOT [--daemon EXE]   (exit 1 listing every problem)
       check_grafana.py ROOT --self-test      (planted mistakes must each be reported)"""
import copy
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

TARGET_LABELS = {"instance", "job"}  # added by Prometheus to every scraped series
REGISTRATION = re.compile(
    r'CUZK_PROM_(COUNTER|GAUGE|HISTOGRAM)\s*,\s*"([a-zA-Z_:][a-zA-Z0-9_:]*)"\s*,\s*'
    r'((?:"(?:[^"\\]|\\.)*"\s*)+)(?:,\s*(?:"([a-zA-Z_][a-zA-Z0-9_]*)"|([a-zA-Z_]\w*)))?')
SUFFIXES = ("_bucket", "_sum", "_count")


def source_families(root):
    """{name: (type, {labels})} from the registrations in src/**/*.c."""
    fams = {}
    for path in sorted(pathlib.Path(root, "src").rglob("*.c")):
        text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
        for m in REGISTRATION.finditer(text):
            labels = {m.group(4)} if m.group(4) else set()
            if m.group(5):  # an array of label names (or an argument that is none: NULL, 0)
                names = re.search(rf"\b{m.group(5)}\s*\[\w*\]\s*=\s*\{{([^}}]*)\}}", text)
                labels = set(re.findall(r'"(\w+)"', names.group(1))) if names else set()
            fams[m.group(2)] = (m.group(1).lower(), labels)
    return fams


def scraped_families(text):
    """{name: (type, {labels})} from a /metrics text."""
    fams = {}
    for m in re.finditer(r"^# TYPE (\S+) (\S+)$", text, re.M):
        fams[m.group(1)] = (m.group(2), set())
    for m in re.finditer(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})? ", text, re.M):
        name = m.group(1)
        base = next((name[:-len(s)] for s in SUFFIXES
                     if name.endswith(s) and fams.get(name[:-len(s)], ("",))[0] == "histogram"),
                    name)
        if base in fams:
            fams[base][1].update(l for l in re.findall(r'([a-zA-Z_]\w*)="', m.group(2) or "")
                                 if l != "le")
    return fams


def scrape_daemon(exe):
    """Starts the daemon with a throwaway config and returns its /metrics text."""
    with tempfile.TemporaryDirectory(prefix="cuzk-grafana-") as d:
        cfg = os.path.join(d, "cuzk.toml")
        with open(cfg, "w") as f:
            f.write(f'[daemon]\nlisten = ["unix://{d}/cuzk.sock"]\nstatus_listen = "127.0.0.1:0"\n'
                    f'[srs]\nparam_cache = "{d}"\ngenerate_test_params = false\n'
                    '[synthesis]\nthreads = 1\n[pipeline]\nsynthesis_workers = 1\nprove_workers = 1\n')
        log = os.path.join(d, "daemon.log")
        with open(log, "w") as lf:
            p = subprocess.Popen([os.path.abspath(exe), "-c", cfg], stdout=lf, stderr=lf, cwd=d)
        try:
            port = None
            for _ in range(600):
                text = open(log).read()
                m = re.search(r"HTTP /metrics and /status on port (\d+)", text)
                if m and " ready" in text:
                    port = int(m.group(1))
                    break
                if p.poll() is not None:
                    break
                time.sleep(0.05)
            if port is None:
                sys.exit(f"check_grafana: the daemon did not start:\n{open(log).read()}")
            return urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30).read().decode()
        finally:
            p.terminate()
            p.wait(timeout=60)


def load_promql(root):
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    sys.path.insert(0, os.path.join(root, "contrib", "grafana"))
    import promql_lite
    return promql_lite


def expressions(dash):
    """(where, PromQL text) of every panel target and templating query."""
    out = []

    def panels(ps):
        for p in ps:
            yield p
            yield from panels(p.get("panels", []))

    for p in panels(dash.get("panels", [])):
        for t in p.get("targets", []):
            if "expr" in t:
                out.append((f'panel {p.get("id")} "{p.get("title")}" target {t.get("refId")}',
                            t["expr"]))
    for v in dash.get("templating", {}).get("list", []):
        q = v.get("query")
        q = q.get("query", "") if isinstance(q, dict) else (q or "")
        m = re.fullmatch(r"\s*label_values\((.*),\s*([a-zA-Z_]\w*)\s*\)\s*", q)
        if m:
            out.append((f'variable {v.get("name")} (label_values ... {m.group(2)})',
                        f"{m.group(1)}  # label {m.group(2)}"))
        elif v.get("type") == "query":
            out.append((f'variable {v.get("name")}', q))
    return out


def check_dashboard(dash, fams, pq):
    bad = []
    inputs = [i.get("name") for i in dash.get("__inputs", [])
              if i.get("type") == "datasource" and i.get("pluginId") == "prometheus"]
    if inputs != ["DS_PROMETHEUS"]:
        bad.append(f"__inputs: one Prometheus datasource input DS_PROMETHEUS expected, not {inputs}")
    ids = []

    def each(node, where):
        if isinstance(node, dict):
            ds = node.get("datasource")
            if isinstance(ds, dict) and ds.get("type") == "prometheus" and ds.get("uid") != "${DS_PROMETHEUS}":
                bad.append(f"{where}: datasource uid {ds.get('uid')!r}, not ${{DS_PROMETHEUS}}")
            for k, v in node.items():
                each(v, f"{where}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                each(v, f"{where}[{i}]")

    each(dash, "dashboard")

    def panels(ps):
        for p in ps:
            ids.append(p.get("id"))
            if p.get("type") != "row" and not p.get("targets"):
                bad.append(f'panel {p.get("id")} "{p.get("title")}": no targets')
            yield p
            yield from panels(p.get("panels", []))

    list(panels(dash.get("panels", [])))
    if len(ids) != len(set(ids)) or None in ids:
        bad.append(f"panel ids not unique: {ids}")
    if not any(v.get("name") == "instance" for v in dash.get("templating", {}).get("list", [])):
        bad.append("no templating variable 'instance'")

    for where, text in expressions(dash):
        label_only = None
        if "  # label " in text:
            text, label_only = text.split("  # label ")
        if label_only is None and "$instance" not in text:
            bad.append(f"{where}: does not filter on $instance: {text}")
        try:
            ast = pq.parse(text)
        except pq.PromQLError as e:
            bad.append(f"{where}: {e}")
            continue
        for node, ctx in pq.walk(ast):
            if isinstance(node, pq.Call) and node.func == "histogram_quantile":
                sels = [n for n, _ in pq.walk(node.args[1]) if isinstance(n, pq.Selector)]
                if not any(s.name.endswith("_bucket") for s in sels):
                    bad.append(f"{where}: histogram_quantile of no _bucket series")
            if isinstance(node, pq.Agg) and node.grouping:
                have = set(TARGET_LABELS)
                for s, _ in pq.walk(node.arg):
                    if isinstance(s, pq.Selector):
                        have |= labels_of(s.name, fams)
                for label in node.grouping:
                    if label not in have:
                        bad.append(f"{where}: {node.op} by ({label}): no such label on its series")
            if not isinstance(node, pq.Selector):
                continue
            name = node.name
            if name in fams:
                typ, part = fams[name][0], None
            else:
                base = next((name[:-len(s)] for s in SUFFIXES if name.endswith(s)), None)
                if base is None or base not in fams:
                    bad.append(f"{where}: {name} is not a metric the daemon exports")
                    continue
                if fams[base][0] != "histogram":
                    bad.append(f"{where}: {name}: {base} is a {fams[base][0]}, not a histogram")
                    continue
                typ, part = "histogram", name[len(base):]
            if typ == "histogram" and part is None:
                bad.append(f"{where}: {name} is a histogram: read its _bucket, _sum or _count")
                continue
            in_quantile = any(isinstance(c, pq.Call) and c.func == "histogram_quantile" for c in ctx)
            if part == "_bucket" and not in_quantile:
                bad.append(f"{where}: {name} outside histogram_quantile")
            ranged = [c.func for c in ctx if isinstance(c, pq.Call) and c.func in ("rate", "increase", "irate")]
            if ranged and typ == "gauge":
                bad.append(f"{where}: {ranged[-1]}() of the gauge {name}")
            for label, _, _ in node.matchers:
                if label not in labels_of(name, fams) | TARGET_LABELS:
                    bad.append(f"{where}: {name} has no label {label}")
        if label_only and label_only not in TARGET_LABELS | set().union(
                *(labels_of(n.name, fams) for n, _ in pq.walk(ast) if isinstance(n, pq.Selector))):
            bad.append(f"{where}: label_values of a label the series lacks: {label_only}")
    return bad


def labels_of(name, fams):
    if name in fams:
        return set(fams[name][1])
    for s in SUFFIXES:
        if name.endswith(s) and name[:-len(s)] in fams:
            return set(fams[name[:-len(s)]][1]) | ({"le"} if s == "_bucket" else set())
    return set()


def compare(src, scraped):
    bad = []
    for n in sorted(set(src) | set(scraped)):
        if n not in scraped:
            bad.append(f"{n}: registered in src/ but not in the daemon's /metrics")
        elif n not in src:
            bad.append(f"{n}: served by the daemon but not found by this check's source reading")
        elif src[n][0] != scraped[n][0] or src[n][1] != scraped[n][1]:
            bad.append(f"{n}: source says {src[n]}, /metrics says {scraped[n]}")
    return bad


def self_test(root, dash, fams, pq):
    if check_dashboard(dash, fams, pq):
        print("self-test: the real dashboard must pass first")
        return 1

    def with_expr(expr):
        d = copy.deepcopy(dash)
        next(p for p in d["panels"] if p.get("targets"))["targets"][0]["expr"] = expr
        return d

    i = '{instance=~"$instance"}'
    planted = [
        (with_expr(f"sum(cuzk_proofs_done_total{i})"), "cuzk_proofs_done_total is not a metric"),
        (with_expr(f"sum(process_cpu_seconds_total{i})"), "process_cpu_seconds_total is not"),
        (with_expr(f"sum(cuzk_queue_depth_count{i})"), "cuzk_queue_depth is a gauge"),
        (with_expr(f"sum(rate(cuzk_stage_duration_seconds{i}[5m]))"), "is a histogram: read"),
        (with_expr(f"sum(rate(cuzk_stage_duration_seconds_bucket{i}[5m]))"), "outside histogram_quantile"),
        (with_expr(f"histogram_quantile(0.9, sum by (le) (rate(cuzk_stage_duration_seconds_sum{i}[5m])))"),
         "histogram_quantile of no _bucket"),
        (with_expr(f"rate(cuzk_queue_depth{i}[5m])"), "rate() of the gauge cuzk_queue_depth"),
        (with_expr(f'sum(cuzk_proofs_completed{{instance=~"$instance",priority="0"}})'),
         "has no label priority"),
        (with_expr(f"sum by (priority) (cuzk_queue_depth{i})"), "by (priority): no such label"),
        (with_expr("sum(cuzk_queue_depth)"), "does not filter on $instance"),
        (with_expr(f"sum(cuzk_queue_depth{i}) offset 5m"), "expected end"),
        (with_expr(f"absent(cuzk_queue_depth{i})"), "unsupported function"),
    ]
    d = copy.deepcopy(dash)
    d["panels"][1]["datasource"] = {"type": "prometheus", "uid": "prometheus-local"}
    planted.append((d, "not ${DS_PROMETHEUS}"))
    d = copy.deepcopy(dash)
    d["__inputs"] = []
    planted.append((d, "__inputs"))
    d = copy.deepcopy(dash)
    d["templating"]["list"][0]["query"]["query"] = "label_values(cuzk_uptime_seconds, node)"
    planted.append((d, "label_values of a label the series lacks: node"))
    failed = 0
    for d, want in planted:
        got = check_dashboard(d, fams, pq)
        if not any(want in g for g in got):
            print(f"self-test: '{want}' not reported; got {got}")
            failed += 1
    # the source reading: a registration split over lines with a concatenated help text
    with tempfile.TemporaryDirectory() as t:
        os.makedirs(os.path.join(t, "src", "x"))
        pathlib.Path(t, "src", "x", "m.c").write_text(
            'f(e, CUZK_PROM_HISTOGRAM,\n  "a_seconds", "help "\n  "more", "stage", b, 3, &ok);\n'
            '/* g(e, CUZK_PROM_GAUGE, "commented_out", "h", &ok); */\n'
            'g(e, CUZK_PROM_GAUGE, "b_bytes", "h \\"q\\"", &ok);\n'
            'static const char *const names[] = {"version", "commit"};\n'
            'r(p, CUZK_PROM_GAUGE, "c_info",\n  "h", names, 2, NULL, 0, &m);\n'
            'r(p, CUZK_PROM_COUNTER, "d_total", "h", NULL, 0, NULL, 0, &m);\n')
        got = source_families(t)
        want = {"a_seconds": ("histogram", {"stage"}), "b_bytes": ("gauge", set()),
                "c_info": ("gauge", {"version", "commit"}), "d_total": ("counter", set())}
        if got != want:
            print(f"self-test: source reading {got}, expected {want}")
            failed += 1
    scraped = scraped_families("# TYPE a_seconds histogram\n"
                               'a_seconds_bucket{stage="x",le="1"} 0\na_seconds_sum{stage="x"} 0\n'
                               "# TYPE b_bytes gauge\nb_bytes 1\n")
    if scraped != {"a_seconds": ("histogram", {"stage"}), "b_bytes": ("gauge", set())}:
        print(f"self-test: scrape reading {scraped}")
        failed += 1
    if not compare({"a": ("gauge", set())}, {"a": ("counter", set())}):
        print("self-test: a type difference between source and scrape not reported")
        failed += 1
    n = len(planted) + 3
    print(f"check_grafana self-test: {n - failed}/{n} planted problems reported")
    return 1 if failed else 0


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    root = args[0]
    pq = load_promql(root)
    dash = json.load(open(os.path.join(root, "contrib", "grafana", "cuzk.json")))
    fams = source_families(root)
    if len(fams) < 10:
        print(f"check_grafana: only {len(fams)} metric families found in src/: the source reading broke")
        return 1
    if "--self-test" in args:
        return self_test(root, dash, fams, pq)
    bad = []
    if "--daemon" in args:
        bad += compare(fams, scraped_families(scrape_daemon(args[args.index("--daemon") + 1])))
    bad += check_dashboard(dash, fams, pq)
    for b in bad:
        print(b)
    n = len(expressions(dash))
    print(f"check_grafana: {n} expressions over {len(fams)} exported families"
          f"{' (source and /metrics agree)' if '--daemon' in args and not bad else ''}: "
          f"{'ok' if not bad else f'{len(bad)} problems'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
