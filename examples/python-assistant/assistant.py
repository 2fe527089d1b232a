"""A small personal assistant that remembers what it is told and answers from memory, over `cascade serve`.

    cascade serve --token T &
    CASCADE_TOKEN=T PYTHONPATH=../../clients/python python3 assistant.py

It stores a few notes (once: each carries a ref, so a second run finds them already known), one of which replaces
an earlier one, then answers questions with the best current memory, saying what that memory replaced.
"""
from __future__ import annotations

import os
import sys

from cascade_memory import CascadeError, Client

NOTES = [
    {"ref": "birthday", "at": "2026-05-04", "text": "My sister Maya's birthday is on July 14."},
    {"ref": "allergy", "at": "2026-05-10", "text": "I'm allergic to peanuts."},
    {"ref": "dentist", "at": "2026-05-20", "text": "The dentist appointment is on June 3 at 9am."},
    {"ref": "dentist-moved", "at": "2026-06-01", "text": "The dentist moved my appointment to June 12 at 4pm.", "supersedes": "dentist"},
    {"ref": "seat", "at": "2026-06-02", "text": "I prefer aisle seats on flights."},
]

QUESTIONS = [
    "When is the dentist appointment?",
    "What am I allergic to?",
    "When is Maya's birthday?",
    "Which seat do I like on a plane?",
]


def remember_notes(memory: Client) -> None:
    # the ref goes in metadata: with dedupe, a note the store already holds (by ref) is skipped
    items = [{"text": n["text"], "at": n["at"], "user": "me", "topic": "personal", "metadata": {"ref": n["ref"]},
              **({"supersedes": n["supersedes"]} if "supersedes" in n else {})} for n in NOTES]
    stored = memory.remember_many(items, dedupe=True)
    for failure in stored.failed:
        print(f"could not remember note {failure.index}: {failure.error}", file=sys.stderr)
    print(f"Remembered {stored.imported} notes ({stored.skipped} already known).")


def answer(memory: Client, question: str) -> str:
    found = memory.search(question, k=1, current_only=True, filter={"user": "me"}).hits
    if not found:
        return "I don't know yet."
    best = found[0]
    replaced = "".join(f'; replaces "{memory.get(old).text}"' for old in best.supersedes)
    return f"{best.text} [noted {best.at[:10]}{replaced}]"


def main() -> int:
    memory = Client(namespace=os.environ.get("ASSISTANT_NAMESPACE", "assistant"))
    try:
        remember_notes(memory)
        for question in QUESTIONS:
            print(f"Q: {question}")
            print(f"A: {answer(memory, question)}")
    except CascadeError as err:
        print(f"assistant: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
