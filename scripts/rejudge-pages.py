#!/usr/bin/env python3
"""Re-judge the Original vs wirebench tables of docs/results/*.md by the one verdict rule
(originals.Judge and originals.Compare since issue 46), from the figures the tables
print: the original's ratio interval (or its two figures, ±10 % where published without
an error, as originals.ClaimOf) and ours, rounded as printed. The runs' results.json
files are not kept in the repository, so this reads the pages' own tables; a ratio
rounded to three figures can flip a verdict only where it meets the band's edge.

Per table it adds a column "One rule" (the verdict now, for each of ours) and a line
under the table counting the verdicts before and now. Run from the repository root:
    python3 scripts/rejudge-pages.py docs/results/*.md
It is idempotent: a table that has the column is left as it is.
"""
import re
import sys

VERDICTS = ["holds", "does not hold", "inconclusive", "not comparable"]
MARK = "One rule"
NUM = r"([0-9.]+|∞)"
IV = re.compile(r"([0-9.]+)×\s*\[" + NUM + r",\s*" + NUM + r"\]")
PT = re.compile(r"([0-9.]+)×")
FIG = re.compile(r"([0-9.]+)(?:\s*±\s*([0-9.]+))?")
TWO_TOOLS = {"akka-http-vs-grpc.md"}  # wrk2 over ghz: the original's README says they do not compare


def f(s):
    return float("inf") if s == "∞" else float(s)


def norm(v):
    v = v.replace("*", "").strip().lower()
    for w in ["not comparable", "does not hold", "inconclusive", "holds"]:
        if v.startswith(w):
            return w
    return None


def claim_of(fig):
    """The original's ratio interval from 'a ± ea unit / b ± eb unit' (ClaimOf)."""
    parts = fig.split(" / ")
    if len(parts) < 2:
        return None
    ma, mb = FIG.search(parts[0]), FIG.search(parts[1])
    if not ma or not mb:
        return None
    a, b = float(ma.group(1)), float(mb.group(1))
    ea = float(ma.group(2)) if ma.group(2) else 0.1 * a
    eb = float(mb.group(2)) if mb.group(2) else 0.1 * b
    hi = (a + ea) / (b - eb) if b > eb else float("inf")
    return (a / b, max(a - ea, 0) / (b + eb), hi)


def judge(c, o):
    _, lo, hi = c
    olo, ohi = o
    if ohi < lo or olo > hi:
        return "does not hold"
    if olo >= lo and ohi <= hi:
        return "holds"
    return "inconclusive"


def cells(line):
    return [x.strip() for x in line.strip().strip("|").split("|")]


def rejudge(path):
    name = path.rsplit("/", 1)[-1]
    lines = open(path).read().split("\n")
    out, i, changed = [], 0, 0
    while i < len(lines):
        if not (lines[i].startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("| -")):
            out.append(lines[i]); i += 1; continue
        j = i
        while j < len(lines) and lines[j].startswith("|"):
            j += 1
        table = lines[i:j]
        head = cells(table[0])
        vcol = [k for k, h in enumerate(head) if h.startswith("Verdict")]
        if not vcol or MARK in head:
            out.extend(table); i = j; continue
        vcol = vcol[0]
        ours = [k for k, h in enumerate(head) if (h.startswith("Ours") and h != "Ours / original") or h.startswith("Run ")]
        ccol = [k for k, h in enumerate(head) if h in ("Original's ratio", "Ratio")]
        fcol = [k for k, h in enumerate(head) if h.startswith("Original") and h != "Original's ratio"]
        before = {v: 0 for v in VERDICTS}
        now = {v: 0 for v in VERDICTS}
        rows = [table[0] + f" {MARK} |", table[1] + " --- |"]
        for line in table[2:]:
            c = cells(line)
            claim = None
            for k in ccol + fcol:
                m = IV.search(c[k])
                if m:
                    claim = (float(m.group(1)), f(m.group(2)), f(m.group(3)))
                    break
            if claim is None and fcol:
                claim = claim_of(c[fcol[0]])
            olds = [norm(p) for p in c[vcol].split("→")]
            if len(olds) != len(ours):
                olds = [olds[-1]] * len(ours)
            news = []
            for k, old in zip(ours, olds):
                cell = c[k]
                m, p = IV.search(cell), PT.search(cell)
                if old == "not comparable" or not p or claim is None:
                    new = "not comparable"
                elif name in TWO_TOOLS:
                    new = "not comparable"
                elif "‡" in cell:
                    new = "not comparable"
                elif m:
                    new = judge(claim, (f(m.group(2)), f(m.group(3))))
                else:
                    new = judge(claim, (f(p.group(1)), f(p.group(1))))
                if old:
                    before[old] += 1
                now[new] += 1
                news.append(new if new == old else f"**{new}**")
                changed += new != old
            rows.append(line.rstrip() + " " + " / ".join(news) + " |")
        out.extend(rows)
        count = lambda n: ", ".join(f"{v} {n[v]}" for v in VERDICTS)
        total = sum(now.values())
        who = "" if len(ours) == 1 else f" ({', '.join(head[k] for k in ours)}, counted together)"
        out.append("")
        out.append(f"*{MARK} (2026-11-29, re-judged from this table's figures; `docs/suites.md`, \"The verdict\"): "
                   f"of {total} verdicts{who}, {count(now)}; by the rule of the time: {count(before)}.*")
        i = j
    open(path, "w").write("\n".join(out))
    return changed


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(p, rejudge(p), "verdicts changed")
