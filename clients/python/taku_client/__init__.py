"""taku_client: an asyncio client library and a terminal client for taku servers.

See docs/clients.md. The library speaks the server's own protocol Structs
(:mod:`taku.protocol`) and resumes subscriptions after a dropped connection.
"""

from taku_client.client import (
    CommandError,
    ConnectionLost,
    Feed,
    TakuClient,
    TakuClientError,
    event_data,
    new_command_id,
    ws_url,
)
from taku_client.links import Link, invite_link, parse_link

__all__ = [
    "CommandError",
    "ConnectionLost",
    "Feed",
    "Link",
    "TakuClient",
    "TakuClientError",
    "event_data",
    "invite_link",
    "new_command_id",
    "parse_link",
    "ws_url",
]
