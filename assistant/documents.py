"""JSON documents of verdicts, in the shapes of ../shared/CONTRACT.md, shared by the CLI and the reader."""

from __future__ import annotations

from assistant.sets import SetVerdict


def set_to_json(verdict: SetVerdict) -> dict[str, object]:
    """The contract's set object, plus `reasons` (code and text) and every reading when ambiguous."""
    document: dict[str, object] = {
        "tiles": [str(t) for t in verdict.tiles],
        "valid": verdict.valid,
        "kind": verdict.kind,
        "value": verdict.value,
        "jokers": [str(j) if j else None for j in verdict.jokers],
        "reason": verdict.reason,
        "reasons": [{"code": r.code.value, "text": r.text} for r in verdict.reasons],
    }
    if verdict.ambiguous:
        document["readings"] = [
            {
                "kind": r.kind,
                "value": r.value,
                "numbers": list(r.numbers),
                "jokers": [str(j) if j else None for j in r.jokers],
                "describe": r.describe(),
            }
            for r in verdict.readings
        ]
    return document
