"""The pure parts: answers into dataclasses (lenient by default, strict for the tests), filters into the spelling
GET routes read, and the package's Python 3.9 syntax. No server needed."""
from __future__ import annotations

import ast
import pathlib
import unittest

from cascade_memory import CascadeError, Edge, Hit, SearchResult
from cascade_memory.wire import filter_args, from_wire

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "cascade_memory"
EDGE = {"id": "e_1", "type": "supersedes", "from": "m_2", "to": "m_1", "valid_from": "2026-06-01T00:00:00Z", "valid_to": None}


class FromWireTest(unittest.TestCase):
    def test_nested_answers_become_dataclasses_with_the_wire_names(self) -> None:
        edge = from_wire(Edge, EDGE)
        self.assertEqual((edge.from_, edge.to, edge.recorded_at, edge.in_force), ("m_2", "m_1", None, None))
        result = from_wire(SearchResult, {
            "query": "q", "k": 1, "rrf_k": 60, "context": [], "time": None, "time_note": None, "annotate_ms": 0.1, "took_ms": 1.5,
            "channels": {"bm25": {"weight": 1, "candidates": 3, "ms": 0.4}},
            "hits": [{
                "id": "m_1", "kind": "note", "level": None, "window": None, "text": "t", "title": None, "topic": None, "at": "2026-06-01T00:00:00Z",
                "speaker": None, "ref": None, "chunk": {"ord": 0, "start": 0, "end": 1, "text": "t"}, "sources_hit": ["bm25"], "ranks": {"bm25": 1},
                "rrf": 0.016, "score": 0.016, "adjustments": [{"reason": "recent", "factor": 1.1}], "status": "current", "superseded_by": [],
                "supersedes": [], "contradicts": [],
            }],
        })
        self.assertIsInstance(result.hits[0], Hit)
        self.assertEqual((result.hits[0].chunk.end, result.hits[0].adjustments[0].factor, result.channels["bm25"].candidates), (1, 1.1, 3))

    def test_unknown_fields_are_left_out_unless_strict(self) -> None:
        newer = dict(EDGE, weight=0.5)
        self.assertEqual(from_wire(Edge, newer), from_wire(Edge, EDGE))
        with self.assertRaises(CascadeError) as caught:
            from_wire(Edge, newer, strict=True)
        self.assertEqual(caught.exception.code, "BAD_RESPONSE")
        self.assertEqual(caught.exception.message, "Edge: fields the client does not know ['weight']")
        with self.assertRaises(CascadeError) as caught:
            from_wire(Edge, {k: v for k, v in EDGE.items() if k != "to"}, strict=True)
        self.assertEqual(caught.exception.message, "Edge: fields missing ['to']")

    def test_a_wrong_shape_is_a_bad_response(self) -> None:
        with self.assertRaises(CascadeError) as caught:
            from_wire(SearchResult, {"hits": {"not": "a list"}})
        self.assertEqual((caught.exception.code, caught.exception.message), ("BAD_RESPONSE", "SearchResult.hits: expected a JSON array, got dict"))


class FilterArgsTest(unittest.TestCase):
    def test_the_json_spelling_as_query_conditions(self) -> None:
        self.assertEqual(
            filter_args({"user": "alice", "priority": {"gte": 2, "lt": 5}, "lang": {"in": ["en", "de"]}, "done": False, "status": {"ne": "open"}, "n": {"eq": 1.5}}),
            ["user=alice", "priority>=2", "priority<5", "lang=en|de", "done=false", "status!=open", "n=1.5"],
        )

    def test_an_unknown_operator_names_the_filter(self) -> None:
        with self.assertRaises(CascadeError) as caught:
            filter_args({"priority": {"above": 2}})
        self.assertEqual((caught.exception.code, caught.exception.field), ("INVALID_INPUT", "filter"))
        self.assertIn("'above' is not one of eq, ne, in, gt, gte, lt, lte", caught.exception.message)


class Python39Test(unittest.TestCase):
    def test_every_module_parses_as_python_3_9_and_defers_its_annotations(self) -> None:
        for path in sorted(PACKAGE.glob("*.py")):
            source = path.read_text(encoding="utf-8")
            ast.parse(source, filename=str(path), feature_version=(3, 9))  # no match statements, no 3.10+ syntax
            if path.name != "__init__.py":
                # `X | None` in an annotation is only safe on 3.9 when annotations are never evaluated at import
                self.assertIn("from __future__ import annotations", source, path.name)


if __name__ == "__main__":
    unittest.main()
