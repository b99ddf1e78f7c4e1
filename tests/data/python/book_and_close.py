"""The official Python MCP client against a server on streamable HTTP: a 2025-11-25 session
(`initialize`), one `book` call whose form it answers, then a clean close (the client sends
DELETE and logs a warning unless the server answers 200 or 204). Prints the tool's text.

Usage: python book_and_close.py URL TOKEN (the bearer token of every request)
"""

import logging
import sys

import anyio
import httpx2
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client


async def answer(context, params):
    return types.ElicitResult(action="accept", content={"checkIn": "2026-12-24", "nights": 2})


async def main(url, token):
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
    async with streamable_http_client(url, http_client=http) as (read, write):
        async with ClientSession(read, write, elicitation_callback=answer) as session:
            await session.initialize()
            result = await session.call_tool("book", {"name": "Ritz"})
            print("".join(block.text for block in result.content if block.type == "text"))


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    anyio.run(main, sys.argv[1], sys.argv[2])
