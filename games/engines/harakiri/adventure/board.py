"""Map geometry: locations joined by imperial roads and dangerous paths, ports and seas."""

from functools import lru_cache

import networkx as nx

from .content import MAP

LOCATIONS = MAP["locations"]
SEAS = MAP["seas"]


@lru_cache(maxsize=1)
def graph() -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(sorted(LOCATIONS))
    for route in MAP["routes"]:
        g.add_edge(route["a"], route["b"], kind=route["kind"])
    return g


def exists(location) -> bool:
    return isinstance(location, str) and location in LOCATIONS


def neighbours(location: str) -> list[str]:
    return sorted(graph().neighbors(location))


def route_kind(a: str, b: str) -> str | None:
    """"road" (imperial road, paved), "path" (dangerous path) or None if not adjacent."""
    data = graph().get_edge_data(a, b)
    return data["kind"] if data else None


def services(location: str) -> list[str]:
    return list(LOCATIONS[location].get("services", []))


def is_city(location: str) -> bool:
    return LOCATIONS[location]["kind"] == "city"


def is_port(location: str) -> bool:
    return "port" in services(location)


def sea_of(location: str) -> str | None:
    return LOCATIONS[location].get("sea") if is_port(location) else None


def ports(sea: str | None = None) -> list[str]:
    return sorted(k for k in LOCATIONS if is_port(k) and (sea is None or sea_of(k) == sea))


def shortest_paths(source: str, target: str, blocked=()) -> list[list[str]]:
    """Every shortest land path from ``source`` to ``target`` avoiding ``blocked`` locations."""
    g = graph()
    if blocked:
        g = nx.restricted_view(g, [b for b in blocked if b not in (source, target)], [])
    try:
        return sorted(nx.all_shortest_paths(g, source, target))
    except nx.NetworkXNoPath:
        return []


def distance(source: str, target: str) -> int | None:
    try:
        return nx.shortest_path_length(graph(), source, target)
    except nx.NetworkXNoPath:
        return None
