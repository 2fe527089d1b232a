"""Every failure is a CascadeError: the API's code, message, field and status, or a code of the client's own when
no answer came."""
from __future__ import annotations

import http.server
import socket
import threading
import unittest

from cascade_memory import CascadeError, Client

from .live import client, server


class ApiErrorsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.memory = client("py_errors")

    def refused(self, call) -> CascadeError:
        with self.assertRaises(CascadeError) as caught:
            call()
        return caught.exception

    def test_invalid_input_names_the_field_as_the_wire_spells_it(self) -> None:
        err = self.refused(lambda: self.memory.search("pool", k=0))
        self.assertEqual((err.code, err.field, err.status), ("INVALID_INPUT", "k", 400))
        self.assertTrue(err.message.startswith("k: "), err.message)
        self.assertEqual(str(err), f"INVALID_INPUT: {err.message}")
        err = self.refused(lambda: self.memory.search("pool", as_of="whenever"))
        self.assertEqual((err.field, err.message[:7]), ("as_of", "as_of: "))
        err = self.refused(lambda: self.memory.remember("x", at="soon"))
        self.assertEqual((err.code, err.field), ("INVALID_INPUT", "at"))
        err = self.refused(lambda: self.memory.search("   "))
        self.assertEqual((err.field, err.message), ("query", "query: must not be empty: say what to search for"))

    def test_each_route_family_refuses_bad_input(self) -> None:
        a = self.memory.remember("One.").id
        b = self.memory.remember("Two.").id
        cases = [
            (lambda: self.memory.link(a, b, "likes"), "type"),
            (lambda: self.memory.graph(a, depth=9), "depth"),
            (lambda: self.memory.list(limit=0), "limit"),
            (lambda: self.memory.list(order="sideways"), "order"),
            (lambda: self.memory.entities(top=0), "top"),
            (lambda: self.memory.pyramid(level="year"), "level"),
            (lambda: self.memory.save_topic("a..b"), "topic"),
            (lambda: self.memory.update(a, ttl="forever"), "ttl"),
            (lambda: self.memory.forget_where(), None),
            (lambda: self.memory.export(since="someday"), "since"),  # refused at the call, before any line
            (lambda: self.memory.decide_suggestion("s_nope", "maybe"), "decision"),
        ]
        for call, field in cases:
            err = self.refused(call)
            self.assertEqual((err.code, err.status), ("INVALID_INPUT", 400), err)
            if field is not None:
                self.assertEqual(err.field, field, err)

    def test_unknown_ids_are_not_found(self) -> None:
        for call in (
            lambda: self.memory.get("m_nope"),
            lambda: self.memory.update("m_nope", text="x"),
            lambda: self.memory.forget("m_nope"),
            lambda: self.memory.history("m_nope"),
            lambda: self.memory.graph("m_nope"),
            lambda: self.memory.retract("e_nope"),
            lambda: self.memory.supersede("m_a", "m_b"),
            lambda: self.memory.delete_topic("no.such.topic"),
        ):
            err = self.refused(call)
            self.assertEqual((err.code, err.status), ("NOT_FOUND", 404), err)
        self.assertIn('"m_nope"', self.refused(lambda: self.memory.get("m_nope")).message)

    def test_a_wrong_or_missing_token_is_unauthorized(self) -> None:
        url, _ = server()
        for token in ("wrong", ""):
            err = self.refused(lambda: Client(url, token=token).stats())
            self.assertEqual((err.code, err.status, err.field), ("UNAUTHORIZED", 401, None))
        self.assertTrue(Client(url, token="").health().ok)  # the health check needs none

    def test_a_bad_namespace_is_refused(self) -> None:
        err = self.refused(lambda: self.memory.in_namespace("no spaces!").remember("x"))
        self.assertEqual((err.code, err.field), ("INVALID_INPUT", "namespace"))


class _TextServer:
    """A loopback HTTP server answering plain text: 200 under /ok, 502 elsewhere."""

    def __enter__(self) -> str:
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                self.send_response(200 if self.path.startswith("/ok") else 502)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(b"<html>not the API</html>")

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


class TransportErrorsTest(unittest.TestCase):
    def refused(self, call) -> CascadeError:
        with self.assertRaises(CascadeError) as caught:
            call()
        return caught.exception

    def test_nothing_listening_is_unreachable(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        err = self.refused(lambda: Client(f"http://127.0.0.1:{port}", token="").stats())
        self.assertEqual((err.code, err.status), ("UNREACHABLE", None))
        self.assertIn(f"http://127.0.0.1:{port}", err.message)
        self.assertIn("cascade serve", err.message)

    def test_a_server_that_never_answers_times_out(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            s.listen(1)  # accepts the connection, never answers
            port = s.getsockname()[1]
            err = self.refused(lambda: Client(f"http://127.0.0.1:{port}", token="", timeout=0.3).stats())
        self.assertEqual((err.code, err.status), ("TIMEOUT", None))
        self.assertIn("0.3 s", err.message)

    def test_an_answer_that_is_not_the_apis_json(self) -> None:
        # something else listening where the client was pointed: a page, and a proxy's error page
        with _TextServer() as url:
            err = self.refused(lambda: Client(url + "/ok", token="").stats())
            self.assertEqual((err.code, err.status), ("BAD_RESPONSE", 200))
            self.assertIn("not JSON", err.message)
            err = self.refused(lambda: Client(url + "/bad-gateway", token="").stats())
            self.assertEqual((err.code, err.status), ("BAD_RESPONSE", 502))
            self.assertIn("HTTP 502", err.message)

    def test_a_url_that_is_not_http(self) -> None:
        for url in ("ftp://example.org", "127.0.0.1:7373", ""):
            err = self.refused(lambda: Client(url))
            self.assertEqual((err.code, err.field), ("INVALID_INPUT", "url"), url)


if __name__ == "__main__":
    unittest.main()
