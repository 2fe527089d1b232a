"""Every method of the client against a real `cascade serve`, each test class in a namespace of its own."""
from __future__ import annotations

import io
import json
import os
import tempfile
import unittest

from cascade_memory import CLEAR, CascadeError, Edge, Memory, SearchResult

from .live import NOW, RUN, client

FEB = "Connection pool size is 50 in the service config."
JUNE = "The connection pool size in the service config is smaller now."


class MemoriesTest(unittest.TestCase):
    def setUp(self) -> None:
        self.memory = client(f"py_{self._testMethodName}")

    def test_remember_get_update_and_history(self) -> None:
        m = self.memory.remember(FEB, topic="ops.config", at="2026-02-01", tags=["db"], user="alice", metadata={"priority": 2}, title="Pool")
        self.assertRegex(m.id, r"^m_")
        self.assertEqual((m.kind, m.topic, m.at), ("note", "ops.config", "2026-02-01T00:00:00Z"))
        got = self.memory.get(m.id)
        self.assertIsInstance(got, Memory)
        self.assertEqual((got.text, got.tags, got.user, got.metadata, got.status, got.recorded_at), (FEB, ["db"], "alice", {"priority": 2}, "current", NOW))
        updated = self.memory.update(m.id, text="Connection pool size is 40 in the service config.", title=CLEAR, tags=["db", "pool"])
        self.assertEqual((updated.text, updated.title, updated.tags), ("Connection pool size is 40 in the service config.", None, ["db", "pool"]))
        history = self.memory.history(m.id)
        self.assertEqual([(r.text, r.title) for r in history.revisions], [(FEB, "Pool")])
        self.assertEqual([link.id for link in history.chain], [m.id])

    def test_remember_many_and_paging(self) -> None:
        items = [{"text": f"Standup note {i}: the build is green.", "at": f"2026-06-0{i}", "speaker": "Sam" if i % 2 else "Ana", "kind": "turn"} for i in range(1, 6)]
        batch = self.memory.remember_many(items + [{"text": ""}], dedupe=True)
        self.assertEqual((batch.imported, batch.skipped), (5, 0))
        self.assertEqual([(f.index, f.error) for f in batch.failed], [(5, "text: cannot be empty")])
        self.assertIsNone(batch.ids[5])
        again = self.memory.remember_many(items[:2], dedupe=True)
        self.assertEqual((again.imported, again.skipped, again.ids), (0, 2, batch.ids[:2]))

        first = self.memory.list(limit=2)
        self.assertEqual([m.id for m in first.memories], batch.ids[:2])
        self.assertIsNotNone(first.next_cursor)
        second = self.memory.list(limit=2, cursor=first.next_cursor)
        self.assertEqual([m.id for m in second.memories], batch.ids[2:4])
        self.assertEqual([m.id for m in self.memory.iter_memories(limit=2)], batch.ids[:5])
        newest = self.memory.list(order="desc", limit=1, kind="turn", speaker=["Sam"], since="2026-06-01", until="2026-07-01", as_of=NOW, known_at=NOW)
        self.assertEqual([m.text for m in newest.memories], ["Standup note 5: the build is green."])
        self.assertEqual([m.speaker for m in self.memory.list(speaker="Ana").memories], ["Ana", "Ana"])

    def test_list_and_export_filters(self) -> None:
        self.memory.remember("Alice prefers tea.", user="alice", metadata={"priority": 3, "lang": "en"}, at="2026-06-01")
        self.memory.remember("Bob prefers coffee.", user="bob", metadata={"priority": 1, "lang": "de"}, at="2026-06-02")
        self.memory.remember("Carol drinks water.", user="carol", metadata={"priority": 2, "lang": "fr"}, at="2026-06-03", topic="people.carol")
        texts = lambda flt: [m.text for m in self.memory.list(filter=flt).memories]  # noqa: E731
        self.assertEqual(texts({"user": "alice"}), ["Alice prefers tea."])
        self.assertEqual(texts({"priority": {"gte": 2}}), ["Alice prefers tea.", "Carol drinks water."])
        self.assertEqual(texts({"lang": {"in": ["de", "fr"]}, "priority": {"lt": 2}}), ["Bob prefers coffee."])
        self.assertEqual(texts({"user": {"ne": "bob"}}), ["Alice prefers tea.", "Carol drinks water."])
        self.assertEqual([m.text for m in self.memory.list(under="people").memories], ["Carol drinks water."])

        lines = list(self.memory.export(filter={"user": "bob"}))
        self.assertEqual([(line["text"], line["user"], line["metadata"]) for line in lines], [("Bob prefers coffee.", "bob", {"priority": 1, "lang": "de"})])
        self.assertEqual([line["text"] for line in self.memory.export(since="2026-06-02", until="2026-06-03")], ["Bob prefers coffee."])
        stream = self.memory.export()
        self.assertEqual(next(stream)["text"], "Alice prefers tea.")
        stream.close()  # a reader may stop early: the connection is let go, the server carries on
        self.assertEqual(self.memory.stats().memories, 3)
        out = io.StringIO()
        self.assertEqual(self.memory.export_to(out), 3)
        self.assertEqual([json.loads(line)["text"] for line in out.getvalue().splitlines()], ["Alice prefers tea.", "Bob prefers coffee.", "Carol drinks water."])
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "backup.jsonl")
            self.assertEqual(self.memory.export_to(path, filter={"user": "carol"}), 1)
            with open(path, encoding="utf-8") as f:
                self.assertEqual(json.loads(f.read())["topic"], "people.carol")

    def test_search_with_every_option(self) -> None:
        old = self.memory.remember(FEB, topic="ops.config", at="2026-02-01", user="alice", metadata={"team": "infra"})
        new = self.memory.remember(JUNE, topic="ops.config", at="2026-06-01", user="alice", metadata={"team": "infra"}, supersedes=old.id)
        self.assertEqual([(e.type, e.from_, e.to) for e in new.edges], [("supersedes", new.id, old.id)])
        self.memory.remember("The office plants need water on Mondays.", topic="office", at="2026-06-02")

        plain = self.memory.search("connection pool size")
        self.assertIsInstance(plain, SearchResult)
        by_id = {h.id: h for h in plain.hits}
        self.assertEqual(plain.hits[0].id, new.id)
        self.assertEqual((by_id[old.id].status, by_id[old.id].superseded_by, by_id[new.id].supersedes), ("superseded", [new.id], [old.id]))
        top = plain.hits[0]
        self.assertEqual(set(top.ranks), set(top.sources_hit))
        self.assertAlmostEqual(top.rrf, sum(plain.channels[c].weight / (plain.rrf_k + r) for c, r in top.ranks.items()))

        every = self.memory.search(
            "connection pool size", k=3, channels=["bm25", "dense", "recency"], weights={"bm25": 2.0}, rrf_k=30, depth=50,
            since="2026-01-01", until="2026-12-31", under="ops", match="ops.*", kinds=["note"], exclude_kinds=["summary"],
            time="boost", now=NOW, as_of=NOW, known_at=NOW, current_only=True, pyramid=False, include_expired=True,
            filter={"user": "alice", "team": "infra"},
        )
        self.assertEqual((every.k, every.rrf_k, every.context), (3, 30, []))
        self.assertEqual(sorted(every.channels), ["bm25", "dense", "recency"])
        self.assertEqual(every.channels["bm25"].weight, 2.0)
        self.assertEqual([h.id for h in every.hits], [new.id])  # current only: the superseded one is left out

        then = self.memory.search("connection pool size", as_of="2026-03-01")
        self.assertEqual([h.id for h in then.hits], [old.id])
        week = self.memory.search("what happened to the plants last week?", now="2026-06-08")
        self.assertEqual((week.time.phrase, week.time.start), ("last week", "2026-06-01T00:00:00Z"))

    def test_supersede_link_graph_and_suggestions(self) -> None:
        feb = self.memory.remember(FEB, topic="ops.config", at="2026-02-01")
        june = self.memory.remember_many([{"text": JUNE, "topic": "ops.config", "at": "2026-06-01"}]).ids[0]
        edge = self.memory.supersede(june, feb.id, reason="reverted")
        self.assertIsInstance(edge, Edge)
        self.assertEqual((edge.type, edge.from_, edge.to, edge.reason, edge.valid_from, edge.recorded_at), ("supersedes", june, feb.id, "reverted", "2026-06-01T00:00:00Z", NOW))
        self.assertEqual([(c.id, c.status) for c in self.memory.history(feb.id).chain], [(feb.id, "superseded"), (june, "current")])
        self.assertEqual(self.memory.history(feb.id, as_of="2026-03-01").chain[0].status, "current")
        now = self.memory.current(about="pool", history=True, limit=5)
        self.assertEqual([f.id for f in now.facts], [june])  # the February value is not current
        self.assertEqual([(r.id, r.reason, r.statement) for r in now.facts[0].replaced], [(feb.id, "reverted", False)])
        self.assertEqual([f.id for f in self.memory.current(about="pool", as_of="2026-03-01").facts], [feb.id])
        self.assertEqual(self.memory.current(filter={"user": "nobody"}).facts, [])
        self.memory.remember("I'm vegetarian.", user="maya", at="2026-02-01")
        self.memory.remember("put me down as pescatarian for restaurant bookings", user="maya", at="2026-05-01")
        diet = self.memory.current(filter={"user": "maya"}).attributes
        self.assertEqual([(a.attribute, a.value, [b.value for b in a.before]) for a in diet], [("diet", "pescatarian", ["vegetarian"])])
        self.assertEqual([c.status for c in self.memory.history(feb.id, known_at=NOW).chain], ["superseded", "current"])

        note = self.memory.remember("Pool sizes are reviewed every quarter.", topic="ops.config", at="2026-06-03")
        related = self.memory.link(note.id, june, "relates_to", reason="same setting", at="2026-06-03")
        self.assertEqual((related.type, related.from_, related.to, related.reason), ("relates_to", note.id, june, "same setting"))
        graph = self.memory.graph(feb.id, depth=2, type=["supersedes", "relates_to"], as_of=NOW, known_at=NOW)
        self.assertEqual(sorted((n.id, n.depth) for n in graph.nodes), sorted([(feb.id, 0), (june, 1), (note.id, 2)]))
        self.assertTrue(all(e.current for e in graph.edges))
        self.assertEqual([n.id for n in self.memory.graph(feb.id, depth=2, type="supersedes").nodes], [feb.id, june])

        # detection saw "now" on the same subject and left a suggestion (the edge was then recorded by hand)
        open_ = self.memory.suggestions().suggestions
        self.assertEqual([(s.from_, s.to, s.status) for s in open_], [(june, feb.id, "open")])
        self.assertEqual(self.memory.decide_suggestion(open_[0].id, "rejected").status, "rejected")
        self.assertEqual(self.memory.suggestions().suggestions, [])

        retracted = self.memory.retract(edge.id)
        self.assertEqual(retracted.retracted_at, NOW)
        self.assertEqual(self.memory.get(feb.id).status, "current")

    def test_entities_and_messages(self) -> None:
        turns = self.memory.remember_messages([{"text": "I moved to Berlin in March.", "role": "user", "speaker": "Alice", "at": "2026-06-01"}], extract=False)
        self.assertEqual((turns.imported, turns.facts), (1, []))
        self.assertEqual(self.memory.get(turns.ids[0]).kind, "turn")
        names = {(e.name, e.kind, e.memories) for e in self.memory.entities().entities}
        self.assertIn(("Berlin", "name", 1), names)
        self.assertEqual([e.name for e in self.memory.entities(query="berl", top=1).entities], ["Berlin"])
        self.assertEqual(self.memory.entities(filter={"speaker": "Bob"}).entities, [])

    def test_topics_and_pyramid(self) -> None:
        self.memory.remember("Runbook: restart the queue workers one at a time.", topic="ops.runbooks", at="2026-06-01")
        self.assertEqual([(t.path, t.count, t.total) for t in self.memory.topics().topics], [("ops", 0, 1), ("ops.runbooks", 1, 1)])
        saved = self.memory.save_topic("ops.alerts", description="What pages people")
        self.assertEqual((saved.path, saved.description, saved.total), ("ops.alerts", "What pages people", 0))
        self.assertEqual([t.path for t in self.memory.topics(under="ops.alerts").topics], ["ops.alerts"])
        moved = self.memory.move_topic("ops", "platform")
        self.assertEqual((moved.from_, moved.to, moved.memories), ("ops", "platform", 1))
        merged = self.memory.merge_topic("platform.alerts", "platform.runbooks")
        self.assertEqual((merged.from_, merged.to, merged.memories), ("platform.alerts", "platform.runbooks", 0))
        self.memory.save_topic("platform.empty")
        self.assertEqual(self.memory.delete_topic("platform.empty").deleted, True)

        days = self.memory.pyramid(level="day")
        self.assertEqual([(n.id, n.children) for n in days.nodes], [("p_day_2026-06-01", 1)])
        self.assertEqual(days.nodes[0].sentences[0].text, "Runbook: restart the queue workers one at a time.")
        self.assertEqual({n.level for n in self.memory.pyramid().nodes}, {"day", "week", "month"})
        build = self.memory.build_pyramid()  # every write kept the pyramid current: nothing to do
        self.assertEqual((build.written, build.removed), (0, 0))

    def test_forget_one_and_many(self) -> None:
        keep = self.memory.remember("Keep this one.", user="alice")
        one = self.memory.remember("Forget this one.", user="bob")
        gone = self.memory.forget(one.id, purge=True)
        self.assertEqual((gone.id, gone.forgotten), (one.id, True))
        self.assertTrue(gone.purged.terms_dropped >= 1 and gone.purged.checkpointed)
        with self.assertRaises(CascadeError) as caught:
            self.memory.get(one.id)
        self.assertEqual(caught.exception.code, "NOT_FOUND")
        self.assertIsNone(self.memory.forget(keep.id).purged)
        again = self.memory.forget(one.id, purge=True)  # forgotten already: the purge runs instead of NOT_FOUND
        self.assertEqual((again.forgotten, again.purged.checkpointed), (False, True))
        self.assertTrue(self.memory.purge().checkpointed)

        for who in ("carol", "carol", "dave"):
            self.memory.remember(f"A note by {who}.", user=who, at="2026-05-01")
        dry = self.memory.forget_where(filter={"user": "carol"}, dry_run=True)
        self.assertEqual((dry.matched, dry.forgotten, dry.dry_run), (2, 0, True))
        done = self.memory.forget_where(filter={"user": "carol"}, before="2026-06-01", purge=True)
        self.assertEqual((done.matched, done.forgotten, sorted(done.ids)), (2, 2, sorted(dry.ids)))
        self.assertEqual(self.memory.forget_where(expired=True).matched, 0)
        self.assertEqual([m.user for m in self.memory.list().memories], ["dave"])

    def test_service_routes(self) -> None:
        self.assertTrue(self.memory.health().ok)
        self.assertEqual(repr(self.memory), f"Client(url={self.memory.url!r}, namespace={self.memory.namespace!r})")  # no token in logs
        self.assertEqual(self.memory.openapi()["openapi"], "3.1.0")
        self.memory.remember("Something to count.")
        stats = self.memory.stats()
        self.assertEqual((stats.memories, stats.chunks > 0), (1, True))
        report = self.memory.doctor()
        self.assertTrue(report.ok)
        self.assertTrue(all(c.ok for c in report.checks))

    def test_namespaces_are_apart(self) -> None:
        mine = self.memory.remember("Only in my namespace.")
        other = self.memory.in_namespace(f"py_elsewhere_{RUN}")
        self.assertEqual((other.namespace, other.url), (f"py_elsewhere_{RUN}", self.memory.url))
        other.remember("Only in the other namespace.")
        self.assertEqual([m.text for m in other.list().memories], ["Only in the other namespace."])
        with self.assertRaises(CascadeError) as caught:
            other.get(mine.id)
        self.assertEqual((caught.exception.code, caught.exception.status), ("NOT_FOUND", 404))
        with self.assertRaises(CascadeError) as caught:
            self.memory.in_namespace(f"py_never_written_{RUN}").stats()
        self.assertEqual(caught.exception.code, "NOT_FOUND")
        self.assertIn("py_never_written", caught.exception.message)


if __name__ == "__main__":
    unittest.main()
