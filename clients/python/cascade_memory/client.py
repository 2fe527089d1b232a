"""The client: one method per operation of the HTTP API (OPERATIONS maps each operationId of the server's OpenAPI
document to its method; a test fails when the document names an operation this map lacks). Parameters keep the
wire's names, keyword-only after the required ones; None leaves a parameter out (the server's default applies)."""
from __future__ import annotations

import json
import os
import urllib.parse
from typing import IO, Any, Dict, Iterator, List, Mapping, Optional, Sequence, Type, TypeVar, Union

from .errors import CascadeError
from .transport import Transport
from .types import (
    BatchResult,
    CurrentState,
    DoctorReport,
    Edge,
    EntityList,
    Forgotten,
    ForgottenWhere,
    Graph,
    Health,
    History,
    Memory,
    MemoryPage,
    MessagesResult,
    Pyramid,
    PurgeReport,
    PyramidBuild,
    Remembered,
    SearchResult,
    Stats,
    Suggestion,
    SuggestionList,
    Topic,
    TopicDeleted,
    TopicMove,
    TopicTree,
)
from .wire import filter_args, from_wire

T = TypeVar("T")

DEFAULT_URL = "http://127.0.0.1:7373"

#: operationId (the server's OpenAPI document) → the Client method that calls it.
OPERATIONS: Dict[str, str] = {
    "health": "health",
    "openApi": "openapi",
    "addMemory": "remember",
    "addMemories": "remember_many",
    "addMessages": "remember_messages",
    "getMemory": "get",
    "listMemories": "list",
    "updateMemory": "update",
    "forgetMemory": "forget",
    "forgetMemories": "forget_where",
    "purgeForgotten": "purge",
    "exportMemories": "export",
    "memoryHistory": "history",
    "search": "search",
    "supersede": "supersede",
    "retractEdge": "retract",
    "listSuggestions": "suggestions",
    "decideSuggestion": "decide_suggestion",
    "link": "link",
    "graphAround": "graph",
    "listEntities": "entities",
    "currentState": "current",
    "listTopics": "topics",
    "saveTopic": "save_topic",
    "moveTopic": "move_topic",
    "mergeTopic": "merge_topic",
    "deleteTopic": "delete_topic",
    "listSummaries": "pyramid",
    "buildPyramid": "build_pyramid",
    "stats": "stats",
    "doctor": "doctor",
}

#: Operations with no method, and why.
NOT_CLIENT_OPERATIONS: Dict[str, str] = {
    "inspector": "the web inspector's HTML page, for a browser",
    "metrics": "Prometheus text for a scraper, not JSON for a program",
}


class _Clear:
    def __repr__(self) -> str:
        return "CLEAR"


#: Pass to ``update`` to clear a field (sent as null); None leaves a field as it is.
CLEAR: Any = _Clear()

Filter = Mapping[str, Any]
Names = Union[str, Sequence[str]]


def _body(**fields: Any) -> Dict[str, Any]:
    """The JSON body: absent (None) fields left out, CLEAR sent as null."""
    return {name: (None if value is CLEAR else value) for name, value in fields.items() if value is not None}


def _segment(value: str) -> str:
    return urllib.parse.quote(value, safe="")


class Client:
    """A client of ``cascade serve``.

    ``url`` defaults to ``$CASCADE_URL``, else http://127.0.0.1:7373; ``token`` to ``$CASCADE_TOKEN`` (pass ``""``
    for none); ``namespace`` to the server's default namespace. ``strict`` refuses answers carrying fields this
    version does not know (the client's own tests use it); by default they are left out.
    """

    def __init__(
        self,
        url: Optional[str] = None,
        token: Optional[str] = None,
        namespace: Optional[str] = None,
        timeout: float = 30.0,
        strict: bool = False,
    ) -> None:
        url = url if url is not None else os.environ.get("CASCADE_URL", DEFAULT_URL)
        token = token if token is not None else os.environ.get("CASCADE_TOKEN")
        self._http = Transport(url, token or None, namespace, timeout)
        self._strict = strict

    def __repr__(self) -> str:  # never the token
        return f"Client(url={self.url!r}, namespace={self.namespace!r})"

    @property
    def url(self) -> str:
        return self._http.url

    @property
    def namespace(self) -> Optional[str]:
        return self._http.namespace

    def in_namespace(self, namespace: str) -> "Client":
        """The same server and token, another namespace (created by its first write)."""
        return Client(self._http.url, self._http.token or "", namespace, self._http.timeout, self._strict)

    def _call(self, cls: Type[T], method: str, path: str, query: Optional[Mapping[str, Any]] = None, body: Any = None) -> T:
        return from_wire(cls, self._http.json(method, path, query, body), self._strict)

    # ---- service ----

    def health(self) -> Health:
        """``GET /health`` (needs no token)."""
        return self._call(Health, "GET", "/health")

    def openapi(self) -> Dict[str, Any]:
        """``GET /openapi.json``: the API's OpenAPI 3.1 document (needs no token)."""
        return self._http.json("GET", "/openapi.json")

    def stats(self) -> Stats:
        return self._call(Stats, "GET", "/v1/stats")

    def doctor(self) -> DoctorReport:
        """Checks every derived index against the tables (no repair over HTTP)."""
        return self._call(DoctorReport, "GET", "/v1/doctor")

    # ---- writing ----

    def remember(
        self,
        text: str,
        *,
        kind: Optional[str] = None,
        title: Optional[str] = None,
        description: Optional[str] = None,
        tags: Optional[Sequence[str]] = None,
        topic: Optional[str] = None,
        at: Optional[str] = None,
        role: Optional[str] = None,
        speaker: Optional[str] = None,
        session: Optional[str] = None,
        user: Optional[str] = None,
        agent: Optional[str] = None,
        expires: Optional[str] = None,
        ttl: Optional[str] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        supersedes: Optional[Names] = None,
    ) -> Remembered:
        """Stores one memory; ``supersedes`` names the memories (ids) it replaces."""
        body = _body(text=text, kind=kind, title=title, description=description, tags=tags, topic=topic, at=at, role=role, speaker=speaker,
                     session=session, user=user, agent=agent, expires=expires, ttl=ttl, metadata=metadata, supersedes=supersedes)
        return self._call(Remembered, "POST", "/v1/memories", body=body)

    def remember_many(self, memories: Sequence[Mapping[str, Any]], *, dedupe: Optional[bool] = None) -> BatchResult:
        """Stores many (each a dict of ``remember``'s fields); a bad item is reported in ``failed``, never costing
        the others. ``supersedes`` may name the ``metadata.ref`` of earlier items."""
        return self._call(BatchResult, "POST", "/v1/memories:batch", body=_body(memories=list(memories), dedupe=dedupe))

    def remember_messages(self, messages: Sequence[Mapping[str, Any]], *, extract: Optional[bool] = None) -> MessagesResult:
        """Stores chat messages as turns and, with a fact extractor configured on the server, the facts they state."""
        return self._call(MessagesResult, "POST", "/v1/messages", body=_body(messages=list(messages), extract=extract))

    def update(
        self,
        id: str,
        *,
        text: Optional[str] = None,
        title: Optional[str] = None,
        description: Optional[str] = None,
        tags: Optional[Sequence[str]] = None,
        topic: Optional[str] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        expires: Optional[str] = None,
        ttl: Optional[str] = None,
    ) -> Memory:
        """Corrects what a memory says (same id, time and edges; the previous content stays in its history).
        ``CLEAR`` clears a field."""
        body = _body(text=text, title=title, description=description, tags=tags, topic=topic, metadata=metadata, expires=expires, ttl=ttl)
        return self._call(Memory, "PATCH", f"/v1/memories/{_segment(id)}", body=body)

    def forget(self, id: str, *, purge: Optional[bool] = None) -> Forgotten:
        """Forgets one memory; ``purge`` also erases its text from the store's files (on an id forgotten already:
        ``forgotten`` is False and the purge finishes that forget)."""
        return self._call(Forgotten, "DELETE", f"/v1/memories/{_segment(id)}", {"purge": purge})

    def purge(self) -> PurgeReport:
        """Erases every remnant of what was forgotten (a forget interrupted half-way included); needs no id."""
        return self._call(PurgeReport, "POST", "/v1/memories:purge")

    def forget_where(
        self,
        *,
        filter: Optional[Filter] = None,
        before: Optional[str] = None,
        expired: Optional[bool] = None,
        dry_run: Optional[bool] = None,
        purge: Optional[bool] = None,
    ) -> ForgottenWhere:
        """Forgets every memory matching ``filter`` and/or happening before ``before`` (or expired); at least one
        condition. ``dry_run`` counts them only."""
        body = _body(filter=filter, before=before, expired=expired, dry_run=dry_run, purge=purge)
        return self._call(ForgottenWhere, "POST", "/v1/memories:forget", body=body)

    # ---- reading ----

    def get(self, id: str) -> Memory:
        return self._call(Memory, "GET", f"/v1/memories/{_segment(id)}")

    def list(
        self,
        *,
        kind: Optional[Names] = None,
        speaker: Optional[Names] = None,
        under: Optional[str] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        as_of: Optional[str] = None,
        known_at: Optional[str] = None,
        filter: Optional[Filter] = None,
        limit: Optional[int] = None,
        order: Optional[str] = None,
        cursor: Optional[str] = None,
    ) -> MemoryPage:
        """A page of memories in time order; pass its ``next_cursor`` as ``cursor`` for the next (see ``iter_memories``)."""
        query = {"kind": _list(kind), "speaker": _list(speaker), "under": under, "since": since, "until": until, "as_of": as_of,
                 "known_at": known_at, "filter": _filter_query(filter), "limit": limit, "order": order, "cursor": cursor}
        return self._call(MemoryPage, "GET", "/v1/memories", query)

    def iter_memories(self, **options: Any) -> Iterator[Memory]:
        """Every memory ``list`` would page through with these options, following the cursor."""
        cursor = options.pop("cursor", None)
        while True:
            page = self.list(cursor=cursor, **options)
            yield from page.memories
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def search(
        self,
        query: str,
        *,
        k: Optional[int] = None,
        channels: Optional[Sequence[str]] = None,
        weights: Optional[Mapping[str, float]] = None,
        rrf_k: Optional[float] = None,
        depth: Optional[int] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        under: Optional[str] = None,
        match: Optional[str] = None,
        kinds: Optional[Sequence[str]] = None,
        exclude_kinds: Optional[Sequence[str]] = None,
        time: Optional[str] = None,
        now: Optional[str] = None,
        as_of: Optional[str] = None,
        known_at: Optional[str] = None,
        current_only: Optional[bool] = None,
        pyramid: Optional[bool] = None,
        include_expired: Optional[bool] = None,
        coverage: Optional[bool] = None,
        agreement: Optional[bool] = None,
        steps: Optional[Mapping[str, bool]] = None,
        filter: Optional[Filter] = None,
    ) -> SearchResult:
        """Fused search: hits with their per-channel ranks, RRF score and status, and the summaries around them."""
        body = _body(query=query, k=k, channels=_list(channels), weights=weights, rrf_k=rrf_k, depth=depth, since=since, until=until, under=under,
                     match=match, kinds=_list(kinds), exclude_kinds=_list(exclude_kinds), time=time, now=now, as_of=as_of, known_at=known_at,
                     current_only=current_only, pyramid=pyramid, include_expired=include_expired, coverage=coverage, agreement=agreement, steps=steps, filter=filter)
        return self._call(SearchResult, "POST", "/v1/search", body=body)

    def export(self, *, since: Optional[str] = None, until: Optional[str] = None, filter: Optional[Filter] = None) -> Iterator[Dict[str, Any]]:
        """Every memory (or those matching) as ``cascade export`` writes it, one dict a line, streamed."""
        return self._http.lines("GET", "/v1/export", {"since": since, "until": until, "filter": _filter_query(filter)})

    def export_to(self, file: Union[str, "os.PathLike[str]", IO[str]], **options: Any) -> int:
        """Writes ``export``'s lines (JSONL, what ``cascade import`` reads back) to a path or an open text file;
        returns how many memories were written."""
        if isinstance(file, (str, os.PathLike)):
            with open(file, "w", encoding="utf-8") as out:
                return self.export_to(out, **options)
        count = 0
        for record in self.export(**options):
            file.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
        return count

    # ---- the graph ----

    def supersede(self, new: str, old: str, *, reason: Optional[str] = None, at: Optional[str] = None) -> Edge:
        """Records that ``new`` replaces ``old`` from ``at`` on (default: ``new``'s time)."""
        return self._call(Edge, "POST", "/v1/supersede", body=_body(new=new, old=old, reason=reason, at=at))

    def link(self, from_: str, to: str, type: str, *, reason: Optional[str] = None, at: Optional[str] = None) -> Edge:
        """Relates two memories with a typed edge (``relates_to``, ``contradicts``, ``supersedes``...)."""
        return self._call(Edge, "POST", "/v1/links", body=_body(**{"from": from_}, to=to, type=type, reason=reason, at=at))

    def retract(self, id: str) -> Edge:
        """Takes an edge back (it stays in the history, marked retracted)."""
        return self._call(Edge, "POST", f"/v1/edges/{_segment(id)}/retract")

    def history(self, id: str, *, as_of: Optional[str] = None, known_at: Optional[str] = None) -> History:
        """The supersession chain around a memory, its edges and its corrections."""
        return self._call(History, "GET", f"/v1/memories/{_segment(id)}/history", {"as_of": as_of, "known_at": known_at})

    def graph(
        self,
        id: str,
        *,
        depth: Optional[int] = None,
        type: Optional[Names] = None,
        as_of: Optional[str] = None,
        known_at: Optional[str] = None,
    ) -> Graph:
        """The memories and entities around a memory, ``depth`` hops out over edges of the given ``type``s."""
        return self._call(Graph, "GET", f"/v1/graph/{_segment(id)}", {"depth": depth, "type": _list(type), "as_of": as_of, "known_at": known_at})

    def entities(self, *, query: Optional[str] = None, top: Optional[int] = None, filter: Optional[Filter] = None) -> EntityList:
        return self._call(EntityList, "GET", "/v1/entities", {"query": query, "top": top, "filter": _filter_query(filter)})

    def current(
        self,
        *,
        filter: Optional[Filter] = None,
        about: Optional[str] = None,
        as_of: Optional[str] = None,
        known_at: Optional[str] = None,
        history: Optional[bool] = None,
        limit: Optional[int] = None,
    ) -> CurrentState:
        """What is true now in a scope, newest first: each standing fact with what it replaced (``history``: every
        older version behind it); ``about`` narrows to an entity's memories, or to what a search finds for it."""
        return self._call(CurrentState, "GET", "/v1/current", {"filter": _filter_query(filter), "about": about, "as_of": as_of,
                                                               "known_at": known_at, "history": history, "limit": limit})

    def suggestions(self) -> SuggestionList:
        """Open revision suggestions, waiting for a decision."""
        return self._call(SuggestionList, "GET", "/v1/suggestions")

    def decide_suggestion(self, id: str, decision: str) -> Suggestion:
        """``decision``: ``accepted`` (records the edge) or ``rejected``."""
        return self._call(Suggestion, "POST", f"/v1/suggestions/{_segment(id)}", body={"decision": decision})

    # ---- topics and the summary pyramid ----

    def topics(self, *, under: Optional[str] = None) -> TopicTree:
        return self._call(TopicTree, "GET", "/v1/topics", {"under": under})

    def save_topic(self, path: str, *, description: Optional[str] = None) -> Topic:
        """Creates a topic, or describes one."""
        return self._call(Topic, "POST", "/v1/topics", body=_body(path=path, description=description))

    def move_topic(self, from_: str, to: str) -> TopicMove:
        return self._call(TopicMove, "POST", "/v1/topics:move", body={"from": from_, "to": to})

    def merge_topic(self, from_: str, to: str) -> TopicMove:
        return self._call(TopicMove, "POST", "/v1/topics:merge", body={"from": from_, "to": to})

    def delete_topic(self, path: str) -> TopicDeleted:
        """Deletes an empty topic."""
        return self._call(TopicDeleted, "DELETE", f"/v1/topics/{_segment(path)}")

    def pyramid(self, *, level: Optional[str] = None, filter: Optional[Filter] = None) -> Pyramid:
        """The summary nodes (``level``: day, week or month), every scope's; with ``filter``, the one user's or agent's it names."""
        return self._call(Pyramid, "GET", "/v1/pyramid", {"level": level, "filter": _filter_query(filter)})

    def build_pyramid(self) -> PyramidBuild:
        """Recomputes the summary windows that changed."""
        return self._call(PyramidBuild, "POST", "/v1/pyramid:build")


def _list(value: Optional[Names]) -> Optional[List[str]]:
    """A name or several, as a list (a bare string is one name, not its letters)."""
    if value is None:
        return None
    return [value] if isinstance(value, str) else list(value)


def _filter_query(flt: Optional[Filter]) -> Optional[List[str]]:
    if flt is None:
        return None
    if not isinstance(flt, Mapping):
        raise CascadeError("INVALID_INPUT", f"filter: a dict such as {{'user': 'alice'}}, got {type(flt).__name__}", field="filter")
    return filter_args(flt)
