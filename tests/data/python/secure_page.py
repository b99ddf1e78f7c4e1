"""The official Python MCP client and headless Chromium against `examples/secure_page`: the
client calls `connect_calendar` on the revision MODE names (`auto` negotiates by
`server/discover` and lands on 2026-07-28, `legacy` uses the `initialize` handshake,
2025-11-25) as the user whose bearer token is USER; the elicitation callback consents to the
URL request at once, and the person at the browser (Chromium, driven by Playwright, given the
binary CHROMIUM) answers on the server's page:

1. another user's browser opens the link, is sent to the development sign-in, signs in there
   and comes back to the link: 403, nothing of the form shown;
2. the user's browser opens the link, is sent to the sign-in (`/login?return_to=…`), signs
   in on its form and comes back to the link: the form, with the page's headers;
3. an answer with a forged CSRF token is refused (403);
4. a wrong answer (sent with the browser's own checks turned off, as by a browser without
   them) comes back with its error beside the field, the other answer kept, the key field
   empty;
5. the right answer is sent; the link then shows no form (404);
6. the tool's result comes back.

Every byte of the MCP traffic (requests and responses, both ways) is recorded; the script
prints one line per step, then the traffic's bytes as hex on a `traffic` line, for the test to
search for the key in every encoding. Exits non-zero on anything else.

Usage: python secure_page.py URL MODE USER CHROMIUM KEY
"""

import sys

import anyio
import httpx2
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client
from playwright.async_api import async_playwright


class Recording(httpx2.AsyncBaseTransport):
    """The client's HTTP transport, keeping a copy of every byte sent and received."""

    def __init__(self) -> None:
        self.inner = httpx2.AsyncHTTPTransport()
        self.log = bytearray()

    async def handle_async_request(self, request):
        self.log.extend(await request.aread())
        response = await self.inner.handle_async_request(request)
        log, stream = self.log, response.stream

        class Tee(httpx2.AsyncByteStream):
            async def __aiter__(self):
                async for chunk in stream:
                    log.extend(chunk)
                    yield chunk

            async def aclose(self):
                await stream.aclose()

        return httpx2.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=Tee(),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self.inner.aclose()


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"failed: {what}")


async def sign_in_through(page, link: str, origin: str, user: str):
    """Opens `link` in `page`, is sent to the development sign-in, signs in as `user` on its
    form and comes back to `link`: the response of the link, as the browser lands on it."""
    sent = await page.goto(link)
    check(sent.status == 200, f"the sign-in's form answered {sent.status}")
    check(page.url.startswith(f"{origin}/login?return_to="), f"sent to {page.url}")
    await page.fill("input[name=user]", user)
    async with page.expect_navigation() as landed:
        await page.click("button.send")
    response = await landed.value
    check(page.url == link, f"came back to {page.url}, not {link}")
    return response


async def person(link: str, origin: str, user: str, chromium: str, key: str) -> None:
    """The person at the browser, answering the page."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium, headless=True)
        try:
            other = await browser.new_context()
            page = await other.new_page()
            refused = await sign_in_through(page, link, origin, "mallory")
            check(refused.status == 403, f"another user's browser got {refused.status}")
            check("Calendar" not in await page.content(), "another user saw the form")
            print("page: another user refused", flush=True)

            mine = await browser.new_context()
            page = await mine.new_page()
            shown = await sign_in_through(page, link, origin, user)
            check(shown.status == 200, f"the form's page answered {shown.status}")
            headers = shown.headers
            check(headers.get("content-security-policy", "").startswith("default-src 'none'"), f"CSP {headers}")
            check(headers.get("referrer-policy") == "no-referrer", "Referrer-Policy")
            check(headers.get("cache-control") == "no-store", "Cache-Control")
            check(headers.get("x-content-type-options") == "nosniff", "X-Content-Type-Options")
            check(await page.get_attribute("input[name=api_key]", "type") == "password", "the key is a password input")
            print("page: form shown with its headers", flush=True)

            forged = await mine.request.post(link, form={"_csrf": "forged", "api_key": key, "calendar": "Work", "_action": "send"})
            check(forged.status == 403, f"a forged token got {forged.status}")
            print("page: forged token refused", flush=True)

            # The browser checks the lengths itself (`minlength`) and would not send this: turned
            # off, as in a browser that does not check, so that the server's own check answers.
            await page.evaluate("document.querySelector('form').noValidate = true")
            await page.fill("input[name=api_key]", "short")
            await page.fill("input[name=calendar]", "Work")
            await page.click("button[value=send]")
            error = page.locator("#f0-error")
            check("must be at least 8 characters" in (await error.inner_text()), "the key's error beside it")
            check(await page.get_attribute("input[name=api_key]", "aria-describedby") == "f0-hint f0-error", "the error tied to the input")
            check(await page.input_value("input[name=api_key]") == "", "the key is not shown again")
            check(await page.input_value("input[name=calendar]") == "Work", "the calendar is kept")
            print("page: wrong answer shown again", flush=True)

            await page.fill("input[name=api_key]", key)
            await page.click("button[value=send]")
            check("Sent" in await page.inner_text("h1"), "the page says it was sent")
            again = await page.goto(link)
            check(again.status == 404, f"the spent link answered {again.status}")
            print("page: sent, link spent", flush=True)
        finally:
            await browser.close()


async def main(url: str, mode: str, user: str, chromium: str, key: str) -> None:
    origin = url.removesuffix("/mcp")
    recording = Recording()
    # The SDK's own timeouts (`create_mcp_http_client`): a server may hold a response open.
    timeout = httpx2.Timeout(30.0, read=300.0)
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {user}"}, transport=recording, timeout=timeout)
    async with anyio.create_task_group() as people:

        async def consent(context, params):
            check(params.mode == "url", f"not a URL request: {params}")
            check(params.url.startswith(f"{origin}/secure/"), f"the link {params.url}")
            people.start_soon(person, params.url, origin, user, chromium, key)
            return types.ElicitResult(action="accept")

        async with Client(streamable_http_client(url, http_client=http), mode=mode, elicitation_callback=consent) as client:
            print(f"revision {client.protocol_version}", flush=True)
            with anyio.fail_after(120):
                result = await client.call_tool("connect_calendar", {})
            text = "".join(block.text for block in result.content if block.type == "text")
    # Once the person is done too: their last check may come after the result.
    print(f"result: {text}", flush=True)
    await http.aclose()
    print(f"traffic {bytes(recording.log).hex()}", flush=True)


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:6])
