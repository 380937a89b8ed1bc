"""How well ``paragraphs_supported`` tells backed passages from unbacked ones.

    .venv/bin/python bench/supported_eval.py [--show-errors]

Runs the lexical method (``verification.support.assess``) over the labelled cases in
``tests/verification/supported_cases.json`` and prints accuracy, the false-alarm rate on
supported cases, and how many of each kind of unsupported case were caught.
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


def report(result: Evaluation, *, show_errors: bool = False) -> list[str]:
    lines = [
        f"paragraphs_supported  {result.total} cases  accuracy {result.accuracy:.1%}  "
        f"false alarms {result.false_alarms}/{result.supported} ({result.false_alarm_rate:.1%})  "
        f"{result.seconds * 1000 / result.total:.2f} ms a case",
    ]
    for kind in sorted(result.by_kind):
        caught = f"{result.caught[kind]:>3}/{result.by_kind[kind]:<3}"
        lines.append(f"  caught {kind:<15} {caught} ({result.recall(kind):.0%})")
    if show_errors:
        for case, reasons in result.errors:
            lines.append(f"\n#{case['id']} {case['label']}/{case['kind']} {case.get('changed', '')}")
            lines.append(f"  text:   {case['text']}")
            for claim in case["claims"]:
                lines.append(f"  claim:  {claim}")
            for reason in reasons:
                lines.append(f"  reason: {reason}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-errors", action="store_true", help="print every misjudged case and why")
    args = parser.parse_args(argv)
    print("\n".join(report(evaluate(), show_errors=args.show_errors)))


if __name__ == "__main__":
    main()
