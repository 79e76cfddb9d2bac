"""Export a :class:`~receiptgate.provenance.graph.TurnGraph` as OpenTelemetry spans.

Needs the ``otel`` extra (``pip install 'receiptgate[otel]'``); the SDK is imported
only when :func:`export_turn_graph` runs.

One span per turn (``receiptgate.turn``) with the summary as attributes, and one
child span per node (``receiptgate.<kind>``) carrying its trust, kind, content hash,
tool and iteration, the ids it was derived from, and the preview only when asked.
Each data edge also becomes a span link from the derived node to its input, with
the relation as the link's attribute.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from receiptgate._exceptions import ConfigError
from receiptgate.provenance.graph import DATA_RELATIONS, GraphNode, TurnGraph
from receiptgate.provenance.trust import is_tainted

if TYPE_CHECKING:
    from opentelemetry.trace import TracerProvider

__all__ = ["ATTR_PREFIX", "OtlpTurnExporter", "export_turn_graph", "otlp_traces_url"]

ATTR_PREFIX = "receiptgate"
_INSTRUMENTATION = "receiptgate.provenance"


def _require_sdk() -> None:
    try:
        import opentelemetry.sdk.trace
        import opentelemetry.trace  # noqa: F401
    except ImportError as e:
        raise ConfigError(
            f"OpenTelemetry export needs the 'otel' extra: pip install 'receiptgate[otel]' ({e})"
        ) from e


def _ns(seconds: float | None) -> int | None:
    return None if seconds is None else round(seconds * 1_000_000_000)


def _node_attributes(graph: TurnGraph, node: GraphNode, include_previews: bool) -> dict[str, Any]:
    p = f"{ATTR_PREFIX}.node"
    attrs: dict[str, Any] = {
        f"{p}.id": node.id,
        f"{p}.kind": node.kind,
        f"{p}.trust": node.trust,
        f"{p}.tainted": is_tainted(node.trust),
        f"{p}.blocked": node.blocked,
        f"{p}.inputs": graph.inputs_of(node.id),
    }
    optional = {
        f"{p}.stated_trust": node.stated_trust,
        f"{p}.content_hash": node.content_hash,
        f"{p}.tool": node.tool,
        f"{p}.source": node.source,
        f"{p}.iteration": node.iteration,
        f"{p}.block_reason": node.block_reason,
    }
    attrs.update({k: v for k, v in optional.items() if v is not None})
    others = [
        f"{e.relation}:{e.to}"
        for e in graph.edges
        if e.from_ == node.id and e.relation not in DATA_RELATIONS
    ]
    if others:
        attrs[f"{p}.edges"] = others
    if include_previews and node.content_preview is not None:
        attrs[f"{p}.preview"] = node.content_preview
    tainted_by = graph.tainted_by(node.id)
    if tainted_by:
        attrs[f"{p}.tainted_by"] = tainted_by
    return attrs


def _topological(graph: TurnGraph) -> list[GraphNode]:
    done: dict[str, GraphNode] = {}

    def visit(nid: str) -> None:
        if nid in done:
            return
        for i in graph.inputs_of(nid):
            visit(i)
        done[nid] = graph.node(nid)

    for n in graph.nodes:
        visit(n.id)
    return list(done.values())


def export_turn_graph(
    graph: TurnGraph,
    *,
    tracer_provider: TracerProvider | None = None,
    include_previews: bool = False,
) -> str:
    """Emits ``graph`` as spans and returns the trace id (32 hex digits).

    Args:
        graph: the turn to export.
        tracer_provider: where spans go; the global provider when omitted.
        include_previews: add the (already redacted) content previews as attributes.

    Raises:
        ConfigError: when the OpenTelemetry SDK is not installed (the ``otel`` extra).
    """
    _require_sdk()
    from opentelemetry import trace

    provider = tracer_provider if tracer_provider is not None else trace.get_tracer_provider()
    tracer = provider.get_tracer(_INSTRUMENTATION)
    summary = graph.summary()
    times = [n.at for n in graph.nodes if n.at is not None]
    start = graph.timestamp if graph.timestamp is not None else (min(times) if times else None)
    end: int | None = None
    if start is not None and graph.duration_ms is not None:
        end = round(start * 1_000_000_000) + round(graph.duration_ms * 1_000_000)
    elif times:
        end = _ns(max(times))
    root_attrs: dict[str, Any] = {
        f"{ATTR_PREFIX}.turn.id": graph.turn_id,
        f"{ATTR_PREFIX}.turn.session_key": graph.session_key,
        f"{ATTR_PREFIX}.turn.max_taint": summary.max_taint,
        f"{ATTR_PREFIX}.turn.tainted": is_tainted(summary.max_taint),
        f"{ATTR_PREFIX}.turn.external_sources": summary.external_sources,
        f"{ATTR_PREFIX}.turn.blocked_tools": summary.blocked_tools,
        f"{ATTR_PREFIX}.turn.iteration_count": summary.iteration_count,
        f"{ATTR_PREFIX}.turn.node_count": summary.node_count,
    }
    if graph.agent_id is not None:
        root_attrs[f"{ATTR_PREFIX}.turn.agent_id"] = graph.agent_id
    root = tracer.start_span(f"{ATTR_PREFIX}.turn", attributes=root_attrs, start_time=_ns(start))
    parent = trace.set_span_in_context(root)
    contexts: dict[str, trace.SpanContext] = {}
    for node in _topological(graph):
        links = [
            trace.Link(contexts[e.to], {f"{ATTR_PREFIX}.relation": e.relation})
            for e in graph.edges
            if e.relation == "derived_from" and e.from_ == node.id and e.to in contexts
        ]
        links += [
            trace.Link(contexts[e.from_], {f"{ATTR_PREFIX}.relation": e.relation})
            for e in graph.edges
            if e.relation == "input_to" and e.to == node.id and e.from_ in contexts
        ]
        name = f"{ATTR_PREFIX}.{node.kind}" + (f" {node.tool}" if node.tool else "")
        at = _ns(node.at if node.at is not None else start)
        span = tracer.start_span(
            name,
            context=parent,
            attributes=_node_attributes(graph, node, include_previews),
            links=links,
            start_time=at,
        )
        contexts[node.id] = span.get_span_context()
        span.end(end_time=at)
    root.end(end_time=end)
    return f"{root.get_span_context().trace_id:032x}"


def otlp_traces_url(endpoint: str, *, source: str = "endpoint") -> str:
    """The OTLP/HTTP traces URL for ``endpoint``: a collector's base URL gets
    ``/v1/traces`` appended; a URL with a path is used as given.

    Raises:
        ConfigError: not an ``http``/``https`` URL (the message names ``source``).
    """
    from urllib.parse import urlsplit

    parts = urlsplit(endpoint.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            f"{source}: expected an http(s) URL of an OTLP/HTTP collector, "
            f"e.g. http://localhost:4318 (got {endpoint!r})"
        )
    if parts.path in ("", "/"):
        return parts._replace(path="/v1/traces").geturl()
    return parts.geturl()


class OtlpTurnExporter:
    """Sends finished turns as spans to an OTLP/HTTP collector, in the background.

    Spans are batched by the SDK's ``BatchSpanProcessor`` (its ``OTEL_BSP_*``
    variables apply) and sent as protobuf; ``OTEL_EXPORTER_OTLP_HEADERS`` /
    ``OTEL_EXPORTER_OTLP_TRACES_HEADERS`` add headers (e.g. a collector's token).
    The resource's ``service.name`` is ``receiptgate`` unless ``OTEL_SERVICE_NAME``
    says otherwise. Export is best effort: a collector that is down loses spans
    (the OTel SDK logs it), never a validation; the store keeps every graph.

    Args:
        endpoint: the collector, e.g. ``http://localhost:4318`` (see :func:`otlp_traces_url`).
        include_previews: add the (already redacted) content previews to the spans.
        source: how errors name the setting (``--otel-endpoint``, a variable).

    Raises:
        ConfigError: a bad endpoint, or the ``otel`` extra is not installed.
    """

    def __init__(
        self, endpoint: str, *, include_previews: bool = False, source: str = "endpoint"
    ) -> None:
        self.url = otlp_traces_url(endpoint, source=source)
        _require_sdk()
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        except ImportError as e:
            raise ConfigError(
                f"{source}: OTLP export needs the 'otel' extra: "
                f"pip install 'receiptgate[otel]' ({e})"
            ) from e
        import os

        from opentelemetry.sdk.resources import SERVICE_NAME, Resource
        from opentelemetry.sdk.trace import TracerProvider as SdkTracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor

        attributes = {} if os.environ.get("OTEL_SERVICE_NAME") else {SERVICE_NAME: "receiptgate"}
        self.include_previews = include_previews
        self.provider = SdkTracerProvider(resource=Resource.create(attributes))
        self.provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=self.url)))

    def export(self, graph: TurnGraph) -> str:
        """Queues ``graph``'s spans for sending; returns the trace id."""
        return export_turn_graph(
            graph, tracer_provider=self.provider, include_previews=self.include_previews
        )

    def shutdown(self) -> None:
        """Sends what is queued (bounded by the exporter's timeout) and stops."""
        self.provider.shutdown()
