/**
 * @module surfaces/web/page
 * The inspector's HTML shell. It holds no data: every panel fills itself from the JSON API, with the bearer
 * token the person typed (kept in sessionStorage, so it lasts for the tab and no longer). Scripts and styles
 * come only from this server (see the Content-Security-Policy in inspector.ts): nothing is fetched from a CDN.
 * The one wording the page shares with the other surfaces (STALE_SUMMARY_NOTE) rides on <body> as a data attribute:
 * the browser code cannot import the SDK.
 */
import { STALE_SUMMARY_NOTE } from "../../light.js";

const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export const INSPECTOR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cascade inspector</title>
<link rel="stylesheet" href="/assets/inspector.css">
<link rel="icon" href="data:,">
<script type="module" src="/assets/main.js"></script>
</head>
<body data-stale-note="${attribute(STALE_SUMMARY_NOTE)}">
<a class="skip" href="#panel">Skip to the panel</a>
<header>
  <h1>Cascade <span>inspector</span></h1>
  <nav aria-label="Panels">
    <a href="#search" data-tab="search">Search</a>
    <a href="#now" data-tab="now">Now</a>
    <a href="#timeline" data-tab="timeline">Timeline</a>
    <a href="#history" data-tab="history">History</a>
    <a href="#pyramid" data-tab="pyramid">Pyramid</a>
    <a href="#topics" data-tab="topics">Topics</a>
    <a href="#stats" data-tab="stats">Stats &amp; doctor</a>
  </nav>
  <form id="namespace-form" class="inline">
    <label for="namespace">Namespace</label>
    <input id="namespace" name="namespace" placeholder="default" size="10" autocomplete="off">
  </form>
</header>
<form id="token-form" class="token" hidden>
  <p>This server needs its bearer token. It is kept for this tab only (sessionStorage).</p>
  <label for="token">Bearer token</label>
  <input id="token" name="token" type="password" autocomplete="off" required>
  <button type="submit">Use token</button>
</form>
<div id="error" role="alert" aria-live="assertive" hidden></div>
<main id="panel" tabindex="-1" aria-live="polite"><noscript>The inspector needs JavaScript; the JSON API works without it.</noscript></main>
</body>
</html>
`;

export const INSPECTOR_CSS = `
:root { --fg:#1d2330; --muted:#5b6475; --line:#d9dde5; --bg:#fff; --soft:#f4f6fa; --accent:#2457c5; --bad:#b3261e; --old:#8a6d00;
  --bm25:#2457c5; --dense:#6b3fb5; --curated:#0f7b6c; --recency:#b4580b; --colbert:#a8326e; --time:#47617a; --graph:#6d7a12; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.45 system-ui, sans-serif; color:var(--fg); background:var(--bg); }
.skip { position:absolute; left:-999px; } .skip:focus { left:8px; top:8px; background:#fff; padding:4px; z-index:9; }
header { display:flex; flex-wrap:wrap; gap:12px 24px; align-items:center; padding:10px 16px; border-bottom:1px solid var(--line); background:var(--soft); }
h1 { font-size:18px; margin:0; } h1 span { color:var(--muted); font-weight:400; }
h2 { font-size:16px; margin:16px 0 8px; } h3 { font-size:15px; margin:12px 0 6px; }
nav { display:flex; gap:4px; flex-wrap:wrap; }
nav a { padding:4px 10px; border-radius:6px; color:var(--fg); text-decoration:none; }
nav a[aria-current="page"] { background:var(--accent); color:#fff; }
a { color:var(--accent); }
:focus-visible { outline:3px solid #f0a500; outline-offset:2px; }
main { padding:12px 16px 40px; max-width:1200px; }
form.inline { display:flex; gap:6px; align-items:center; }
.token { margin:12px 16px; padding:12px; border:1px solid var(--line); border-radius:8px; background:#fffbe6; }
#error { margin:12px 16px; padding:10px 12px; border-left:4px solid var(--bad); background:#fdecea; color:var(--bad); white-space:pre-wrap; }
fieldset { border:1px solid var(--line); border-radius:8px; margin:0 0 10px; padding:8px 12px; }
legend { color:var(--muted); padding:0 4px; }
.grid { display:grid; grid-template-columns:repeat(auto-fill, minmax(190px, 1fr)); gap:8px 14px; }
.field { display:flex; flex-direction:column; gap:2px; font-size:13px; color:var(--muted); }
.field input, .field select { font:inherit; color:var(--fg); padding:4px 6px; border:1px solid #b9c0cc; border-radius:5px; }
.row { display:flex; gap:8px; align-items:center; flex-wrap:wrap; }
input[type=search] { flex:1; min-width:240px; font-size:16px; padding:6px 8px; }
button { font:inherit; padding:5px 12px; border-radius:6px; border:1px solid #9aa3b2; background:#fff; cursor:pointer; }
button.primary { background:var(--accent); color:#fff; border-color:var(--accent); }
button.link { border:none; background:none; color:var(--accent); padding:0; text-decoration:underline; }
.muted { color:var(--muted); font-size:13px; }
ol.hits { list-style:none; padding:0; margin:0; }
.hit { border:1px solid var(--line); border-radius:8px; padding:10px 12px; margin:8px 0; display:grid; grid-template-columns:1fr 260px; gap:12px; }
.hit .text { white-space:pre-wrap; }
.badge { display:inline-block; font-size:12px; padding:0 6px; border-radius:9px; border:1px solid currentColor; margin-right:4px; }
.stale-note { color:var(--old); font-style:italic; margin:2px 0; }
.status-current { color:#17753a; } .status-superseded { color:var(--old); }
.bars { position:relative; font-size:12px; }
.bar-row { display:grid; grid-template-columns:60px 1fr 34px; align-items:center; gap:6px; height:17px; }
.bar-track { background:var(--soft); height:10px; border-radius:3px; overflow:hidden; }
.bar-fill { height:100%; }
.tip { display:none; position:absolute; right:0; top:100%; z-index:5; width:340px; background:#1d2330; color:#fff; padding:8px 10px; border-radius:6px; font:12px/1.5 ui-monospace, monospace; white-space:pre-wrap; }
.bars:hover .tip, .bars:focus .tip, .bars:focus-within .tip { display:block; }
.adjust { font-size:13px; color:var(--old); margin:4px 0 0; padding-left:18px; }
.timeline { position:relative; padding-left:140px; }
.timeline svg.edges { position:absolute; left:0; top:0; width:136px; height:100%; overflow:visible; }
.tl-item { border:1px solid var(--line); border-radius:8px; padding:6px 10px; margin:6px 0; }
.tl-item.future { opacity:.45; border-style:dashed; }
.tl-item.unknown { opacity:.45; background:repeating-linear-gradient(45deg, #fff, #fff 6px, var(--soft) 6px, var(--soft) 12px); }
.sliders { display:grid; grid-template-columns:1fr 1fr; gap:10px 20px; }
.sliders input[type=range] { width:100%; }
table { border-collapse:collapse; width:100%; font-size:14px; }
th, td { text-align:left; border-bottom:1px solid var(--line); padding:5px 8px; vertical-align:top; }
td a { white-space:nowrap; }
tr.retracted td, li.retracted { text-decoration:line-through; color:var(--muted); }
ol.chain { padding-left:20px; } ol.chain li { margin:6px 0; }
ul.tree { list-style:none; padding-left:18px; } ul.tree > li { margin:3px 0; }
.pyr-node { border-left:3px solid var(--line); padding:4px 0 4px 10px; margin:6px 0; }
.pyr-node summary { cursor:pointer; }
.ok { color:#17753a; } .bad { color:var(--bad); }
.context { border:1px dashed var(--line); border-radius:8px; padding:6px 10px; margin:6px 0; background:var(--soft); }
@media (max-width:760px) { .hit { grid-template-columns:1fr; } .sliders { grid-template-columns:1fr; } .timeline { padding-left:60px; } .timeline svg.edges { width:56px; } }
`;
