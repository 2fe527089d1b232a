"""The client covers the API the server describes: every operation of its OpenAPI document has a method (a new
route without one fails here, naming it), and every parameter and body field of an operation is a parameter of
that method, spelled as on the wire (``from`` → ``from_``)."""
from __future__ import annotations

import inspect
import keyword
import pathlib
import unittest

from cascade_memory import NOT_CLIENT_OPERATIONS, OPERATIONS, Client

from .live import client


def python_name(wire: str) -> str:
    return wire + "_" if keyword.iskeyword(wire) else wire


class CoverageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        document = client("py_coverage").openapi()
        cls.operations = {op["operationId"]: (f"{verb.upper()} {path}", op) for path, verbs in document["paths"].items() for verb, op in verbs.items()}

    def test_every_operation_has_a_method(self) -> None:
        missing = [f"{route} ({op_id})" for op_id, (route, _) in self.operations.items() if op_id not in OPERATIONS and op_id not in NOT_CLIENT_OPERATIONS]
        self.assertEqual(missing, [], "operations of /openapi.json without a client method: add each to OPERATIONS in cascade_memory/client.py")
        self.assertEqual([m for m in OPERATIONS.values() if not callable(getattr(Client, m, None))], [], "OPERATIONS names methods Client lacks")

    def test_every_method_calls_an_operation_the_server_has(self) -> None:
        stale = sorted(set(OPERATIONS) - set(self.operations))
        self.assertEqual(stale, [], "OPERATIONS names operations /openapi.json does not have")

    def test_every_parameter_and_body_field_is_a_method_parameter(self) -> None:
        gaps = []
        for op_id, (route, op) in self.operations.items():
            if op_id not in OPERATIONS:
                continue
            accepted = set(inspect.signature(getattr(Client, OPERATIONS[op_id])).parameters)
            wire = [p["name"] for p in op.get("parameters", []) if p.get("in") in ("query", "path")]
            wire += list(op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {}).get("properties", {}))
            gaps += [f"{route}: {name}" for name in wire if python_name(name) not in accepted]
        self.assertEqual(gaps, [], "wire parameters the client's methods cannot send")

    def test_the_readme_names_every_method(self) -> None:
        readme = (pathlib.Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
        self.assertEqual([m for m in OPERATIONS.values() if f"`{m}(" not in readme], [], "methods the README's table lacks")

    def test_the_document_names_operations_of_each_kind(self) -> None:
        # a guard against reading an empty or foreign document and passing vacuously
        self.assertGreaterEqual(len(self.operations), 25)
        self.assertEqual(self.operations["search"][0], "POST /v1/search")
        self.assertIn("inspector", self.operations)


if __name__ == "__main__":
    unittest.main()
