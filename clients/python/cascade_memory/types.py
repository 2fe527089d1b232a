"""What the API answers, as dataclasses with the wire's field names (snake_case, as the JSON has them).

One exception: a field named ``from`` on the wire is ``from_`` here (``from`` is a Python keyword). Fields that only
some answers carry (an edge's ``in_force`` in a list, ``current`` in a graph) default to None. Times are ISO 8601
strings, as on the wire.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass
class Health:
    ok: bool


@dataclass
class Edge:
    """A typed relation between two memories (``supersedes``, ``relates_to``...) or, in a graph, a mention."""

    type: str
    from_: str
    to: str
    valid_from: str
    valid_to: Optional[str]
    id: Optional[str] = None
    recorded_at: Optional[str] = None
    retracted_at: Optional[str] = None
    provenance: Optional[str] = None
    confidence: Optional[float] = None
    reason: Optional[str] = None
    # the statement (sentence) of ``to`` this edge replaces; None: all ``to`` says
    statement: Optional[str] = None
    # in a page of memories: whether it holds at the page's as_of/known_at
    in_force: Optional[bool] = None
    # in a graph: whether it holds at the graph's as_of/known_at
    current: Optional[bool] = None


@dataclass
class Suggestion:
    """A possible revision detection was not sure of: ``from_`` may supersede ``to``."""

    id: str
    from_: str
    to: str
    confidence: float
    reason: str
    created_at: Optional[str]
    status: str


@dataclass
class EnrichmentWarning:
    """An optional step (entities, topic, revisions) that failed on a stored memory: it is stored without it."""

    step: str
    reason: str
    # in a batch's answer: the item's index
    index: Optional[int] = None


@dataclass
class RevisedStatement:
    """A statement of a memory that a later memory replaced; the rest of what it says still stands."""

    statement: str
    by: str


@dataclass
class Remembered:
    id: str
    kind: str
    topic: Optional[str]
    at: str
    edges: List[Edge]
    suggestions: List[Suggestion]
    existing: Optional[bool] = None
    warnings: Optional[List[EnrichmentWarning]] = None


@dataclass
class BatchFailure:
    index: int
    error: str


@dataclass
class BatchResult:
    imported: int
    skipped: int
    # one entry per item: its id, the id of the memory that already held it (dedupe), or None when it failed
    ids: List[Optional[str]]
    failed: List[BatchFailure]
    warnings: List[EnrichmentWarning] = field(default_factory=list)


@dataclass
class Fact:
    id: str
    text: str
    derived_from: List[str]


@dataclass
class MessagesResult:
    imported: int
    skipped: int
    ids: List[Optional[str]]
    failed: List[BatchFailure]
    facts: List[Fact]
    warnings: List[EnrichmentWarning] = field(default_factory=list)


@dataclass
class Memory:
    id: str
    kind: str
    text: str
    title: Optional[str]
    description: Optional[str]
    tags: List[str]
    topic: Optional[str]
    role: Optional[str]
    speaker: Optional[str]
    session: Optional[str]
    user: Optional[str]
    agent: Optional[str]
    at: str
    expires: Optional[str]
    metadata: Dict[str, Any]
    chunks: int
    recorded_at: str
    # with get and list (not update's answer): the status now, and the supersession edges' other ends
    status: Optional[str] = None
    superseded_by: Optional[List[str]] = None
    supersedes: Optional[List[str]] = None
    revised: Optional[List[RevisedStatement]] = None


@dataclass
class MemoryPage:
    memories: List[Memory]
    # every edge into or out of a listed memory
    edges: List[Edge]
    # pass as cursor for the next page; None on the last page
    next_cursor: Optional[str]


@dataclass
class Purged:
    """What erasing a forgotten text from the store's files did."""

    terms_dropped: int
    checkpointed: bool


@dataclass
class Forgotten:
    id: str
    forgotten: bool
    summaries_rebuilt: int
    purged: Optional[Purged] = None  # with purge only


@dataclass
class PurgeReport:
    """What erasing every remnant of what was forgotten did (``purge()``)."""

    summaries_rebuilt: int
    turn_summaries_removed: int
    terms_dropped: int
    checkpointed: bool


@dataclass
class ForgottenWhere:
    matched: int
    forgotten: int
    dry_run: bool
    ids: List[str]
    summaries_rebuilt: int
    purged: Optional[Purged] = None


@dataclass
class Window:
    start: str
    end: str


@dataclass
class Chunk:
    ord: int
    start: int
    end: int
    text: str


@dataclass
class Adjustment:
    """How ``score`` departs from ``rrf``: a factor or a delta, with its reason."""

    reason: str
    factor: Optional[float] = None
    delta: Optional[float] = None


@dataclass
class Hit:
    id: str
    kind: str
    level: Optional[str]
    window: Optional[Window]
    text: str
    title: Optional[str]
    topic: Optional[str]
    at: str
    speaker: Optional[str]
    ref: Optional[str]
    chunk: Chunk
    sources_hit: List[str]
    ranks: Dict[str, int]
    rrf: float
    score: float
    adjustments: List[Adjustment]
    status: str
    superseded_by: List[str]
    supersedes: List[str]
    revised: List[RevisedStatement]
    user: Optional[str]
    agent: Optional[str]
    contradicts: List[str]
    # only on a summary whose window's refresh has not ended (a search does not wait for it)
    stale: Optional[bool] = None


@dataclass
class Sentence:
    """A summary's sentence, with the memories it came from and whether what it says still holds."""

    text: str
    speaker: Optional[str]
    at: str
    sources: List[str]
    status: str
    superseded_by: List[str]
    chunk: Optional[int] = None
    revises: Optional[List[str]] = None


@dataclass
class ContextSummary:
    id: str
    level: str
    window: Window
    text: str
    sentences: List[Sentence]
    sources: List[str]
    hits: List[str]
    # only when its window's refresh has not ended (a search does not wait for it)
    stale: Optional[bool] = None


@dataclass
class TimeWindow:
    """The time window a search read from its query ("last week")."""

    phrase: str
    start: str
    end: str
    level: str
    matched: int


@dataclass
class Budget:
    """Late interaction's work budget, when it bit: index entries it may read, read, and the words left unread."""

    limit: int
    used: int
    skipped: List[str]


@dataclass
class Agreement:
    """Why a channel's weight adapted to the query: weight = base × factor, from `shared` of its top `of` memories."""

    base: float
    shared: int
    of: int
    factor: float


@dataclass
class ChannelReport:
    weight: float
    candidates: int
    ms: float
    # why the channel returned nothing without looking (the store lacks what it needs)
    unsupported: Optional[str] = None
    budget: Optional[Budget] = None
    # present when the search asked for agreement-adapted weights
    agreement: Optional[Agreement] = None


@dataclass
class SearchResult:
    query: str
    k: int
    rrf_k: float
    hits: List[Hit]
    context: List[ContextSummary]
    time: Optional[TimeWindow]
    time_note: Optional[str]
    channels: Dict[str, ChannelReport]
    # what each read-time step did: "changed", "unchanged", "off" or "not run"
    steps: Dict[str, str]
    annotate_ms: float
    took_ms: float


@dataclass
class ChainLink:
    id: str
    status: str
    valid_from: str
    valid_to: Optional[str]
    text: str


@dataclass
class Revision:
    """What a memory said before a correction (update) recorded at ``recorded_at``."""

    recorded_at: str
    text: str
    title: Optional[str]


@dataclass
class History:
    id: str
    chain: List[ChainLink]
    edges: List[Edge]
    revisions: List[Revision]


@dataclass
class GraphNode:
    """A memory (``text``, ``at``) or an entity (``name``, ``kind``, ``memories``) around the memory asked about."""

    id: str
    type: str
    depth: int
    status: str
    text: Optional[str] = None
    at: Optional[str] = None
    name: Optional[str] = None
    kind: Optional[str] = None
    memories: Optional[int] = None


@dataclass
class Graph:
    id: str
    as_of: str
    known_at: str
    nodes: List[GraphNode]
    edges: List[Edge]
    truncated: bool


@dataclass
class Entity:
    id: str
    name: str
    key: str
    kind: str
    memories: int


@dataclass
class EntityList:
    entities: List[Entity]


@dataclass
class SuggestionList:
    suggestions: List[Suggestion]


@dataclass
class Topic:
    path: str
    count: int
    total: int
    description: Optional[str]


@dataclass
class TopicTree:
    topics: List[Topic]


@dataclass
class TopicMove:
    from_: str
    to: str
    memories: int


@dataclass
class TopicDeleted:
    path: str
    deleted: bool


@dataclass
class Replaced:
    """An older memory (or one sentence of it) that a current fact replaced."""

    id: str
    text: str
    statement: bool  # True when only that sentence of the older memory was replaced
    since: str
    until: str
    reason: Optional[str]
    confidence: float
    provenance: str
    edge: str


@dataclass
class CurrentFact:
    """A statement that stands now: the memory's text, or only its sentences that still stand."""

    id: str
    text: str
    since: str
    kind: str
    user: Optional[str]
    agent: Optional[str]
    speaker: Optional[str]
    revised: List[RevisedStatement]
    replaced: List[Replaced]
    history: Optional[List[Replaced]] = None


@dataclass
class AttributeValue:
    """An earlier value of a standing attribute: the memory that stated it and when it was true from."""

    value: str
    id: str
    since: str


@dataclass
class AttributeState:
    """A standing attribute (a diet, an employer, a way to work, ...) and the value that stands now."""

    attribute: str
    value: str
    text: str  # the sentence that states it
    id: str
    since: str
    user: Optional[str]
    agent: Optional[str]
    holder: Optional[str]  # whose attribute it is, when the memories name a speaker
    before: List[AttributeValue]  # earlier values, newest first


@dataclass
class CurrentState:
    as_of: str
    known_at: str
    # {"entity": {"id", "name", "kind"}} or {"query": ...}, or None
    about: Optional[Dict[str, Any]]
    facts: List[CurrentFact]
    truncated: bool
    # each standing attribute's value now (servers before it was added send none)
    attributes: List[AttributeState] = field(default_factory=list)


@dataclass
class PyramidNode:
    id: str
    level: str
    start: str
    end: str
    text: str
    children: int
    sentences: List[Sentence] = field(default_factory=list)
    # whose node it is: a user's, an agent's, or the whole namespace's (both None)
    user: Optional[str] = None
    agent: Optional[str] = None


@dataclass
class Pyramid:
    zone: str
    dirty: int
    nodes: List[PyramidNode]


@dataclass
class PyramidBuild:
    recomputed: Dict[str, int]
    written: int
    removed: int
    took_ms: float
    turns: Optional[int] = None
    refused: int = 0  # summaries not written: a memory they were read from was forgotten meanwhile


@dataclass
class Stats:
    memories: int
    summaries: int
    chunks: int
    terms: int
    bytes: int
    embedder: str


@dataclass
class DoctorCheck:
    name: str
    ok: bool
    detail: str
    repaired: Optional[bool] = None


@dataclass
class DoctorReport:
    ok: bool
    checks: List[DoctorCheck]


__all__ = [name for name, value in list(globals().items()) if isinstance(value, type) and dataclasses.is_dataclass(value)]
