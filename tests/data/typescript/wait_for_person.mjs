// The official TypeScript client (@modelcontextprotocol/sdk 1.32.2, which speaks 2025-11-25)
// against the crate page's HTTP recipe (`examples/http_server`), as the user whose bearer token
// is TOKEN: `book` asks a form, and the person takes WAIT seconds to answer it. The call is made
// as a host that shows progress makes it (`onprogress`, `resetTimeoutOnProgress`), with the
// SDK's own request timeout (60 s) left as it is: the call lives only if the server says, while
// it waits, that it is waiting.
//
// Prints the progress notifications received (their count and distinct messages), then the
// tool's text; exits non-zero on anything else.
//
// Usage: node wait_for_person.mjs URL TOKEN WAIT
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [url, token, wait] = process.argv.slice(2);
const client = new Client(
    { name: "elicit-ts-wait", version: "0" },
    { capabilities: { elicitation: { form: {} } } },
);
client.setRequestHandler(ElicitRequestSchema, async () => {
    await new Promise((resolve) => setTimeout(resolve, Number(wait) * 1000));
    return { action: "accept", content: { checkIn: "2026-12-24", nights: 2 } };
});
const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
await client.connect(transport);
console.log(`revision ${transport.protocolVersion}`);
const messages = [];
const result = await client.callTool({ name: "book", arguments: { name: "Ritz" } }, undefined, {
    onprogress: (progress) => messages.push(progress.message ?? ""),
    resetTimeoutOnProgress: true,
});
console.log(`progress ${messages.length}: ${[...new Set(messages)].join(" | ")}`);
console.log(`book: ${result.content[0].text}`);
await client.close();
