// Drives redrive's /mcp with the official MCP TypeScript SDK, as it/McpTypeScriptClientIT asks:
//   node check.mjs <mcp url> <dead-letter stream>
// Prints one JSON object of what each role saw; the Java test asserts on it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, dlq] = process.argv.slice(2);

async function as(user) {
  const auth = "Basic " + Buffer.from(`${user}:${user}-pw`).toString("base64");
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: auth } },
  });
  const client = new Client({ name: "redrive-it", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

function outcome(result) {
  return { isError: result.isError === true, text: result.content?.[0]?.text ?? "" };
}

const out = {};
const viewer = await as("viewer");
out.protocolVersion = viewer.transport.protocolVersion;
out.server = viewer.client.getServerVersion()?.name;
out.tools = (await viewer.client.listTools()).tools
  .map((t) => ({ name: t.name, readOnly: t.annotations?.readOnlyHint, destructive: t.annotations?.destructiveHint }));
out.viewerCount = outcome(await viewer.client.callTool({ name: "count_matches", arguments: { dlq } }));
out.viewerPropose = outcome(await viewer.client.callTool({ name: "propose_redrive", arguments: { dlq, filter: {} } }));
await viewer.client.close();

const agent = await as("automation");
out.agentPropose = outcome(await agent.client.callTool({
  name: "propose_redrive", arguments: { dlq, filter: {}, note: "from the TypeScript SDK" },
}));
out.agentRedrive = outcome(await agent.client.callTool({ name: "redrive", arguments: { dlq, filter: {} } }));
await agent.client.close();

console.log(JSON.stringify(out));
