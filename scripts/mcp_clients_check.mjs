// End-to-end check with the TypeScript MCP SDK 1.x (`@modelcontextprotocol/sdk`; 2025-11-25
// `initialize`, no 2026 mode): over streamable HTTP, over stdio (`dcx mcp`), or through
// `mcp-remote` (its default flags), the stdio bridge desktop hosts put in their config.
//
// Usage: node mcp_clients_check.mjs NODE_MODULES http URL DCX
//        node mcp_clients_check.mjs NODE_MODULES stdio DCX
//        node mcp_clients_check.mjs NODE_MODULES mcp-remote URL DCX
//
// Lists the tools, calls all four (the quotes of scripts/mcp_checks.py), and compares each
// quote's structuredContent with `dcx quote --json`; then reads the resources and the
// history template, gets a prompt and completes an argument. Exits 1 on any mismatch.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';

const [modules, mode, ...rest] = process.argv.slice(2);
const require = createRequire(path.join(modules, 'noop.js'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const sdkVersion = JSON.parse(readFileSync(path.join(modules, '@modelcontextprotocol/sdk/package.json'), 'utf8')).version;

const EXPECTED_TOOLS = ['get_diamond_price', 'get_dcx_index', 'get_market_depth', 'check_asking_price'];
const QUOTES = [
  { carat: 1.23, color: 'G', clarity: 'VS2' },
  { carat: 1.23, color: 'G', clarity: 'VS2', shape: 'oval', shape_ratio: 1.35 },
  { carat: 2.5, color: 'e', clarity: 'vvs1', shape: 'cushion' },
];

const label = `sdk ${sdkVersion} ${mode}`;
let passes = 0;
const failures = [];
function check(name, ok, detail = '') {
  if (ok) {
    passes += 1;
    console.log(`ok    [${label}] ${name}`);
  } else {
    failures.push(name);
    console.log(`FAIL  [${label}] ${name} ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
  }
}

function dcxQuote(dcx, args) {
  const argv = ['quote', '--carat', String(args.carat), '--color', args.color, '--clarity', args.clarity, '--json'];
  if (args.shape) argv.push('--shape', args.shape);
  if (args.shape_ratio) argv.push('--ratio', String(args.shape_ratio));
  return JSON.parse(execFileSync(dcx, argv, { encoding: 'utf8' }));
}

function transport() {
  switch (mode) {
    case 'http':
      return [new StreamableHTTPClientTransport(new URL(rest[0])), rest[1]];
    case 'stdio':
      return [new StdioClientTransport({ command: rest[0], args: ['mcp'], stderr: 'inherit' }), rest[0]];
    case 'mcp-remote': {
      const proxy = require.resolve('mcp-remote/dist/proxy.js');
      // Its default flags; the environment (MCP_REMOTE_CONFIG_DIR) is passed on.
      return [new StdioClientTransport({ command: process.execPath, args: [proxy, rest[0]], env: process.env, stderr: 'inherit' }), rest[1]];
    }
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

const texts = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text);

async function main() {
  const [channel, dcx] = transport();
  const client = new Client({ name: 'dcx-client-matrix', version: '1.0.0' });
  await client.connect(channel);
  check('initialize names the server', client.getServerVersion()?.name === 'dcx-diamond-pricing', client.getServerVersion());
  check('the server offers tools', Boolean(client.getServerCapabilities()?.tools));

  const { tools } = await client.listTools();
  check('tools/list returns the four tools in order', isDeepStrictEqual(tools.map((t) => t.name), EXPECTED_TOOLS), tools.map((t) => t.name));
  for (const tool of tools) {
    check(`${tool.name} has a description and an output schema`, Boolean(tool.description) && Boolean(tool.outputSchema));
  }
  for (const args of QUOTES) {
    const name = `get_diamond_price ${JSON.stringify(args)}`;
    const result = await client.callTool({ name: 'get_diamond_price', arguments: args });
    check(`${name}: not an error`, !result.isError, texts(result));
    const expected = dcxQuote(dcx, args);
    check(`${name}: equals dcx quote --json`, isDeepStrictEqual(result.structuredContent, expected),
      `\n  tool: ${JSON.stringify(result.structuredContent)}\n  dcx:  ${JSON.stringify(expected)}`);
    const items = texts(result);
    check(`${name}: readable text then JSON text`, items.length === 2 && isDeepStrictEqual(JSON.parse(items[1]), result.structuredContent), items);
  }
  const index = await client.callTool({ name: 'get_dcx_index', arguments: {} });
  const s = index.structuredContent ?? {};
  check('get_dcx_index: dcx and three trends', !index.isError && s.dcx_usd_per_carat > 0
    && isDeepStrictEqual(Object.keys(s.trends_percent ?? {}).sort(), ['24h', '30d', '7d']), s);
  const depth = await client.callTool({ name: 'get_market_depth', arguments: { carat: 1.04 } });
  const d = depth.structuredContent ?? {};
  const total = Object.values(d.by_clarity ?? {}).reduce((a, b) => a + b, 0);
  check('get_market_depth(1.04): nearest key 1.0 and a total', !depth.isError && d.carat_key === '1.0' && d.comparable_offer_count === total, d);
  const overview = await client.callTool({ name: 'get_market_depth', arguments: {} });
  check('get_market_depth(): 10 combinations', !overview.isError && overview.structuredContent?.top_combinations?.length === 10);
  const stone = QUOTES[1];
  const quote = dcxQuote(dcx, stone);
  const asked = await client.callTool({ name: 'check_asking_price', arguments: { ...stone, asking_price_usd: 6500 } });
  const c = asked.structuredContent ?? {};
  check('check_asking_price: the benchmark, range and basis of dcx quote --json', !asked.isError
    && c.benchmark_usd === quote.total_usd && isDeepStrictEqual(c.range, quote.range) && c.basis === quote.basis, c);
  check('check_asking_price: a verdict and a percentile', ['below_market', 'within_market', 'above_market'].includes(c.verdict)
    && c.percentile >= 0 && c.percentile <= 100, c);
  const refused = await client.callTool({ name: 'check_asking_price', arguments: { ...stone, asking_price_usd: -1 } });
  check('check_asking_price with a negative ask: isError naming asking_price_usd', refused.isError && texts(refused).join(' ').includes('asking_price_usd'), texts(refused));
  const bad = await client.callTool({ name: 'get_diamond_price', arguments: { carat: 7, color: 'Z', clarity: 'VS2' } });
  const badText = texts(bad).join(' ');
  check('bad arguments: isError naming carat and color', bad.isError && badText.includes('carat') && badText.includes('color'), badText);
  try {
    await client.callTool({ name: 'no_such_tool', arguments: {} });
    check('an unknown tool is a JSON-RPC error', false, 'it succeeded');
  } catch (error) {
    check('an unknown tool is a JSON-RPC error -32602', error.code === -32602, String(error));
  }
  await checkPrimitives(client);
  await client.close();
}

const EXPECTED_RESOURCES = [
  'dcx://feeds/matrix.json', 'dcx://feeds/matrix_cushion.json', 'dcx://feeds/ratio_models.json',
  'dcx://feeds/index.json', 'dcx://feeds/depth.json', 'dcx://docs/methodology.md', 'dcx://docs/api.md',
  'dcx://history/dcx.json', 'ui://dcx/chart.html', 'ui://dcx/calculator.html',
];

// Resources, the history template, prompts and a completion, as scripts/mcp_checks.py.
async function checkPrimitives(client) {
  const caps = client.getServerCapabilities() ?? {};
  check('the server offers resources, prompts, completions', Boolean(caps.resources && caps.prompts && caps.completions), caps);
  const { resources } = await client.listResources();
  check('resources/list: the five feeds, two documents, the DCX by day, two views', isDeepStrictEqual(resources.map((r) => r.uri), EXPECTED_RESOURCES), resources.map((r) => r.uri));
  const index = (await client.readResource({ uri: 'dcx://feeds/index.json' })).contents[0];
  const body = JSON.parse(index.text);
  check('resources/read dcx://feeds/index.json: the index feed as JSON', index.mimeType === 'application/json' && body.dcx > 0, index);
  const { resourceTemplates } = await client.listResourceTemplates();
  check('resources/templates/list: the history template', resourceTemplates[0]?.uriTemplate === 'dcx://history/{date}/{feed}', resourceTemplates);
  const past = (await client.readResource({ uri: `dcx://history/${body.ts.slice(0, 10)}/index.json` })).contents[0];
  check('resources/read of the live day through the template', isDeepStrictEqual(JSON.parse(past.text), body));
  const { prompts } = await client.listPrompts();
  check('prompts/list: price_stone, fair_asking_price', isDeepStrictEqual(prompts.map((p) => p.name), ['price_stone', 'fair_asking_price']), prompts);
  const prompt = await client.getPrompt({ name: 'fair_asking_price', arguments: { carat: '1.2', color: 'G', clarity: 'VS2', asking_price_usd: '9000' } });
  const text = prompt.messages[0].content.text;
  check('prompts/get fair_asking_price names the tools', text.includes('get_diamond_price') && text.includes('9000'), text);
  const { completion } = await client.complete({ ref: { type: 'ref/prompt', name: 'price_stone' }, argument: { name: 'clarity', value: 'vs' } });
  check("completion/complete clarity 'vs'", isDeepStrictEqual(completion.values, ['VS1', 'VS2']), completion);
}

main()
  .catch((error) => check('session', false, String(error?.stack ?? error)))
  .finally(() => {
    console.log(`[${label}] ${passes} passed, ${failures.length} failed`);
    process.exit(failures.length ? 1 : 0);
  });
