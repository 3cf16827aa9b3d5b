"""``HOST[:PORT]`` as people type it, for ``neveryu join`` and ``neveryu bot``."""

from __future__ import annotations

from neveryu import protocol


def parse_address(text: str, default_port: int = protocol.DEFAULT_PORT) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT``, ``[v6]:PORT`` (or a bare IPv6 address) → (host, port).

    Raises ValueError with a sentence for people: a port that is not a number, or out of
    1..65535; an empty host."""
    text = text.strip()
    host, port_text = text, None
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                raise ValueError(f"{text!r}: expected [ADDRESS]:PORT")
            port_text = rest[1:]
    elif text.count(":") == 1:
        host, _, port_text = text.partition(":")
    if not host:
        raise ValueError(f"{text!r}: no host before the port (HOST:PORT, e.g. 192.168.1.20:{default_port})")
    port = default_port
    if port_text is not None:
        if not port_text.isdigit():
            raise ValueError(
                f"the port must be a number, not {port_text!r} (HOST:PORT, e.g. {host}:{default_port})"
            )
        port = int(port_text)
    if not 0 < port < 65536:
        raise ValueError(f"the port must be between 1 and 65535, not {port}")
    return host, port


def show_address(host: str, port: int) -> str:
    """The address as one types it back: ``host:port``, ``[v6]:port``."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
