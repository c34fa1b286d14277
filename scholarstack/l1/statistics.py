"""Statistics as the life sciences report a result: an effect estimate with its confidence interval
and P value, read as one quantity. "(OR, 0.66 [95% CI, 0.61-0.70]; P = 7.7 × 10(-33))" is an odds
ratio of 0.66, not six values: the interval's level and bounds and the P value qualify the estimate
and are no results of their own. Sample sizes ("n = 40") describe the study.

Rules, not a model: these forms are conventions (CONSORT, journal style guides), and SciFact's 5,183
abstracts write them in a few dozen spellings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NUM = r"[-−]?\d+(?:[.·]\d+)?"
# A bracket holding statistics, innermost first: a decimal, a percentage, a p-value or a sample size ("(9%)", "[95% CI,
# 0.61-0.70]", "(n = 40; P = .03)"), not a formula's ("g(1,1)") or a placeholder ("[P1]")
_STAT = r"(?:\d[.·]\d|\d\s*%|\b[Pp]\s*[=<>]|\bn\s*=)"
STATISTICS = re.compile(rf"\((?=[^()]*{_STAT})[^()]*\)|\[(?=[^\[\]]*{_STAT})[^\[\]]*\]")

RATIOS = {"or": "odds ratio", "aor": "odds ratio", "hr": "hazard ratio", "ahr": "hazard ratio", "rr": "relative risk",
          "arr": "relative risk", "irr": "incidence rate ratio", "md": "mean difference", "wmd": "mean difference",
          "smd": "standardised mean difference", "r": "correlation", "rs": "correlation", "rho": "correlation",
          "ρ": "correlation", "risk ratio": "relative risk", "rate ratio": "rate ratio",
          "incidence rate ratio": "incidence rate ratio", "incidence-rate ratio": "incidence rate ratio",
          "standardized mean difference": "standardised mean difference"}
_NAMES = (r"odds ratio|hazard ratio|relative risk|risk ratio|incidence[- ]rate ratio|rate ratio|"
          r"standardi[sz]ed mean difference|weighted mean difference|mean difference|aOR|aHR|aRR|OR|HR|RR|IRR|SMD|WMD|MD")
# An estimate's name, an optional abbreviation in brackets ("odds ratio [OR]"), then its value: "OR, 0.66",
# "HR=6.04", "adjusted odds ratio 0.18"; a correlation only with "=" ("r = 0.45"), "r" alone being too common
EFFECT = re.compile(rf"(?:\b(?P<adj>adjusted|pooled|crude)\s+)?(?:\b(?P<name>{_NAMES})\b(?:\s*\[[A-Za-z]+\])?\s*[,:=]?\s*"
                    rf"|\b(?P<corr>r|rs|Rs|rho|ρ)\s*=\s*)(?P<value>{NUM})(?![\d.·])")
INTERVAL = re.compile(rf"(?:(?P<level>\d+(?:\.\d+)?)\s*%\s*)?(?:CI|confidence intervals?|credible intervals?)\b(?:\s*\[CI\])?"
                      rf"\s*[,:=]?\s*(?P<lo>{NUM})\s*%?\s*(?:-|–|—|to)\s*(?P<hi>{NUM})\s*%?", re.I)
# an interval with no name right after the estimate: "RR 0.71, 0.50-0.99;", "HR 0.79 [0.65-0.96]"
BARE_INTERVAL = re.compile(rf"\s*(?:,\s*|\[)(?P<lo>{NUM})\s*(?:-|–|to)\s*(?P<hi>{NUM})\]?(?=\s*[;,)\]]|$)")
P_VALUE = re.compile(r"\b[Pp](?:[- ]?(?:value|trend|for trend))?\s*(?P<op>[=<>≤≥])\s*"
                     r"(?P<value>\d*[.·]?\d+(?:\s*[×x]\s*10\s*\(?[-−]\s*\d+\)?|\s*[eE][-−]\d+)?)")
SAMPLE = re.compile(r"\b[nN]\s*=\s*\d[\d,]*")
DIGIT = re.compile(r"\d")
SPREAD = re.compile(rf"\s*(?:±|\+/-|\+/−|\+-)\s*{NUM}")  # a mean's standard deviation or error


@dataclass(frozen=True)
class Estimate:
    """An effect estimate as reported: its measure, value, interval and P value, and where the text says it."""

    measure: str  # "odds ratio", "hazard ratio", … (adjusted ones keep the word)
    value: float
    text: str  # the value as written
    interval: str  # "0.61-0.70 (95% CI)", or ""
    p: str  # "P = 7.7 × 10(-33)", or ""
    span: tuple[int, int]  # from the name to the end of what qualifies it


def _number(text: str) -> float:
    return float(text.replace("·", ".").replace("−", "-"))


def _closing(tail: str) -> int:
    """Where the bracket an estimate sits in closes (its own brackets, "[95% CI]", "10(-9)", skipped)."""
    depth = 0
    for i, ch in enumerate(tail[:160]):
        depth += (ch in "([") - (ch in ")]")
        if depth < 0:
            return i
    return min(len(tail), 160)


def estimates(text: str) -> list[Estimate]:
    """Each effect estimate in `text`, with the interval and P value that follow it before the next estimate."""
    if not DIGIT.search(text):  # every statistic has a number; most statements have none (a compile's hot path)
        return []
    found = list(EFFECT.finditer(text))
    out = []
    for i, m in enumerate(found):
        stop = found[i + 1].start() if i + 1 < len(found) else len(text)
        tail = text[m.end():stop]
        tail = tail[:_closing(tail)]
        interval, end = "", m.end()
        if (ci := INTERVAL.search(tail)) or (ci := BARE_INTERVAL.match(tail)):
            level = ci.groupdict().get("level")
            interval = f"{ci.group('lo')}-{ci.group('hi')}" + (f" ({level}% CI)" if level else "")
            end = max(end, m.end() + ci.end())
        p = ""
        if pm := P_VALUE.search(tail):
            p = " ".join(f"P {pm.group('op')} {pm.group('value')}".split())
            end = max(end, m.end() + pm.end())
        name = (m.group("name") or m.group("corr")).lower()  # one of the two always matched
        measure = RATIOS.get(name, name)
        if m.group("adj"):
            measure = f"{m.group('adj').lower()} {measure}"
        out.append(Estimate(measure=measure, value=_number(m.group("value")), text=m.group("value"), interval=interval,
                            p=p, span=(m.start(), end)))
    return out


def qualifiers(text: str) -> list[tuple[int, int]]:
    """Spans of numbers that qualify a result and are none themselves: intervals (level and bounds), P
    values, sample sizes and spreads."""
    if not DIGIT.search(text):
        return []
    spans = [m.span() for pat in (INTERVAL, P_VALUE, SAMPLE, SPREAD) for m in pat.finditer(text)]
    for e in EFFECT.finditer(text):
        if b := BARE_INTERVAL.match(text, e.end()):
            spans.append(b.span())
    return spans


def compact(text: str) -> str:
    """`text` with each statistics bracket cut to its estimates, P values and values: the intervals,
    sample sizes and spreads left out ("(OR, 0.66 [95% CI, 0.61-0.70]; P = .002)" reads "(OR, 0.66; P = .002)").
    What a view renders; the fact keeps the full text and its quantities the intervals."""
    def cut(m: re.Match) -> str:
        inner = m.group(0)
        for start, end in sorted(qualifiers(inner), reverse=True):
            if not P_VALUE.fullmatch(inner[start:end].strip()):
                inner = inner[:start] + inner[end:]
        inner = re.sub(r"([(\[])\s*(?:[;,]\s*)+", r"\1", inner)
        inner = re.sub(r"\s*(?:[;,]\s*)+([)\]])", r"\1", re.sub(r"\s*([;,])(?:\s*[;,])+", r"\1", inner))
        inner = re.sub(r"([(\[])\s+", r"\1", re.sub(r"\s*(?:\[\s*\]|\(\s*\))", "", inner))
        return "" if re.fullmatch(r"[(\[]\s*[)\]]", inner) else inner
    for _ in range(2):  # a bracket inside a bracket: the inner one first
        text = STATISTICS.sub(cut, text)
    return re.sub(r"\s+([,;]|\.(?!\d))", r"\1", re.sub(r"\s{2,}", " ", text))
