// The official TypeScript client (@modelcontextprotocol/sdk 1.32.2, which speaks 2025-11-25)
// against the crate page's HTTP recipe (`examples/http_server`), as the user whose bearer token
// is TOKEN, losing the connection of a call while the call's form waits. `book` asks a form;
// when the ask arrives, the connection that carries the call's event stream (the answer to its
// POST) breaks, and the client's transport resumes the stream by itself, as it does on any
// broken stream: a GET with `Last-Event-ID` after the server's `retry` (3 s).
//
// Twice: the person answers at once, before the client is back ("away"), then after
// ANSWER_AFTER seconds, once the client is back and the server has told it, on the resumed
// stream, that it waits ("back"). For each, prints one line of JSON: the resumes the transport
// made (the `Last-Event-ID` of each GET) and the ask's event id, whether the resumed streams
// carried progress and the call's result, the progress notifications the call heard, and the
// tool's text. Exits non-zero on anything else.
//
// Usage: node drop_mid_ask.mjs URL TOKEN ANSWER_AFTER
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [url, token, answerAfter] = process.argv.slice(2);

// What the current call's connections did.
let call;

// The transport's fetch, which can break the connection of a call's stream and records what
// the resumed streams carry.
async function fetchThatDrops(input, init) {
    const response = await fetch(input, init);
    const headers = new Headers(init?.headers);
    const method = init?.method ?? "GET";
    const resumedAfter = headers.get("last-event-id");
    if (method === "GET" && resumedAfter !== null && response.body) {
        call.resumes.push(resumedAfter);
        const decoder = new TextDecoder();
        const recorded = new TransformStream({
            transform(chunk, controller) {
                call.resumed += decoder.decode(chunk, { stream: true });
                controller.enqueue(chunk);
            },
        });
        return new Response(response.body.pipeThrough(recorded), response);
    }
    const isCall =
        method === "POST" && typeof init.body === "string" && JSON.parse(init.body).method === "tools/call";
    if (!isCall || !response.body) {
        return response;
    }
    // The stream the transport reads: the response's own until it breaks.
    const source = response.body.getReader();
    let stream;
    const body = new ReadableStream({
        start(controller) {
            stream = controller;
        },
        async pull(controller) {
            try {
                const { value, done } = await source.read();
                if (done) {
                    controller.close();
                } else {
                    controller.enqueue(value);
                }
            } catch {
                // Cancelled below: the stream has already failed.
            }
        },
    });
    call.breakConnection = () => {
        source.cancel();
        stream.error(new TypeError("terminated: the connection broke"));
    };
    return new Response(body, response);
}

const client = new Client(
    { name: "elicit-ts-drop", version: "0" },
    { capabilities: { elicitation: { form: {} } } },
);
client.setRequestHandler(ElicitRequestSchema, async () => {
    call.ask = call.lastEventId;
    call.breakConnection();
    await new Promise((resolve) => setTimeout(resolve, call.answerAfter * 1000));
    return { action: "accept", content: { checkIn: "2026-12-24", nights: 2 } };
});
const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: fetchThatDrops,
});
await client.connect(transport);

for (const [phase, wait] of [["away", 0], ["back", Number(answerAfter)]]) {
    call = { answerAfter: wait, resumes: [], resumed: "", progress: 0, lastEventId: undefined };
    const result = await client.callTool({ name: "book", arguments: { name: "Ritz" } }, undefined, {
        onprogress: () => (call.progress += 1),
        onresumptiontoken: (id) => (call.lastEventId = id),
        resetTimeoutOnProgress: true,
    });
    const text = result.content[0].text;
    console.log(
        JSON.stringify({
            phase,
            revision: transport.protocolVersion,
            ask: call.ask,
            resumes: call.resumes,
            progress: call.progress,
            progressOnResumed: call.resumed.includes("waiting for the user to answer"),
            resultOnResumed: call.resumed.includes(JSON.stringify(text)),
            text,
        }),
    );
}
await client.close();
