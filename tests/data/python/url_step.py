"""The official Python MCP client on 2026-07-28 (`auto` negotiates by `server/discover`) against
`examples/url_mode_server`: `connect_example_co` asks in URL mode; the elicitation callback
prints the link (`link URL`) and consents at once, and the person then takes their time in the
browser (the test opens the link minutes later), while the SDK retries its input-required rounds
with its own defaults (at most 10 rounds, its HTTP timeouts).

Prints the revision, the link, then the tool's text; exits non-zero on anything else.

Usage: python url_step.py URL
"""

import sys

import anyio
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client


async def consent(context, params):
    if params.mode != "url":
        raise SystemExit(f"not a URL request: {params}")
    print(f"link {params.url}", flush=True)
    return types.ElicitResult(action="accept")


async def main(url: str) -> None:
    async with Client(streamable_http_client(url), mode="auto", elicitation_callback=consent) as client:
        print(f"revision {client.protocol_version}", flush=True)
        result = await client.call_tool("connect_example_co", {})
        print("connect: " + "".join(block.text for block in result.content if block.type == "text"), flush=True)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
