"""The official Python MCP client against the crate page's HTTP recipe (`examples/http_server`):
on the revision MODE names (`auto` negotiates by `server/discover` and lands on 2026-07-28,
`legacy` uses the `initialize` handshake, 2025-11-25), as the user whose bearer token is ALICE:

1. `book`, a form asked in the call and answered by the elicitation callback;
2. `clean_up` as a task (the tasks extension declared): created, polled until it asks, the ask
   answered by `tasks/update`, polled until it completes;
3. meanwhile a second client with the token OTHER (another user) can neither read the task nor
   answer it: both are "unknown task".

Prints one line per step; exits non-zero on anything else.

The Python SDK 2.3.0 has no types for the tasks extension: its requests go through the
session's `send_request` with an untyped result. On 2025-11-25 the SDK checks a `tools/call`
result against `CallToolResult`, which a task result is not, so that one request goes through
the session's dispatcher as it is.

Usage: python recipe_tasks.py URL MODE ALICE OTHER
"""

import json
import sys
from typing import Any, ClassVar

import anyio
import httpx2
from mcp import Client, types
from mcp.client import advertise
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

TASKS = "io.modelcontextprotocol/tasks"
ANY = TypeAdapter(dict[str, Any])


class Untyped(types.Request[dict[str, Any] | None, str]):
    """A request whose result the SDK has no model for: a tool call that may become a task."""

    method: str
    params: dict[str, Any] | None = None
    name_param: ClassVar[str | None] = "name"


class TaskRequest(Untyped):
    """A request of the tasks extension (`tasks/get`, `tasks/update`): `Mcp-Name` is the task."""

    name_param: ClassVar[str | None] = "taskId"


async def answer(context, params):
    return types.ElicitResult(action="accept", content={"checkIn": "2026-12-24", "nights": 2})


def connect(url: str, mode: str, token: str) -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
    return Client(
        streamable_http_client(url, http_client=http),
        mode=mode,
        extensions=[advertise(TASKS)],
        elicitation_callback=answer,
    )


async def request(client: Client, method: str, params: dict[str, Any]) -> dict[str, Any]:
    session = client.session
    if method == "tools/call" and client.protocol_version == "2025-11-25":
        return await session._dispatcher.send_raw_request(method, params, {})
    model = Untyped if method == "tools/call" else TaskRequest
    return await session.send_request(model(method=method, params=params), ANY)


async def poll(client: Client, task: str, until: set[str]) -> dict[str, Any]:
    with anyio.fail_after(30):
        while True:
            got = await request(client, "tasks/get", {"taskId": task})
            if got["status"] in until:
                return got
            await anyio.sleep(0.1)


async def refused(client: Client, method: str, params: dict[str, Any]) -> str:
    try:
        got = await request(client, method, params)
    except MCPError as error:
        return f"{error.error.code} {error.error.message}"
    raise SystemExit(f"{method} of another user's task was answered: {json.dumps(got)}")


async def main(url: str, mode: str, alice: str, other: str) -> None:
    async with connect(url, mode, alice) as client, connect(url, mode, other) as intruder:
        print(f"revision {client.protocol_version}")
        booked = await client.call_tool("book", {"name": "Ritz"})
        print("book: " + "".join(block.text for block in booked.content if block.type == "text"))

        created = await request(client, "tools/call", {"name": "clean_up", "arguments": {}})
        if created.get("resultType") != "task":
            raise SystemExit(f"clean_up did not become a task: {json.dumps(created)}")
        task = created["taskId"]
        asking = await poll(client, task, {"input_required", "failed", "completed"})
        if asking["status"] != "input_required":
            raise SystemExit(f"the task did not ask: {json.dumps(asking)}")
        print("task asks: " + ", ".join(sorted(asking["inputRequests"])))

        print("other user reads: " + await refused(intruder, "tasks/get", {"taskId": task}))
        scope = {"action": "accept", "content": {"archive": True, "years": 2}}
        print(
            "other user answers: "
            + await refused(intruder, "tasks/update", {"taskId": task, "inputResponses": {"scope": scope}})
        )

        await request(client, "tasks/update", {"taskId": task, "inputResponses": {"scope": scope}})
        done = await poll(client, task, {"completed", "failed", "cancelled"})
        if done["status"] != "completed":
            raise SystemExit(f"the task did not complete: {json.dumps(done)}")
        text = "".join(block["text"] for block in done["result"]["content"] if block["type"] == "text")
        print("task completed: " + text)


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:5])
