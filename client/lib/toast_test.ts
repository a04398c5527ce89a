import assert from "node:assert/strict";
import { toast as toastify } from "react-toastify";
import { stubDocument, stubGlobal } from "../testing/stubs.ts";
import { keepToastsAbove, loadToasts, toast, TOAST_AUTO_CLOSE_MS, toastSlot } from "./toast.ts";

type Call = [string, ...unknown[]];

/** Replaces react-toastify's functions with recorders; `active` says which ids still show. */
function recordToasts(active: Set<string | number> = new Set()) {
  const calls: Call[] = [];
  const target = toastify as unknown as Record<string, unknown>;
  const names = ["success", "error", "info", "warning", "loading", "dismiss", "update", "isActive"];
  const before = Object.fromEntries(names.map((name) => [name, target[name]]));
  let next = 0;
  for (const name of ["success", "error", "info", "warning", "loading"]) {
    target[name] = (...args: unknown[]) => {
      calls.push([name, ...args]);
      const id = `t${++next}`;
      active.add(id);
      return id;
    };
  }
  target.dismiss = (...args: unknown[]) => calls.push(["dismiss", ...args]);
  target.update = (...args: unknown[]) => calls.push(["update", ...args]);
  target.isActive = (id: string | number) => active.has(id);
  const restore = () => Object.assign(target, before);
  return { calls, active, [Symbol.dispose]: restore };
}

/** The calls with the ids toast.ts gives each toast left out. */
function withoutIds(calls: Call[]): Call[] {
  return calls.map(([name, ...args]) => [
    name,
    ...args.map((arg) => {
      if (!arg || typeof arg !== "object") return arg;
      const { toastId: _id, ...rest } = arg as Record<string, unknown>;
      return rest;
    }),
  ]);
}

Deno.test("toasts asked for before react-toastify is in show, in order, once it is; a slot's show only its last", async () => {
  using toasts = recordToasts();
  toast.error("early");
  const slot = toastSlot();
  slot.show("info", "1 of 2");
  slot.show("success", "2 of 2");
  assert.deepEqual(toasts.calls, [], "nothing shows before the library is in");
  await loadToasts();
  await Promise.resolve();
  assert.deepEqual(withoutIds(toasts.calls), [
    ["error", "early", {}],
    ["success", "2 of 2", { autoClose: 5000 }],
  ]);
});

Deno.test("toast shows each kind through react-toastify; a loading toast stays until changed", async () => {
  await loadToasts();
  using toasts = recordToasts();
  assert.equal(toast.success("saved", { toastId: "s" }), "s");
  const failed = toast.error("failed");
  toast.info("note");
  toast.warning("careful");
  const working = toast.loading("working");
  toast.dismiss("t1");
  assert.deepEqual(withoutIds(toasts.calls), [
    ["success", "saved", {}],
    ["error", "failed", {}],
    ["info", "note", {}],
    ["warning", "careful", {}],
    ["loading", "working", { autoClose: false }],
    ["dismiss", "t1"],
  ]);
  assert.deepEqual(toasts.calls[0][2], { toastId: "s" });
  assert.deepEqual(toasts.calls[1][2], { toastId: failed }, "each toast has its id, returned at once");
  assert.deepEqual(toasts.calls[4][2], { autoClose: false, toastId: working });
  assert.notEqual(failed, working);
  assert.equal(TOAST_AUTO_CLOSE_MS, 5000);
});

Deno.test("toastSlot() rewrites the toast still showing instead of stacking another", async () => {
  await loadToasts();
  using toasts = recordToasts();
  const slot = toastSlot();
  slot.show("info", "1 of 3 uploaded");
  slot.show("success", "3 of 3 uploaded");
  assert.deepEqual(toasts.calls, [
    ["info", "1 of 3 uploaded", { autoClose: 5000 }],
    ["update", "t1", { render: "3 of 3 uploaded", type: "success", isLoading: false, autoClose: 5000 }],
  ]);
});

Deno.test("toastSlot() keeps a toast up while its batch runs, then lets it close", async () => {
  await loadToasts();
  using toasts = recordToasts();
  const slot = toastSlot();
  slot.show("error", "a.exe was not attached", { keep: true });
  slot.show("error", "a.exe and b.bin were not attached", { keep: true });
  slot.show("error", "a.exe and b.bin were not attached");
  assert.deepEqual(toasts.calls, [
    ["error", "a.exe was not attached", { autoClose: false }],
    ["update", "t1", {
      render: "a.exe and b.bin were not attached",
      type: "error",
      isLoading: false,
      autoClose: false,
    }],
    ["update", "t1", {
      render: "a.exe and b.bin were not attached",
      type: "error",
      isLoading: false,
      autoClose: 5000,
    }],
  ]);
});

Deno.test("toastSlot() puts up a fresh toast once the last one has left the screen", async () => {
  await loadToasts();
  using toasts = recordToasts();
  const slot = toastSlot();
  slot.show("error", "first");
  toasts.active.clear();
  slot.show("warning", "second");
  slot.show("info", "third");
  assert.deepEqual(toasts.calls, [
    ["error", "first", { autoClose: 5000 }],
    ["warning", "second", { autoClose: 5000 }],
    ["update", "t2", { render: "third", type: "info", isLoading: false, autoClose: 5000 }],
  ]);
  const other = toastSlot();
  other.show("info", "another slot");
  assert.deepEqual(
    toasts.calls.at(-1),
    ["info", "another slot", { autoClose: 5000 }],
    "each slot has its own toast",
  );
});

/** A ResizeObserver that records what it observes and lets the test fire it. */
class FakeResizeObserver {
  static last: FakeResizeObserver | null = null;
  observed: unknown[] = [];
  disconnected = false;
  constructor(readonly callback: () => void) {
    FakeResizeObserver.last = this;
  }
  observe(element: unknown) {
    this.observed.push(element);
  }
  disconnect() {
    this.disconnected = true;
  }
}

Deno.test("keepToastsAbove() leaves the element's distance from the window's bottom as --toast-clearance", () => {
  using page = stubDocument();
  using _observer = stubGlobal("ResizeObserver", FakeResizeObserver);
  let height = 800;
  using _height = stubGlobal("innerHeight", 0);
  Object.defineProperty(globalThis, "innerHeight", { configurable: true, get: () => height });
  const element = page.document.createElement("div");
  let box = { top: 700.2, height: 80 };
  element.getBoundingClientRect = () => box as DOMRect;
  const root = page.document.documentElement;
  const clearance = () => root.style.getPropertyValue("--toast-clearance") ?? "";

  const stop = keepToastsAbove(element as unknown as HTMLElement);
  assert.equal(clearance(), "100px", "800 - 700.2 rounded up");
  assert.deepEqual(FakeResizeObserver.last?.observed, [element]);

  box = { top: 650, height: 130 };
  FakeResizeObserver.last!.callback();
  assert.equal(clearance(), "150px", "the element grew");

  height = 1000;
  globalThis.dispatchEvent(new Event("resize"));
  assert.equal(clearance(), "350px", "the window grew");

  box = { top: 0, height: 0 };
  FakeResizeObserver.last!.callback();
  assert.equal(clearance(), "0px", "a hidden element leaves no space");

  box = { top: 1200, height: 50 };
  FakeResizeObserver.last!.callback();
  assert.equal(clearance(), "0px", "below the window: no negative space");

  stop();
  assert.equal(clearance(), "");
  assert.equal(FakeResizeObserver.last?.disconnected, true);
  box = { top: 500, height: 50 };
  globalThis.dispatchEvent(new Event("resize"));
  assert.equal(clearance(), "", "no longer listening to resizes");
});
