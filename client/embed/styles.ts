/**
 * The widget's styles. They live in its shadow root, so they reach nothing on the host page; the host element
 * and `:host` are reset (`all: initial`), so the page's inherited styles reach nothing inside. Light and dark
 * follow the visitor's system unless `data-theme` chooses one.
 */
export const WIDGET_CSS = `
:host{all:initial;display:block}
.lw{--bg:#fff;--fg:#1b1f24;--muted:#5b6470;--line:#d8dde3;--soft:#f2f4f7;--accent:#2f5d50;--accent-fg:#fff;
--user-bg:var(--accent);--user-fg:var(--accent-fg);--bot-bg:var(--soft);--bot-fg:var(--fg);--error:#b42318;--error-bg:#fef3f2;
--code-bg:#eef1f4;--text:14px;
position:fixed;z-index:2147483000;font:400 var(--text)/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:var(--fg);text-align:left;direction:ltr;-webkit-font-smoothing:antialiased}
.lw.dark{--bg:#16191d;--fg:#e8eaed;--muted:#a3abb5;--line:#343a42;--soft:#22272d;--accent:#5fa58f;--accent-fg:#0d1512;
--error:#fda29b;--error-bg:#3a1714;--code-bg:#0f1215}
@media (prefers-color-scheme:dark){.lw.auto{--bg:#16191d;--fg:#e8eaed;--muted:#a3abb5;--line:#343a42;--soft:#22272d;
--accent:#5fa58f;--accent-fg:#0d1512;--error:#fda29b;--error-bg:#3a1714;--code-bg:#0f1215}}
.lw *,.lw *::before,.lw *::after{box-sizing:border-box}
.lw.bottom-right{right:16px;bottom:16px}.lw.bottom-left{left:16px;bottom:16px}
.lw.top-right{right:16px;top:16px}.lw.top-left{left:16px;top:16px}
:where(.lw) button{font:inherit;color:inherit;cursor:pointer}
.lw [hidden]{display:none!important}
.lw :focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.bubble{width:56px;height:56px;border-radius:50%;border:0;background:var(--button,var(--accent));color:var(--button-fg,var(--accent-fg));
display:flex;align-items:center;justify-content:center;box-shadow:0 4px 14px rgba(0,0,0,.25);padding:0}
.bubble svg{width:26px;height:26px}
svg{fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round;flex:none}
.window{display:flex;flex-direction:column;width:min(var(--width,400px),calc(100vw - 32px));
height:min(var(--height,700px),calc(100vh - 32px));background:var(--bg);color:var(--fg);border:1px solid var(--line);
border-radius:14px;box-shadow:0 12px 40px rgba(0,0,0,.28);overflow:hidden}
.header{display:flex;align-items:center;gap:8px;padding:10px 12px;border-bottom:1px solid var(--line);min-height:52px}
.brand{max-height:36px;max-width:60%;object-fit:contain}
.avatar{width:28px;height:28px;border-radius:50%;object-fit:cover}
.title{flex:1;min-width:0;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.header .spacer{flex:1}
.tool{border:1px solid var(--line);background:transparent;border-radius:8px;padding:4px 10px;font-size:.9em;min-height:32px}
.icon{border:0;background:transparent;border-radius:8px;padding:6px;display:flex;min-width:32px;min-height:32px;align-items:center;justify-content:center}
.icon svg{width:20px;height:20px}
.tool:hover,.icon:hover{background:var(--soft)}
.banner{margin:8px 12px 0;padding:8px 10px;border-radius:8px;background:var(--error-bg);color:var(--error);font-size:.92em}
.messages{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:10px;overscroll-behavior:contain}
.greeting{color:var(--muted);text-align:center;margin:24px 8px 8px}
.suggestions{display:flex;flex-direction:column;gap:6px;align-items:flex-end}
.suggestion{border:1px solid var(--line);background:var(--bg);border-radius:12px;padding:6px 10px;text-align:left;max-width:85%}
.suggestion:hover{background:var(--soft)}
.msg{max-width:88%;border-radius:12px;padding:8px 11px;overflow-wrap:anywhere}
.msg.user{align-self:flex-end;background:var(--user-bg);color:var(--user-fg);white-space:pre-wrap}
.msg.assistant{align-self:flex-start;background:var(--bot-bg);color:var(--bot-fg)}
.msg.failed{background:var(--error-bg);color:var(--error)}
.msg p,.msg ul,.msg ol,.msg pre,.msg blockquote,.msg h1,.msg h2,.msg h3,.msg h4,.msg h5,.msg h6{margin:0 0 .5em}
.msg>:last-child,.md>:last-child{margin-bottom:0}
.msg h1,.msg h2,.msg h3,.msg h4,.msg h5,.msg h6{font-size:1.05em;font-weight:600}
.msg ul,.msg ol{padding-left:1.3em}
.msg a{color:inherit;text-decoration:underline}
.msg code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:var(--code-bg);border-radius:4px;padding:0 3px}
.msg pre{background:var(--code-bg);border-radius:8px;padding:8px;overflow-x:auto;white-space:pre}
.msg pre code{background:none;padding:0}
.msg blockquote{border-left:3px solid var(--line);padding-left:8px;color:var(--muted)}
.msg hr{border:0;border-top:1px solid var(--line)}
.error{margin-top:4px}
.md+.error{border-top:1px solid var(--line);padding-top:4px}
.thinking{color:var(--muted);font-style:italic}
.thoughts{color:var(--muted);font-size:.9em;margin-bottom:.5em}
.sources{margin-top:8px;border-top:1px solid var(--line);padding-top:6px;font-size:.9em}
.sources-title{font-weight:600;margin:0 0 4px}
.sources ol{margin:0;padding-left:1.3em}
.sources summary{cursor:pointer}
.sources details p{margin:4px 0;color:var(--muted);white-space:pre-wrap;max-height:12em;overflow-y:auto}
.composer{display:flex;gap:8px;padding:10px 12px;border-top:1px solid var(--line);align-items:flex-end}
.composer textarea{flex:1;resize:none;font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);
border-radius:10px;padding:8px 10px;min-height:40px;max-height:120px}
.send{border:0;border-radius:10px;background:var(--button,var(--accent));color:var(--button-fg,var(--accent-fg));padding:0 14px;min-height:40px;font-weight:600}
.send:disabled{opacity:.5;cursor:default}
.footer{display:flex;justify-content:center;gap:12px;padding:0 12px 8px;font-size:.8em;color:var(--muted)}
.footer a{color:inherit}
@media (max-width:480px){.window{position:fixed;inset:0;width:100%;height:100%;max-height:100dvh;border-radius:0;border:0}
.composer textarea{font-size:16px}}
`;
