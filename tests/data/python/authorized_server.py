"""The official Python MCP client, signed in through OAuth, and headless Chromium against
`examples/authorized_server` and the test OpenID provider (`.ci/oidc`), on the revision MODE
names (`auto` negotiates by `server/discover`, `legacy` uses the `initialize` handshake,
2025-11-25).

Each user's client has the SDK's own OAuth client provider (`OAuthClientProvider`): the
server's 401 names its protected-resource metadata, from which the client finds the provider,
registers itself (dynamic client registration) and runs the authorization code flow with PKCE
and `resource`. Its redirect handler opens the authorization URL in the user's own Chromium
context, where the person signs in at the provider's form by name; a loopback HTTP server of
this script catches the redirect and hands the code, state and issuer back to the SDK.

1. bob signs in (his own browser context) and calls `whoami`;
2. alice signs in (another context) and calls `whoami`, then `book`, answering its form;
3. alice calls `connect_calendar`: the URL-mode callback consents and the people at the
   browsers open the link: bob's browser goes through the page's login at the provider (signed
   in there already) and back to the link, and is refused (403, no form); alice's does the same
   and gets the form, which she fills and sends; the tool's result comes back;
4. on 2025-11-25, bob's access token on alice's session (its `Mcp-Session-Id`) gets 404 on
   POST, GET and DELETE, and alice's session still answers her.

Prints one line per step, for the test to compare; exits non-zero, saying what went wrong, on
anything else.

Usage: python authorized_server.py URL MODE ISSUER CHROMIUM KEY
"""

import sys
from urllib.parse import parse_qs, urlparse

import anyio
import httpx2
from anyio.abc import SocketAttribute
from mcp import Client, types
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from playwright.async_api import async_playwright

# The SDK's own timeouts (`create_mcp_http_client`): a server may hold a response open.
TIMEOUT = httpx2.Timeout(30.0, read=300.0)
# How long one step through the browser may take.
BROWSER_STEP_SECONDS = 60


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"failed: {what}")


class MemoryStorage:
    """The SDK's `TokenStorage`, in memory: one user's registration and tokens."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


class Callback:
    """A loopback HTTP server that catches the authorization server's redirect: the
    `redirect_uri` of one user's client."""

    def __init__(self) -> None:
        self.send, self.received = anyio.create_memory_object_stream[dict](1)
        self.port = 0

    async def start(self, services) -> None:
        listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
        self.port = listener.extra(SocketAttribute.local_port)
        services.start_soon(listener.serve, self.answer)

    @property
    def uri(self) -> str:
        return f"http://127.0.0.1:{self.port}/callback"

    async def answer(self, stream) -> None:
        async with stream:
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = await stream.receive()
                request += chunk
            method, target, _ = request.split(b"\r\n", 1)[0].decode().split(" ", 2)
            url = urlparse(target)
            found = method == "GET" and url.path == "/callback"
            body = b"Signed in; the client has the code.\n" if found else b"not found\n"
            status = b"200 OK" if found else b"404 Not Found"
            await stream.send(
                b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain\r\ncontent-length: "
                + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body
            )
            if found:
                query = {name: values[0] for name, values in parse_qs(url.query).items()}
                await self.send.send(query)

    async def code(self) -> AuthorizationCodeResult:
        with anyio.fail_after(BROWSER_STEP_SECONDS):
            query = await self.received.receive()
        check("error" not in query, f"the provider refused the authorization: {query}")
        check("code" in query, f"no code in the redirect: {query}")
        return AuthorizationCodeResult(code=query["code"], state=query.get("state"), iss=query.get("iss"))


async def through_the_provider(page, url: str, issuer: str, user: str, until: str) -> tuple[int, bool]:
    """Opens `url` in `page`, signs in at the provider's form as `user` if it asks (a browser
    with a session there passes without it), and follows the redirects until the page is at an
    address starting with `until`: the status of the response that landed there, and whether
    the provider asked for the user's name."""
    statuses = {}
    page.on("response", lambda response: statuses.__setitem__(response.url, response.status))
    await page.goto(url)
    asked = page.url.startswith(f"{issuer}/interaction/")
    if asked:
        check(await page.locator("input[name=username]").count() == 1, f"the provider's form at {page.url}")
        await page.fill("input[name=username]", user)
        await page.click("button[type=submit]")
    await page.wait_for_url(lambda address: address.startswith(until), timeout=BROWSER_STEP_SECONDS * 1000)
    check(page.url in statuses, f"no response seen for {page.url}")
    check(any(address.startswith(f"{issuer}/auth") for address in statuses), f"{url} did not pass through the provider")
    return statuses[page.url], asked


class Person:
    """A user: their own Chromium context, and their client's OAuth provider, whose sign-in
    goes through that context."""

    def __init__(self, name: str, url: str, issuer: str, context, callback: Callback) -> None:
        self.name, self.issuer, self.context, self.callback = name, issuer, context, callback
        self.storage = MemoryStorage()
        metadata = OAuthClientMetadata(
            client_name=f"elicit authorized_server test ({name})",
            redirect_uris=[callback.uri],
            response_types=["code"],
            token_endpoint_auth_method="none",
        )
        self.auth = OAuthClientProvider(
            server_url=url,
            client_metadata=metadata,
            storage=self.storage,
            redirect_handler=self.authorize,
            callback_handler=callback.code,
        )
        self.session_ids: list[str] = []
        self.page = None

        async def keep_session_id(response) -> None:
            session = response.headers.get("mcp-session-id")
            if session and session not in self.session_ids:
                self.session_ids.append(session)

        self.http = httpx2.AsyncClient(auth=self.auth, timeout=TIMEOUT, event_hooks={"response": [keep_session_id]})

    async def authorize(self, authorization_url: str) -> None:
        check(authorization_url.startswith(f"{self.issuer}/"), f"authorization at {authorization_url}")
        check("resource=" in authorization_url, f"no resource in {authorization_url}")
        page = await self.context.new_page()
        _, asked = await through_the_provider(page, authorization_url, self.issuer, self.name, self.callback.uri)
        # A fresh context: the provider has no session for it, so the person types the name.
        check(asked, f"the provider signed {self.name} in without asking")
        await page.close()

    def access_token(self) -> str:
        check(self.storage.tokens is not None, f"{self.name} has no token")
        return self.storage.tokens.access_token


def text_of(result) -> str:
    check(not result.is_error, f"the tool failed: {result}")
    return "".join(block.text for block in result.content if block.type == "text")


async def open_link(person: Person, link: str, origin: str, issuer: str) -> int:
    """`person`'s browser opens the page's `link`, through the page's login at the provider
    (where the person is signed in already, or signs in) and back: the status the link
    answered, the page left open in `person.page`."""
    check(link.startswith(f"{origin}/secure/"), f"the link {link}")
    person.page = await person.context.new_page()
    status, _ = await through_the_provider(person.page, link, issuer, person.name, link)
    return status


async def at_the_browsers(link, origin, issuer, bob: Person, alice: Person, key: str, done) -> None:
    """bob opens alice's link and is refused; alice opens it, fills the form and sends it."""
    try:
        status = await open_link(bob, link, origin, issuer)
        check(status == 403, f"bob's browser got {status} for alice's link")
        check("api_key" not in await bob.page.content(), "bob saw alice's form")
        print("page: bob refused after his sign-in", flush=True)

        status = await open_link(alice, link, origin, issuer)
        check(status == 200, f"alice's browser got {status} for her link")
        page = alice.page
        await page.fill("input[name=api_key]", key)
        await page.fill("input[name=calendar]", "Work")
        await page.click("button[value=send]")
        check("Sent" in await page.inner_text("h1"), "the page says it was sent")
        print("page: alice's form sent", flush=True)
    finally:
        done.set()


async def as_bob(url: str, mode: str, bob: Person) -> str:
    async with Client(streamable_http_client(url, http_client=bob.http), mode=mode) as client:
        print(f"bob: revision {client.protocol_version}", flush=True)
        return text_of(await client.call_tool("whoami", {}))


def book(context, params):
    check(params.mode == "form", f"book asked with {params}")
    fields = params.requested_schema["properties"]
    check(set(fields) == {"checkIn", "nights", "room"}, f"the booking's fields {fields}")
    titles = [choice["title"] for choice in fields["room"]["oneOf"]]
    check(titles == ["Single room", "Double room", "Suite with a terrace"], f"the rooms' titles {titles}")
    return types.ElicitResult(action="accept", content={"checkIn": "2026-09-14", "nights": 3, "room": "suite"})


async def hijack(url: str, session: str, token: str, revision: str) -> None:
    """bob's token on alice's session: each method must be answered 404."""
    headers = {
        "Authorization": f"Bearer {token}",
        "Mcp-Session-Id": session,
        "MCP-Protocol-Version": revision,
        "Accept": "application/json, text/event-stream",
    }
    listing = {"jsonrpc": "2.0", "id": 99, "method": "tools/list", "params": {}}
    async with httpx2.AsyncClient(timeout=TIMEOUT) as http:
        answers = [
            ("POST", await http.post(url, headers=headers, json=listing)),
            ("GET", await http.get(url, headers=headers)),
            ("DELETE", await http.delete(url, headers=headers)),
        ]
    for method, answer in answers:
        check(answer.status_code == 404, f"bob's {method} on alice's session got {answer.status_code}: {answer.text}")
    print("session: bob's token on alice's session: POST 404, GET 404, DELETE 404", flush=True)


async def main(url: str, mode: str, issuer: str, chromium: str, key: str) -> None:
    origin = url.removesuffix("/mcp")
    async with async_playwright() as playwright, anyio.create_task_group() as services:
        browser = await playwright.chromium.launch(executable_path=chromium, headless=True)
        people = {}
        for name in ["bob", "alice"]:
            callback = Callback()
            await callback.start(services)
            context = await browser.new_context()
            people[name] = Person(name, url, issuer, context, callback)
        bob, alice = people["bob"], people["alice"]

        with anyio.fail_after(120):
            print(f"bob: whoami {await as_bob(url, mode, bob)}", flush=True)

        browsers_done = anyio.Event()

        async def answer(context, params):
            if params.mode == "url":
                services.start_soon(at_the_browsers, params.url, origin, issuer, bob, alice, key, browsers_done)
                return types.ElicitResult(action="accept")
            return book(context, params)

        async with Client(streamable_http_client(url, http_client=alice.http), mode=mode, elicitation_callback=answer) as client:
            revision = client.protocol_version
            print(f"alice: revision {revision}", flush=True)
            with anyio.fail_after(120):
                print(f"alice: whoami {text_of(await client.call_tool('whoami', {}))}", flush=True)
                print(f"alice: book {text_of(await client.call_tool('book', {}))}", flush=True)
                connected = text_of(await client.call_tool("connect_calendar", {}))
                await browsers_done.wait()
            print(f"alice: connect_calendar {connected}", flush=True)
            if mode == "legacy":
                check(len(alice.session_ids) == 1, f"alice's sessions {alice.session_ids}")
                await hijack(url, alice.session_ids[0], bob.access_token(), revision)
                with anyio.fail_after(30):
                    again = text_of(await client.call_tool("whoami", {}))
                print(f"alice: whoami on her session still {again}", flush=True)
        await browser.close()
        for person in people.values():
            await person.http.aclose()
        services.cancel_scope.cancel()


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:6])
