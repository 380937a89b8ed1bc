"""How well ``paragraphs_supported`` tells backed passages from unbacked ones.

    .venv/bin/python bench/supported_eval.py [--set NAME] [--show-errors]

Runs the method (``verification.support.assess``) over thirteen labelled sets and prints, for
each, accuracy, the false-alarm rate on supported cases, and per kind how many unsupported
cases were caught (and how many passed):

- ``tuning``: ``tests/verification/supported_cases.json``, the set the lexical method was
  first written against (numbers, names, other claims);
- ``fact-check``: ``tests/verification/fact_check_cases.json``, hand-written pairs for the
  fact-checker rules (negation, direction, date, quantity, entity swap, modality, new
  predicate), each with a supported twin; the rules were tuned on these two sets;
- ``fact-check-2``: ``tests/verification/fact_check_cases_2.json``, a second round of
  hand-written cases (freer paraphrases of the seeds' claims and of news copy, arithmetic on a
  claim's figures, roundings in words; unsupported cases of every kind) written without
  reading the held-out set; tuning data too;
- ``blind-a`` and ``blind-b``: ``tests/verification/blind_cases_a.json`` and ``_b.json``, 260
  cases each written by two helpers who saw the issue's rules and the seeds but neither the
  code nor any other set (one on the seeds' subjects, one on wider news); tuning data;
- ``blind-c``: ``tests/verification/blind_cases_c.json``, a third blind writer's 240 cases
  (mixed subjects, a third with several claims or sentences). It validated the first round of
  rules tuned on blind-a and blind-b (counted only: 68.8% before, 72.9% after) and became
  tuning data for the second round;
- ``blind-d``: ``tests/verification/blind_cases_d.json``, a fourth blind writer's 240 cases on
  the seeds' own subjects and in their paragraphs' style, for validation like ``blind-c``;
- ``blind-e``: ``tests/verification/blind_cases_e.json``, a fifth blind writer's 240 cases in
  the same style as blind-d (reporters who condense and reword freely), tuning data for the
  second round;
- ``blind-f`` and ``blind-g``: ``tests/verification/blind_cases_f.json`` and ``_g.json``, two
  more blind writers' 240 cases each (f in the seeds' style, g as wire and trade-press copy),
  written a session later to see how the rules tuned on a-e carry to writers they never saw: f
  scored 65.0% and g 71.2% when they arrived. f became tuning data; g measures, like blind-d;
- ``blind-h``: ``tests/verification/blind_cases_h.json``, an eighth blind writer's 120 cases on
  one question, a reporter's own verb: 60 rewordings with another verb for the claim's (which
  must pass) and 60 with the opposite action ('missed' for 'caught', 'fell short of' for
  'reached'; which must fail), written after the opposite-action rule, to measure it; it
  measures, like blind-d and blind-g;
- ``blind-i``: ``tests/verification/blind_cases_i.json``, a ninth blind writer's 160 cases of
  the same shape as blind-h (80 rewordings, 80 opposite actions over 80 pairs), tuning data for
  the opposite-action table: blind-h measures it;
- ``held-out``: ``tests/verification/heldout_cases.json``, written by someone else and never
  tuned on: the one that measures. ``--show-errors`` never prints its cases, only counts. Its
  targets: accuracy >= 95%, false alarms <= 3%, and no unsupported case of the kinds
  negation, direction, date and quantity passing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "verification" / "supported_cases.json"
SETS = {
    "tuning": CASES,
    "fact-check": ROOT / "tests" / "verification" / "fact_check_cases.json",
    "fact-check-2": ROOT / "tests" / "verification" / "fact_check_cases_2.json",
    "blind-a": ROOT / "tests" / "verification" / "blind_cases_a.json",
    "blind-b": ROOT / "tests" / "verification" / "blind_cases_b.json",
    "blind-c": ROOT / "tests" / "verification" / "blind_cases_c.json",
    "blind-d": ROOT / "tests" / "verification" / "blind_cases_d.json",
    "blind-e": ROOT / "tests" / "verification" / "blind_cases_e.json",
    "blind-f": ROOT / "tests" / "verification" / "blind_cases_f.json",
    "blind-g": ROOT / "tests" / "verification" / "blind_cases_g.json",
    "blind-h": ROOT / "tests" / "verification" / "blind_cases_h.json",
    "blind-i": ROOT / "tests" / "verification" / "blind_cases_i.json",
    "held-out": ROOT / "tests" / "verification" / "heldout_cases.json",
}
# Sets that measure: their cases are never printed, only counted, so nobody tunes on them.
MEASURING = ("blind-d", "blind-g", "blind-h", "held-out")
ACCURACY_TARGET = 0.95
FALSE_ALARM_TARGET = 0.03
# Kinds of which no unsupported case may pass: what a fact-checker catches first.
ZERO_PASS_KINDS = ("negation", "direction", "date", "quantity")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from verification.support import assess  # noqa: E402


@dataclass(frozen=True)
class Evaluation:
    total: int
    correct: int
    supported: int
    false_alarms: int
    caught: Counter
    by_kind: Counter
    errors: list[tuple[dict[str, Any], list[str]]]
    seconds: float

    @property
    def accuracy(self) -> float:
        return self.correct / self.total

    @property
    def false_alarm_rate(self) -> float:
        return self.false_alarms / self.supported

    def recall(self, kind: str) -> float:
        return self.caught[kind] / self.by_kind[kind]

    def passed(self, kind: str) -> int:
        """Unsupported cases of this kind the method let through."""
        return self.by_kind[kind] - self.caught[kind]


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    return json.loads(path.read_text())


def evaluate(cases: list[dict[str, Any]] | None = None) -> Evaluation:
    cases = load_cases() if cases is None else cases
    correct = supported = false_alarms = 0
    caught: Counter = Counter()
    by_kind: Counter = Counter()
    errors = []
    started = time.perf_counter()
    for case in cases:
        verdict = assess(case["text"], case["claims"], case.get("context", []))
        said_supported = verdict.supported
        if case["label"] == "supported":
            supported += 1
            false_alarms += not said_supported
        else:
            by_kind[case["kind"]] += 1
            caught[case["kind"]] += not said_supported
        if said_supported == (case["label"] == "supported"):
            correct += 1
        else:
            errors.append((case, verdict.reasons))
    return Evaluation(
        total=len(cases),
        correct=correct,
        supported=supported,
        false_alarms=false_alarms,
        caught=caught,
        by_kind=by_kind,
        errors=errors,
        seconds=time.perf_counter() - started,
    )


def rule_of(reason: str) -> str:
    """Which rule gave a reason: the kind it names ('negation: ...'), else the lexical test's."""
    kind, colon, _ = reason.partition(":")
    if colon and kind in ("negation", "direction", "date", "quantity", "entity swap", "modality", "new predicate"):
        return kind
    if "is named but" in reason:
        return "names"
    if "is in none of the cited claims" in reason:
        return "figures"
    return "words"


def report(result: Evaluation, *, show_errors: bool = False, name: str = "paragraphs_supported") -> list[str]:
    lines = [
        f"{name}  {result.total} cases  accuracy {result.accuracy:.1%}  "
        f"false alarms {result.false_alarms}/{result.supported} ({result.false_alarm_rate:.1%})  "
        f"{result.seconds * 1000 / result.total:.2f} ms a case",
    ]
    alarms = Counter(
        rule_of(reason) for case, reasons in result.errors if case["label"] == "supported" for reason in reasons
    )
    if alarms:
        lines.append("  false-alarm reasons by rule: " + ", ".join(f"{rule} {n}" for rule, n in alarms.most_common()))
    for kind in sorted(result.by_kind):
        caught = f"{result.caught[kind]:>3}/{result.by_kind[kind]:<3}"
        lines.append(f"  caught {kind:<15} {caught} ({result.recall(kind):.0%}); passed {result.passed(kind)}")
    if show_errors:
        for case, reasons in result.errors:
            lines.append(f"\n#{case['id']} {case['label']}/{case['kind']} {case.get('changed', case.get('why', ''))}")
            lines.append(f"  text:   {case['text']}")
            for claim in case["claims"]:
                lines.append(f"  claim:  {claim}")
            for reason in reasons:
                lines.append(f"  reason: {reason}")
    return lines


def targets(result: Evaluation) -> list[str]:
    """The held-out targets, each with its figure and whether it is met."""
    met = [
        ("accuracy >= 95%", f"{result.accuracy:.1%}", result.accuracy >= ACCURACY_TARGET),
        ("false alarms <= 3%", f"{result.false_alarm_rate:.1%}", result.false_alarm_rate <= FALSE_ALARM_TARGET),
    ]
    for kind in ZERO_PASS_KINDS:
        if result.by_kind[kind]:
            met.append((f"{kind} passing = 0", str(result.passed(kind)), result.passed(kind) == 0))
    return [f"  target {label:<22} {figure:>6}  {'met' if ok else 'MISSED'}" for label, figure, ok in met]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=list(SETS), action="append", help="a set to run (default: all of them)")
    parser.add_argument(
        "--show-errors",
        action="store_true",
        help="print every misjudged case and why (never those of the measuring sets)",
    )
    args = parser.parse_args(argv)
    for name in args.set or list(SETS):
        path = SETS[name]
        if not path.exists():
            print(f"{name}: {path.relative_to(ROOT)} is missing")
            continue
        result = evaluate(load_cases(path))
        # The measuring sets' cases are never printed, only counted, so that nobody tunes the
        # method on them by reading its misses.
        shown = args.show_errors and name not in MEASURING
        lines = report(result, show_errors=shown, name=f"{name:<12}")
        if name in MEASURING:
            lines[1:1] = targets(result)
        print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
